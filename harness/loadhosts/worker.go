package loadhosts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/regress-hbase/regress/harness/binding"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// barrierTimeout bounds a prepared host's wait for the barrier.
const barrierTimeout = 2 * time.Minute

// Worker is one load host (`regress worker`): it registers under Root in
// ZooKeeper ZK and runs its share of every trial that names it (a duet's two at once).
type Worker struct {
	// ZK is the ZooKeeper quorum (host:port, comma-separated) the coordinator uses.
	ZK string
	// Root is the coordination znode; empty means DefaultRoot.
	Root string
	// Log receives progress; nil means slog.Default().
	Log *slog.Logger
	// OnRegistered, if set, is called with the host's registration once it is in ZooKeeper.
	OnRegistered func(Host)
	// ConnectTimeout bounds the wait for ZooKeeper at start; 0 means DefaultConnectTimeout.
	ConnectTimeout time.Duration

	mu      sync.Mutex
	clients map[string]*hbase.Client
	// skew sets this host's clock ahead of the machine's (tests: a host
	// with a clock of its own); zero outside tests.
	skew time.Duration
}

// now is the host's clock.
func (w *Worker) now() time.Time { return time.Now().Add(w.skew) }

func (w *Worker) log() *slog.Logger {
	if w.Log != nil {
		return w.Log
	}
	return slog.Default()
}

func rootOf(r string) string {
	if r == "" {
		return DefaultRoot
	}
	return path.Clean(r)
}

// Serve registers the host and serves trials until ctx ends (then it returns
// nil) or the ZooKeeper session is lost (an error: restart the worker).
func (w *Worker) Serve(ctx context.Context) error {
	root := rootOf(w.Root)
	w.log().Info("connecting to zookeeper", "zookeeper", w.ZK)
	conn, events, err := dial(ctx, w.ZK, w.ConnectTimeout, w.log())
	if err != nil {
		return err
	}
	defer conn.Close()
	defer w.closeClients()
	for _, p := range []string{root + "/hosts", root + "/trials", root + "/clocks"} {
		if err := ensure(conn, p); err != nil {
			return err
		}
	}
	// A duet's two trials are prepared and run at once: every share has
	// its own goroutine, and Serve returns once they ended.
	var shares sync.WaitGroup
	defer shares.Wait()
	hostname, _ := os.Hostname()
	h := Host{Hostname: hostname, PID: os.Getpid(), Build: Build(), Protocol: protocol, Started: time.Now().UTC()}
	h.ID = fmt.Sprintf("%s-%d-%04x", hostname, h.PID, rand.Uint32()&0xffff)
	data, _ := json.Marshal(h)
	if _, err := conn.Create(root+"/hosts/"+h.ID, data, zk.FlagEphemeral, acl); err != nil {
		return fmt.Errorf("register load host under %s/hosts: %w", root, err)
	}
	log := w.log().With("host", h.ID)
	log.Info("load host registered; waiting for trials", "zookeeper", w.ZK, "znode", root)
	if w.OnRegistered != nil {
		w.OnRegistered(h)
	}
	lost := make(chan struct{})
	go func() {
		for ev := range events {
			if ev.State == zk.StateExpired {
				close(lost)
				return
			}
		}
	}()
	seen := map[string]bool{}
	for {
		names, _, ch, err := conn.ChildrenW(root + "/trials")
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("watch %s/trials: %w", root, err)
		}
		slices.Sort(names)
		for name := range seen { // trials that ended: forget them
			if _, ok := slices.BinarySearch(names, name); !ok {
				delete(seen, name)
			}
		}
		for _, name := range names {
			if seen[name] {
				continue
			}
			seen[name] = true
			var t Task
			if err := getJSON(conn, root+"/trials/"+name, &t); err != nil {
				if !errors.Is(err, zk.ErrNoNode) {
					log.Warn("skipping a trial whose task cannot be read", "trial", name, "err", err)
				}
				continue
			}
			if share, ok := t.share(h.ID); ok {
				shares.Go(func() { w.serveTrial(ctx, conn, root, h, &t, share, log) })
			}
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil
		case <-lost:
			return errors.New("the ZooKeeper session expired (the host was unreachable for longer than " + sessionTimeout.String() + "): restart regress worker")
		}
	}
}

// serveTrial runs the host's share of t and writes its report.
func (w *Worker) serveTrial(ctx context.Context, conn *zk.Conn, root string, h Host, t *Task, share workload.Share, log *slog.Logger) {
	dir := root + "/trials/" + t.Trial
	log = log.With("trial", t.Trial, "share", fmt.Sprintf("%d/%d", share.Index, share.Of))
	log.Info("trial assigned")
	rep := report{Host: h}
	res, hlog, err := w.runShare(ctx, conn, root, h, t, share, &rep)
	if err != nil {
		rep.Error = err.Error()
	}
	if res != nil {
		if rep.Result, err = encodeResult(res); err != nil && rep.Error == "" {
			rep.Error = "encode result: " + err.Error()
		}
	}
	if rep.HlogChunks, err = writeChunks(conn, dir+"/hlog", h.ID, hlog); err != nil {
		log.Warn("could not report the interval log (was the trial ended?)", "err", err)
		return
	}
	data, _ := json.Marshal(rep)
	if _, err := conn.Create(dir+"/done/"+h.ID, data, 0, acl); err != nil {
		log.Warn("could not report the trial (was it ended?)", "err", err)
		return
	}
	if rep.Error != "" {
		log.Warn("trial share failed", "err", rep.Error)
		return
	}
	log.Info("trial share done", "rate", res.RateMessage(), "ops", res.Ops)
}

