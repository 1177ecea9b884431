package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/runner"
	"github.com/regress-hbase/regress/harness/suite"
)

// Serve is `regress worker`: w serves trials as a load host until ctx ends,
// logging warnings only when quiet.
func Serve(ctx context.Context, stderr io.Writer, w *loadhosts.Worker, quiet bool) error {
	if w.ZK == "" {
		return fault.Usage(errors.New("--zk HOST:PORT is required: the ZooKeeper of the cluster under test (what `regress cluster up` prints as zookeeper=)"))
	}
	if w.ConnectTimeout <= 0 {
		return fault.Usagef("--zk-timeout %v: give a positive time to wait for ZooKeeper to answer, e.g. --zk-timeout 30s (the default)", w.ConnectTimeout)
	}
	w.Log = NewLogger(ctx, stderr, quiet)
	if err := w.Serve(ctx); err != nil {
		return fault.Run(err)
	}
	return nil
}

// LoadHosts says whether trials run on `regress worker` load hosts.
type LoadHosts struct {
	// N is the number of load hosts; 0 means the suite's run.load_hosts (0 there: this process).
	N int
	// ZK is the ZooKeeper they registered in; empty means the measured cluster's (the baseline's in a comparison).
	ZK string
	// Root is the znode they registered under; empty means loadhosts.DefaultRoot.
	Root string
	// Timeout bounds the wait for them to register; 0 means loadhosts.DefaultHostsTimeout.
	Timeout time.Duration
}

// useLoadHosts gives r a coordinator of the load hosts when the job asks for
// them, waiting until they have registered; zk is the measured cluster's
// ZooKeeper. The returned func closes the coordinator.
func (se *session) useLoadHosts(ctx context.Context, o *Options, s *suite.Suite, r *runner.Runner, zk string) (func(), error) {
	n := o.LoadHosts.N
	if n == 0 {
		n = s.Run.LoadHosts
	}
	if n < 0 {
		return func() {}, fault.Usagef("--load-hosts %d: give the number of `regress worker` hosts, or 0 to run the load here", n)
	}
	if n == 0 {
		return func() {}, nil
	}
	if o.LoadHosts.ZK != "" {
		zk = o.LoadHosts.ZK
	}
	co, err := loadhosts.Connect(ctx, zk, o.LoadHosts.Root, se.log)
	if err != nil {
		return func() {}, fault.Run(fmt.Errorf("load hosts: %w", err))
	}
	if _, err := co.WaitHosts(ctx, n, o.LoadHosts.Timeout); err != nil {
		co.Close()
		return func() {}, fault.Run(fmt.Errorf("load hosts: %w", err))
	}
	r.LoadHosts = co
	return co.Close, nil
}
