package loadhosts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/regress-hbase/regress/harness/loadgen"
)

// Defaults of the coordinator's waits.
const (
	// DefaultHostsTimeout bounds the wait for the load hosts to register.
	DefaultHostsTimeout = 10 * time.Minute
	// prepareTimeout bounds the wait for every host to prepare a trial.
	prepareTimeout = 2 * time.Minute
	// reportGrace is how long after a trial's scheduled end a host may take to report.
	reportGrace = time.Minute
	// unboundedTrial is how long an unthrottled operation-count trial may take.
	unboundedTrial = 30 * time.Minute
)

// Coordinator hands trials to registered load hosts and merges what they measured.
type Coordinator struct {
	conn  *zk.Conn
	zk    string
	root  string
	log   *slog.Logger
	hosts []Host
}

// Connect opens the coordinator's ZooKeeper session at zkAddr and makes the
// znodes under root (empty means DefaultRoot). Close it when done.
func Connect(ctx context.Context, zkAddr, root string, log *slog.Logger) (*Coordinator, error) {
	if log == nil {
		log = slog.Default()
	}
	root = rootOf(root)
	conn, _, err := dial(ctx, zkAddr, 0, log)
	if err != nil {
		return nil, err
	}
	for _, p := range []string{root + "/hosts", root + "/trials", root + "/clocks"} {
		if err := ensure(conn, p); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return &Coordinator{conn: conn, zk: zkAddr, root: root, log: log}, nil
}

// Close ends the session.
func (c *Coordinator) Close() { c.conn.Close() }

// Hosts are the load hosts WaitHosts chose, in share order.
func (c *Coordinator) Hosts() []Host { return slices.Clone(c.hosts) }

// WaitHosts waits until n load hosts have registered (the coordinator runs
// no load itself), refusing hosts of another regress build, and chooses the
// n that registered first.
func (c *Coordinator) WaitHosts(ctx context.Context, n int, timeout time.Duration) ([]Host, error) {
	if n < 1 {
		return nil, fmt.Errorf("%d load hosts: need at least 1", n)
	}
	if timeout <= 0 {
		timeout = DefaultHostsTimeout
	}
	deadline := time.After(timeout)
	nag := time.NewTicker(15 * time.Second)
	defer nag.Stop()
	said := -1
	for {
		hosts, ch, err := c.registered()
		if err != nil {
			return nil, err
		}
		for _, h := range hosts {
			if h.Build != Build() || h.Protocol != protocol {
				return nil, fmt.Errorf("load host %s runs regress build %q, this coordinator %q: run the same regress on every load host",
					h.Name(), h.Build, Build())
			}
		}
		if len(hosts) >= n {
			c.hosts = hosts[:n]
			c.log.Info("load hosts ready", "hosts", len(c.hosts))
			return c.Hosts(), nil
		}
		if len(hosts) != said {
			said = len(hosts)
			c.log.Info(fmt.Sprintf("waiting for %d load hosts (%d registered): on each, run `regress worker --zk %s`", n, len(hosts), c.zk))
		}
		select {
		case <-ch:
		case <-nag.C:
			said = -1
		case <-deadline:
			return nil, fmt.Errorf("%d of %d load hosts registered at %s within %s: start `regress worker --zk %s` on each load host (they need to reach ZooKeeper and the region servers)",
				len(hosts), n, c.zk, timeout, c.zk)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// registered lists the registered hosts, oldest first, and a watch on the list.
func (c *Coordinator) registered() ([]Host, <-chan zk.Event, error) {
	names, _, ch, err := c.conn.ChildrenW(c.root + "/hosts")
	if err != nil {
		return nil, nil, fmt.Errorf("list load hosts under %s/hosts: %w", c.root, err)
	}
	var hosts []Host
	for _, name := range names {
		var h Host
		if err := getJSON(c.conn, c.root+"/hosts/"+name, &h); err != nil {
			if errors.Is(err, zk.ErrNoNode) {
				continue // gone meanwhile
			}
			return nil, nil, err
		}
		hosts = append(hosts, h)
	}
	slices.SortFunc(hosts, func(a, b Host) int {
		if c := a.Started.Compare(b.Started); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return hosts, ch, nil
}

// TrialResult is a trial run by the load hosts: the merged result (one
// client's), the merged interval log, and each host's own result.
type TrialResult struct {
	// Start is the instant every host's schedule began, on the coordinator's clock.
	Start  time.Time
	Merged *loadgen.Result
	Hlog   []byte
	Hosts  []HostResult
}

// HostError is a trial that failed because of one load host.
type HostError struct {
	Host  Host
	Trial string
	// Reason says what happened: it died, was late, or its share failed.
	Reason string
}

func (e *HostError) Error() string {
	return fmt.Sprintf("load host %s: trial %s: %s", e.Host.Name(), e.Trial, e.Reason)
}

// StartLead is how far after the last host prepared a trial's agreed start
// lies at least: time for the barrier's notice to reach every host.
const StartLead = 500 * time.Millisecond

// Run runs t on the hosts WaitHosts chose: Prepare, then Go at StartLead
// from now, then Close.
func (c *Coordinator) Run(ctx context.Context, t Task) (*TrialResult, error) {
	p, err := c.Prepare(ctx, t)
	if err != nil {
		return nil, err
	}
	res, err := p.Go(ctx, time.Now().Add(StartLead))
	if cerr := p.Close(); err == nil && cerr != nil {
		return nil, cerr
	}
	return res, err
}

// Prepared is a trial every host has prepared (connected, workload built,
// clock read against ZooKeeper's), waiting at its barrier for Go. Close it
// however it ends: that deletes its znodes, which stops the hosts' shares.
type Prepared struct {
	c   *Coordinator
	t   Task
	dir string
}

// Prepare writes t as a task for the hosts WaitHosts chose and waits until
// every host has prepared it. A host that dies, is late or fails fails it
// with a HostError. Several trials may be prepared at once (a duet's two):
// a host serves every trial that names it.
func (c *Coordinator) Prepare(ctx context.Context, t Task) (_ *Prepared, err error) {
	if len(c.hosts) == 0 {
		return nil, errors.New("no load hosts chosen: call WaitHosts first")
	}
	t.Build, t.Protocol = Build(), protocol
	t.Hosts = make([]string, 0, len(c.hosts))
	for _, h := range c.hosts {
		t.Hosts = append(t.Hosts, h.ID)
	}
	p := &Prepared{c: c, t: t, dir: c.root + "/trials/" + t.Trial}
	if err := deleteTree(c.conn, p.dir); err != nil { // a stale one of a dead coordinator
		return nil, err
	}
	data, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = p.Close()
		}
	}()
	// The task and its children in one transaction, so a host never sees a half-made trial.
	ops := []any{&zk.CreateRequest{Path: p.dir, Data: data, Acl: acl}}
	for _, sub := range []string{"ready", "done", "hlog"} {
		ops = append(ops, &zk.CreateRequest{Path: p.dir + "/" + sub, Acl: acl})
	}
	if _, err := c.conn.Multi(ops...); err != nil {
		return nil, fmt.Errorf("create trial znode %s: %w", p.dir, err)
	}
	if err := c.await(ctx, &p.t, p.dir+"/ready", prepareTimeout, "prepare"); err != nil {
		return nil, err
	}
	return p, nil
}

// Go opens the trial's barrier with start (on this process's clock) as the
// instant every host's schedule begins, each host placing it on its own
// clock through ZooKeeper's; it waits for every report (up to the trial's
// scheduled end plus a grace) and merges them. A host that saw the barrier
// after the measurement window opened fails the trial.
func (p *Prepared) Go(ctx context.Context, start time.Time) (*TrialResult, error) {
	c, t := p.c, &p.t
	clock, err := readClock(c.conn, c.root+"/clocks/"+c.clockID(), time.Now)
	if err != nil {
		return nil, err
	}
	data, _ := json.Marshal(barrier{Start: clock.ZK(start)})
	if _, err := c.conn.Create(p.dir+"/go", data, 0, acl); err != nil {
		return nil, fmt.Errorf("open the barrier %s/go: %w", p.dir, err)
	}
	length := t.Warmup + t.Duration
	switch {
	case t.Duration > 0:
	case t.Paced() > 0 && t.MaxOps > 0:
		length = t.Warmup + time.Duration(float64(t.MaxOps)/t.Paced()*float64(time.Second))
	default:
		length = t.Warmup + unboundedTrial // an unthrottled count: no schedule end to go by
	}
	if err := c.await(ctx, t, p.dir+"/done", time.Until(start)+length+reportGrace, "report"); err != nil {
		return nil, err
	}
	return c.collect(t, p.dir, clock, start)
}

// Close deletes the trial's znodes (which stops any host still running its share).
func (p *Prepared) Close() error { return deleteTree(p.c.conn, p.dir) }

// clockID names the coordinator's clock znode: one per session.
func (c *Coordinator) clockID() string { return fmt.Sprintf("coordinator-%x", c.conn.SessionID()) }

// await waits until every host of t has a child under dir, failing with a
// HostError when a host's registration goes (it died), a host reports a
// failure, or the timeout passes (the host is late).
func (c *Coordinator) await(ctx context.Context, t *Task, dir string, timeout time.Duration, what string) error {
	deadline := time.After(timeout)
	for {
		have, _, dirCh, err := c.conn.ChildrenW(dir)
		if err != nil {
			return fmt.Errorf("watch %s: %w", dir, err)
		}
		alive, hostsCh, err := c.registered()
		if err != nil {
			return err
		}
		if err := c.failedReport(t); err != nil {
			return err
		}
		missing := c.missing(have)
		if len(missing) == 0 {
			return nil
		}
		for _, h := range missing {
			if !slices.ContainsFunc(alive, func(a Host) bool { return a.ID == h.ID }) {
				return &HostError{Host: h, Trial: t.Trial, Reason: "the host's ZooKeeper session ended (the worker died or lost its network) before it could " + what}
			}
		}
		select {
		case <-dirCh:
		case <-hostsCh:
		case <-deadline:
			return &HostError{Host: missing[0], Trial: t.Trial, Reason: fmt.Sprintf("late: did not %s within %s", what, timeout)}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// failedReport returns the first report of a failed share, if any.
func (c *Coordinator) failedReport(t *Task) error {
	dir := c.root + "/trials/" + t.Trial + "/done"
	names, _, err := c.conn.Children(dir)
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	for _, name := range names {
		var r report
		if err := getJSON(c.conn, dir+"/"+name, &r); err != nil {
			return err
		}
		if r.Error != "" {
			return &HostError{Host: r.Host, Trial: t.Trial, Reason: r.Error}
		}
	}
	return nil
}

func (c *Coordinator) missing(have []string) []Host {
	var out []Host
	for _, h := range c.hosts {
		if !slices.Contains(have, h.ID) {
			out = append(out, h)
		}
	}
	return out
}

// collect reads every host's report and merges them; clock is the
// coordinator's reading and start the agreed instant on its clock.
func (c *Coordinator) collect(t *Task, dir string, clock Clock, start time.Time) (*TrialResult, error) {
	tr := &TrialResult{Start: start}
	var parts []*loadgen.Result
	var logs [][]byte
	measureFrom := start.Add(t.Warmup)
	for i, h := range c.hosts {
		var r report
		if err := getJSON(c.conn, dir+"/done/"+h.ID, &r); err != nil {
			return nil, err
		}
		if r.Error != "" || r.Result == nil {
			return nil, &HostError{Host: h, Trial: t.Trial, Reason: "no result: " + r.Error}
		}
		if late := r.Saw.Sub(clock.ZK(measureFrom)); late > 0 {
			return nil, &HostError{Host: h, Trial: t.Trial, Reason: fmt.Sprintf("saw the barrier %s after the measurement window opened (the agreed start %s, warm-up %s): its measured operations would start late",
				late.Round(time.Millisecond), start.Format(time.RFC3339Nano), t.Warmup)}
		}
		res, err := decodeResult(r.Result)
		if err != nil {
			return nil, &HostError{Host: h, Trial: t.Trial, Reason: "unreadable result: " + err.Error()}
		}
		hlog, err := readChunks(c.conn, dir+"/hlog", h.ID, r.HlogChunks)
		if err != nil {
			return nil, err
		}
		parts = append(parts, res)
		logs = append(logs, hlog)
		ahead, bound := offsetFrom(r.Clock, clock)
		tr.Hosts = append(tr.Hosts, HostResult{Host: h, Share: i, Result: res, ClockAhead: ahead, ClockError: bound,
			Lead: clock.ZK(start).Sub(r.Saw)})
	}
	tr.Merged = loadgen.Merge(parts...)
	// The window as the coordinator placed it, on its own clock: the clock
	// the servers' readings and a duet's other side are on. Each host's own
	// start is on its clock, within ClockError of this.
	tr.Merged.Start = measureFrom
	tr.Hlog = mergeHlogs(logs)
	return tr, nil
}