// runShare prepares, reads its clock against ZooKeeper's, says ready, waits
// at the barrier and runs the share from the agreed start (on its own
// clock); it stops early when the trial's znode goes (the coordinator ended
// it). rep gets the clock and when the barrier was seen.
func (w *Worker) runShare(ctx context.Context, conn *zk.Conn, root string, h Host, t *Task, share workload.Share, rep *report) (*loadgen.Result, []byte, error) {
	dir := root + "/trials/" + t.Trial
	if t.Build != h.Build || t.Protocol != h.Protocol {
		return nil, nil, fmt.Errorf("load host %s runs regress build %q (protocol %d), the coordinator %q (protocol %d): run the same regress on every load host",
			h.Name(), h.Build, h.Protocol, t.Build, t.Protocol)
	}
	client, err := w.client(ctx, t.ZK, t.ZNode)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := binding.NewRun(client, t.hostSpec(), share, w.log())
	if err != nil {
		return nil, nil, err
	}
	clock, err := readClock(conn, root+"/clocks/"+h.ID, w.now)
	if err != nil {
		return nil, nil, err
	}
	rep.Clock = clock
	ready, _ := json.Marshal(clock)
	if _, err := conn.Create(dir+"/ready/"+h.ID, ready, zk.FlagEphemeral, acl); err != nil {
		return nil, nil, fmt.Errorf("say ready: %w", err)
	}
	b, err := waitBarrier(ctx, conn, dir)
	if err != nil {
		return nil, nil, err
	}
	rep.Saw = clock.ZK(w.now()).UTC()
	if !b.Start.IsZero() {
		// The agreed instant on the host's clock; the load runs on the
		// machine's, which is the host's but for a test's skew.
		cfg.Start = clock.Local(b.Start).Add(-w.skew)
	}
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go watchGone(rctx, conn, dir, cancel)
	var hlog bytes.Buffer
	cfg.Hlog = &hlog
	res, err := loadgen.Run(rctx, cfg)
	if err != nil {
		if c := context.Cause(rctx); c != nil && !errors.Is(c, context.Canceled) {
			err = c
		}
	}
	return res, hlog.Bytes(), err
}

// waitBarrier waits until dir/go exists and returns what it says; it fails
// when the trial goes first.
func waitBarrier(ctx context.Context, conn *zk.Conn, dir string) (barrier, error) {
	deadline := time.After(barrierTimeout)
	for {
		ok, _, ch, err := conn.ExistsW(dir + "/go")
		if err != nil {
			return barrier{}, fmt.Errorf("wait at the barrier: %w", err)
		}
		if ok {
			var b barrier
			if err := getJSON(conn, dir+"/go", &b); err != nil {
				return barrier{}, fmt.Errorf("the barrier: %w", err)
			}
			return b, nil
		}
		if ok, _, err := conn.Exists(dir); err != nil || !ok {
			return barrier{}, errors.New("the coordinator ended the trial before it started")
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return barrier{}, ctx.Err()
		case <-deadline:
			return barrier{}, fmt.Errorf("the barrier did not open within %s (another load host never got ready?)", barrierTimeout)
		}
	}
}

// watchGone cancels the share when the trial's znode is deleted.
func watchGone(ctx context.Context, conn *zk.Conn, dir string, cancel context.CancelCauseFunc) {
	for ctx.Err() == nil {
		ok, _, ch, err := conn.ExistsW(dir)
		if err != nil || !ok {
			cancel(errors.New("the coordinator ended the trial (another load host failed, or the run stopped)"))
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}

// client returns a cached client of the cluster at zk/znode.
func (w *Worker) client(ctx context.Context, zkAddr, znode string) (*hbase.Client, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	key := zkAddr + znode
	if c, ok := w.clients[key]; ok {
		return c, nil
	}
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	c, err := hbase.Connect(cctx, zkAddr, hbase.WithZNodeParent(znode), hbase.WithZKWait(hbase.ZKAnswerTimeout, func(msg string) { w.log().Warn(msg) }))
	if err != nil {
		return nil, fmt.Errorf("connect to HBase at %s%s: %w", zkAddr, znode, err)
	}
	if w.clients == nil {
		w.clients = map[string]*hbase.Client{}
	}
	w.clients[key] = c
	return c, nil
}

func (w *Worker) closeClients() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range w.clients {
		c.Close()
	}
	w.clients = nil
}
