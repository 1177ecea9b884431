package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/suite"
)

func init() { register(newWorkerCmd) }

func newWorkerCmd() *cobra.Command {
	var w loadhosts.Worker
	var quiet bool
	cmd := &cobra.Command{
		Use:   "worker --zk HOST:PORT [--root /regress-load]",
		Short: "Run on a load host: wait for trials from a run with --load-hosts and run this host's share",
		Long: "worker registers this host in the cluster's ZooKeeper and waits. A run started with --load-hosts N " +
			"(regress, regress run, regress capacity, regress ycsb run) waits until N workers are registered, then hands " +
			"each trial to all of them: worker i of N runs every N-th operation of the one open-loop schedule and its own " +
			"run-phase insert keys, starting when the run opens its barrier; its histograms go back to the run, which adds " +
			"them into one client's result. The worker needs to reach ZooKeeper and every region server; it serves until " +
			"interrupted. Every host must run the same regress build as the run (a mismatch is refused).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if w.ZK == "" {
				return usageErr(errors.New("--zk HOST:PORT is required: the ZooKeeper of the cluster under test (what `regress cluster up` prints as zookeeper=)"))
			}
			w.Log = newLogger(cmd.ErrOrStderr(), quiet)
			if err := w.Serve(cmd.Context()); err != nil {
				return runErr(err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&w.ZK, "zk", "", "ZooKeeper quorum of the cluster under test (host:port[,host:port...])")
	f.StringVar(&w.Root, "root", loadhosts.DefaultRoot, "znode under which load hosts register (the same on the run)")
	f.BoolVar(&quiet, "quiet", false, "log warnings only")
	return cmd
}

// loadHostFlags choose whether trials run on `regress worker` load hosts.
type loadHostFlags struct {
	n       int
	zk      string
	root    string
	timeout time.Duration
}

func (l *loadHostFlags) add(f *pflag.FlagSet) {
	f.IntVar(&l.n, "load-hosts", 0, "run every trial's workload on `N` regress worker load hosts as one client (default: the suite's run.load_hosts; 0 runs it in this process)")
	f.StringVar(&l.zk, "load-hosts-zk", "", "ZooKeeper the load hosts registered in (default: the measured cluster's; the baseline's for a comparison)")
	f.StringVar(&l.root, "load-hosts-root", loadhosts.DefaultRoot, "znode under which the load hosts registered")
	f.DurationVar(&l.timeout, "load-hosts-timeout", loadhosts.DefaultHostsTimeout, "how long to wait for the load hosts to register")
}

// coordinator returns nil when trials run here, else a coordinator that has
// its load hosts; zk is the measured cluster's ZooKeeper, used unless
// --load-hosts-zk names another. The caller closes it.
func (l *loadHostFlags) coordinator(ctx context.Context, s *suite.Suite, zk string, log *slog.Logger) (*loadhosts.Coordinator, error) {
	n := l.n
	if n == 0 {
		n = s.Run.LoadHosts
	}
	if n < 0 {
		return nil, usageErr(fmt.Errorf("--load-hosts %d: give the number of `regress worker` hosts, or 0 to run the load here", n))
	}
	if n == 0 {
		return nil, nil
	}
	if l.zk != "" {
		zk = l.zk
	}
	co, err := loadhosts.Connect(ctx, zk, l.root, log)
	if err != nil {
		return nil, runErr(fmt.Errorf("load hosts: %w", err))
	}
	if _, err := co.WaitHosts(ctx, n, l.timeout); err != nil {
		co.Close()
		return nil, runErr(fmt.Errorf("load hosts: %w", err))
	}
	return co, nil
}
