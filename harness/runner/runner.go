// Package runner runs a suite's trials against one target or an interleaved
// pair of targets it is handed (package sut starts them): it seeds each
// target's cluster, runs every trial on a fresh clone of the seed snapshot,
// and stores every result. It decides nothing: a caller-supplied function
// says whether more pairs are needed.
package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/lifecycle"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/probe"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// Event is a progress report for the terminal or the log.
type Event struct {
	// Phase is "plan", "seed", "load", "trial" or "done".
	Phase    string
	Target   string
	Workload string
	// Kind is a trial's kind (KindWarmup, KindCounted, KindProfiled);
	// Trial numbers it among the run's trials of that kind, Trials is how
	// many of them the run plans. On "done", Trial is the counted trials stored.
	Kind          string
	Trial, Trials int
	// Plan is the run's plan: on "plan" (before the first trial, and again
	// when it changes) and on "done" (what ran).
	Plan    *Plan
	Load    *LoadProgress
	Run     *loadgen.Progress
	Message string
}

// LoadProgress is how far a seed preload is.
type LoadProgress struct {
	// Rows is the number of rows whose batch has completed; Total is the number asked for.
	Rows, Total int64
	// RowsPerSec is the rate over the last tick.
	RowsPerSec float64
}

// ErrRunFailed marks a run that could not produce trustworthy trials: too many
// errors, or a target rate the cluster could not hold.
var ErrRunFailed = errors.New("run failed")

// Runner runs one suite.
type Runner struct {
	Suite *suite.Suite
	Store *results.Store
	// RunID names this run; trials pair only within a run.
	RunID string
	// Reseed forces new seed snapshots.
	Reseed bool
	// Rand orders each pair; nil means a randomly seeded source.
	Rand *rand.Rand
	Log  *slog.Logger
	// OnEvent, if set, receives progress events.
	OnEvent func(Event)
	// Env is the environment fingerprint stored with new manifests.
	Env results.Environment
	// LoadHosts, if set, runs every trial's workload on the load hosts it
	// chose (regress worker), merged into one client's result; nil runs it here.
	LoadHosts *loadhosts.Coordinator
	// WarmUp says how the last run's warm-up went (rounds, time, settled).
	WarmUp WarmUp
	// Profile records JFR on every local region server of each side over
	// the measurement window of one extra pair of each workload, run after
	// the counted pairs and stored nowhere but its profiles (profile.go).
	Profile bool
	// Renew starts side (0 the baseline, 1 the candidate) afresh in place
	// of t when the suite's run.instances asks for several instances (the
	// job's sut.Renew); nil, or a side regress did not start, keeps one
	// instance a side.
	Renew func(ctx context.Context, side int, t *sut.Target) (*sut.Target, error)

	oneInstance bool        // a side cannot be started afresh (checkRenewable)
	slots       slots       // which side holds which slot of each pair (slots.go)
	sources     sourceCheck // each side's first server-cost sources (sources.go)
	fingerprint string
	started     int
	stored      int
	prepared    int
	// plan is what the run will do (plan.go); kindStarted counts the
	// trials started of each kind.
	plan        Plan
	kindStarted map[string]int

	// prof is the run's profiler probe, made on first use (profiler).
	profOnce sync.Once
	prof     *probe.Profiler
}

// cloneTag names the trial clones of the next side prepared: the run, and
// the side's number, so a duet's two clones never share a name even on one
// cluster.
func (r *Runner) cloneTag() string {
	r.prepared++
	if r.prepared == 1 {
		return r.RunID
	}
	return fmt.Sprintf("%s_s%d", r.RunID, r.prepared)
}

// side is a target made ready for trials.
type side struct {
	t       *sut.Target
	mgr     *lifecycle.Manager
	seed    lifecycle.Seed
	key     results.Key
	servers int
	// idle pools the background of the side's servers over the run.
	idle background
	// counts is where the side's request and block cache counts come from.
	counts probe.CountSource
	// tag names the side's trial clones; instance numbers its fresh starts.
	tag      string
	instance int
	// kind and number are the side's trial in progress: its kind and its
	// number among the run's trials of that kind (a duet's two sides each their own).
	kind   string
	number int
}

// More is asked after each look (1-based) whether more pairs are needed, and
// how many more per workload.
type More func(look int, base, cand *results.Manifest) (extra map[string]int, err error)

// RunSingle runs Pairs.Initial trials of every workload on one target and
// returns this run's trials as a manifest.
func (r *Runner) RunSingle(ctx context.Context, t *sut.Target) (_ *results.Manifest, err error) {
	r.setPlan(r.planOf(1))
	s, err := r.prepare(ctx, t)
	if err != nil {
		return nil, err
	}
	defer r.dropEmptyOnFailure(&err, s)
	if err := r.warmUp(ctx, s); err != nil {
		return nil, err
	}
	for i := 0; i < r.Suite.Pairs.Initial; i++ {
		for _, w := range r.Suite.Workloads {
			if _, err := r.trial(ctx, s, w, i, 0, true); err != nil {
				return nil, err
			}
		}
	}
	m, err := r.thisRun(s)
	if err != nil {
		return nil, err
	}
	r.profilePairs(ctx, s)
	r.done(t.Name)
	return m, nil
}

// RunPairs runs interleaved pairs: for every pair index and workload, the
// baseline and candidate trials back to back in random order. After each
// look, more decides whether to add pairs (nil: never), up to Pairs.Max.
func (r *Runner) RunPairs(ctx context.Context, base, cand *sut.Target, more More) (_, _ *results.Manifest, err error) {
	if base.Name == cand.Name && base.Client == cand.Client {
		return nil, nil, errors.New("baseline and candidate are the same cluster")
	}
	r.slots.paired = true
	r.setPlan(r.Plan(2))
	bs, err := r.open(ctx, base)
	if err != nil {
		return nil, nil, err
	}
	defer r.dropEmptyOnFailure(&err, bs)
	cs, err := r.open(ctx, cand)
	if err != nil {
		return nil, nil, err
	}
	defer r.dropEmptyOnFailure(&err, cs)
	// Both seeds at once, as every later instance is seeded: seeded one
	// after the other, the baseline's JVM met its first load alone while
	// the candidate's sat idle, the one part of a side's start that stayed
	// with it for the whole run (issue 43, slots.go).
	if err := r.seedSides(ctx, bs, cs); err != nil {
		return nil, nil, err
	}
	r.checkRenewable(bs, cs)
	if p := r.planOf(2); p != r.plan {
		r.setPlan(p) // a side regress cannot start afresh keeps one instance
	}
	rng := r.rng()
	planned := map[string]int{}
	done := map[string]int{}
	for _, w := range r.Suite.Workloads {
		planned[w] = r.Suite.Pairs.Initial
	}
	if r.Suite.Run.Pin {
		if err := pinSides([]*side{bs, cs}); err != nil {
			return nil, nil, err
		}
		r.logger().Info("each side's region servers pinned to its own half of the CPUs", "cpus", runtime.NumCPU())
	}
	if err := r.warmUp(ctx, bs, cs); err != nil {
		return nil, nil, err
	}
	for look := 1; ; look++ {
		counted := 0
		for _, w := range r.Suite.Workloads {
			counted += 2 * planned[w]
		}
		if counted != r.plan.Counted {
			p := r.plan
			p.Counted = counted
			r.setPlan(p)
		}
		for pair := 0; pair < r.Suite.Pairs.Max; pair++ {
			if b := r.instanceOf(pair); b > bs.instance && r.pairDue(pair, done, planned) {
				if err := r.renewSides(ctx, b, bs, cs); err != nil {
					return nil, nil, err
				}
			}
			for _, w := range r.Suite.Workloads {
				if pair < done[w] || pair >= planned[w] {
					continue
				}
				if r.duet() {
					if _, err := r.duetTrial(ctx, bs, cs, w, pair); err != nil {
						return nil, nil, err
					}
					continue
				}
				first, second := bs, cs
				if rng.IntN(2) == 1 {
					first, second = cs, bs
				}
				if _, err := r.trial(ctx, first, w, pair, 0, false); err != nil {
					return nil, nil, err
				}
				if _, err := r.trial(ctx, second, w, pair, 1, false); err != nil {
					return nil, nil, err
				}
			}
		}
		for _, w := range r.Suite.Workloads {
			done[w] = planned[w]
		}
		bm, err := r.thisRun(bs)
		if err != nil {
			return nil, nil, err
		}
		cm, err := r.thisRun(cs)
		if err != nil {
			return nil, nil, err
		}
		if more == nil || look >= r.Suite.Pairs.Looks {
			r.profilePairs(ctx, bs, cs)
			r.done("")
			return bm, cm, nil
		}
		extra, err := more(look, bm, cm)
		if err != nil {
			return nil, nil, err
		}
		grew := false
		for w, n := range extra {
			if _, ok := planned[w]; !ok || n <= 0 {
				continue
			}
			p := min(planned[w]+n, r.Suite.Pairs.Max)
			if p > planned[w] {
				planned[w], grew = p, true
			}
		}
		if !grew {
			r.profilePairs(ctx, bs, cs)
			r.done("")
			return bm, cm, nil
		}
		r.emit(Event{Phase: "trial", Message: fmt.Sprintf("look %d inconclusive: adding pairs %v", look, extra)})
	}
}

// thisRun returns s's stored manifest with only this run's trials.
func (r *Runner) thisRun(s *side) (*results.Manifest, error) {
	m, err := r.Store.Load(s.key)
	if err != nil {
		return nil, err
	}
	var ts []results.Trial
	for _, t := range m.Trials {
		if t.RunID == r.RunID {
			ts = append(ts, t)
		}
	}
	m.Trials = ts
	return m, nil
}

// prepare makes the store entry, cleans up what earlier runs left, and seeds.
func (r *Runner) prepare(ctx context.Context, t *sut.Target) (*side, error) {
	s, err := r.open(ctx, t)
	if err != nil {
		return nil, err
	}
	if err := r.seedSides(ctx, s); err != nil {
		return nil, err
	}
	return s, nil
}

// open makes t's store entry and cleans up what earlier runs left on its
// cluster: a side not yet seeded.
func (r *Runner) open(ctx context.Context, t *sut.Target) (*side, error) {
	if r.fingerprint == "" {
		fp, err := r.Suite.Fingerprint()
		if err != nil {
			return nil, err
		}
		r.fingerprint = fp
	}
	log := r.logger()
	env := r.Env
	if t.JDK.Label() != "" { // each side's own JDK, not this machine's default
		env.SetJDK(t.JDK)
	}
	// Each side's Hadoop client stack: compare's environment check warns
	// when a run's two sides ran on different ones (sut/flavour.go).
	env.Hadoop = t.Hadoop
	m := &results.Manifest{
		Schema: results.SchemaVersion, Version: t.Version, Provider: t.Provider,
		Settings: t.Settings, JVMOpts: t.JVMOpts, Environment: env, Source: "regress",
		Repository: t.Repository, Home: t.Home, JarChecksums: t.Checksums,
		Suite: results.SuiteInfo{Name: r.Suite.Name, Fingerprint: r.fingerprint, DataSpec: r.Suite.SeedKey(), Overrides: r.Suite.Overridden,
			Text: r.Suite.Text(), Files: r.Suite.Files()},
	}
	m.SetName(t.SideName())
	// The live count, not the count asked for: it is what the per-server
	// clamp multiplies and what a result of an external cluster ran on.
	servers, err := t.Client.LiveRegionServers(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: count live region servers: %w", t.Name, err)
	}
	if t.RegionServers > 0 && len(servers) < t.RegionServers {
		return nil, fmt.Errorf("%s: %d region servers are live, %d were started: see the cluster's logs", t.Name, len(servers), t.RegionServers)
	}
	m.RegionServers, m.RSHeap = len(servers), t.RSHeap
	stored, err := r.Store.Ensure(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	if stored.RegionServers != 0 && stored.RegionServers != len(servers) {
		log.Warn("this target's stored trials ran on another number of region servers", "target", t.Name,
			"stored", stored.RegionServers, "live", len(servers))
	}
	tag := r.cloneTag()
	s := &side{t: t, key: results.KeyOf(stored), servers: len(servers), tag: tag, mgr: lifecycle.New(t.Client, tag, log.With("target", t.Name))}
	if dropped, err := s.mgr.CleanupStale(ctx); err != nil {
		return nil, fmt.Errorf("%s: clean up tables an earlier run left: %w", t.Name, err)
	} else if len(dropped) > 0 {
		log.Info("dropped tables an earlier run left behind", "target", t.Name, "tables", dropped)
	}
	return s, nil
}

// seedSides makes sure every side's seed snapshot exists, all sides at
// once (one after the other when two share a cluster: the second then
// finds the first's seed); the first side that fails names itself in the
// error.
func (r *Runner) seedSides(ctx context.Context, sides ...*side) error {
	for _, s := range sides {
		r.emit(Event{Phase: "seed", Target: s.t.Name, Message: "seeding " + r.Suite.SeedKey()})
	}
	seed := func(_ int, s *side) error {
		spec, err := r.seedSpec(s)
		if err != nil {
			return err
		}
		s.seed, err = s.mgr.EnsureSeed(ctx, spec)
		return err
	}
	var errs []error
	if shareCluster(sides) {
		for i, s := range sides {
			errs = append(errs, seed(i, s))
		}
	} else {
		errs = atOnce(sides, seed)
	}
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("%s: %w", sides[i].t.Name, err)
		}
	}
	return nil
}

// shareCluster says whether two of sides reach one cluster: one client,
// or one ZooKeeper quorum and znode parent.
func shareCluster(sides []*side) bool {
	for i, a := range sides {
		for _, b := range sides[i+1:] {
			if a.t.Client == b.t.Client || a.t.ZK != "" && a.t.ZK == b.t.ZK && a.t.ZNode == b.t.ZNode {
				return true
			}
		}
	}
	return false
}

// atOnce calls f on every side, each on its own goroutine, and returns
// each side's error once all have returned.
func atOnce(sides []*side, f func(i int, s *side) error) []error {
	errs := make([]error, len(sides))
	var wg sync.WaitGroup
	for i, s := range sides {
		wg.Go(func() { errs[i] = f(i, s) })
	}
	wg.Wait()
	return errs
}

// warmUp runs the suite's warm-up rounds on every side: one trial of each
// workload per round, on a clone like any trial, measured by nobody and
// stored nowhere. Past run.warmup_rounds it goes on, up to
// run.warmup_max_rounds, while some side's server CPU per operation (over
// its workloads) still moved by more than settleTolerance from the round before: a
// fresh JVM's first trials cost about twice a warm one's (JIT, caches).
func (r *Runner) warmUp(ctx context.Context, sides ...*side) error {
	run := r.Suite.Run
	began := time.Now()
	prev := map[string]float64{}
	rounds := 0
	settled := false
	maxRounds := max(run.WarmupMaxRounds, run.WarmupRounds)
	for round := 1; round <= maxRounds; round++ {
		cur := map[string]float64{}
		for _, w := range r.Suite.Workloads {
			var costs []float64
			var err error
			if r.duet() && len(sides) == 2 {
				costs, err = r.duetTrial(ctx, sides[0], sides[1], w, -1)
			} else {
				for _, s := range sides {
					var c float64
					if c, err = r.trial(ctx, s, w, -1, 0, false); err != nil {
						break
					}
					costs = append(costs, c)
				}
			}
			if err != nil {
				return err
			}
			for i, c := range costs {
				cur[fmt.Sprintf("%d/%s", i, w)] = c
			}
		}
		rounds = round
		settled = round > 1 && cpuSettled(prev, cur)
		r.logger().Info("warm-up round done", "round", round, "server_cpu_per_op_us", cur, "settled", settled)
		if round >= run.WarmupRounds && (settled || round == maxRounds || !hasCost(cur)) {
			break
		}
		prev = cur
	}
	r.WarmUp = WarmUp{Rounds: rounds, Took: time.Since(began), Settled: settled}
	// The warm-up trials yet to come: the later instances' at most.
	if left := r.instances() - 1 - sides[0].instance; r.plan.Warmup > 0 {
		p := r.plan
		p.Warmup = r.kindStarted[KindWarmup] + max(left, 0)*len(sides)*len(r.Suite.Workloads)*maxRounds
		if p.Warmup != r.plan.Warmup {
			r.setPlan(p)
		}
	}
	if rounds > 0 {
		r.emit(Event{Phase: "trial", Message: fmt.Sprintf("warm-up: %d round(s) in %s%s", rounds, r.WarmUp.Took.Round(time.Second), map[bool]string{true: ", server CPU per op settled", false: ""}[settled])})
	}
	return nil
}

// settleTolerance is how far a workload's server CPU per operation may move
// from one warm-up round to the next for the side to count as warm.
const settleTolerance = 0.10

// cpuSettled reports whether each side's server CPU per operation, the
// geometric mean over its workloads, is within settleTolerance of the round
// before. Keys are "side/workload". A fresh JVM costs about twice a warm one
// on every workload at once; one workload's trial moves 5-10% between
// rounds on its own (measured on smoke), which the mean over six averages out.
func cpuSettled(prev, cur map[string]float64) bool {
	logRatio := map[string]float64{}
	n := map[string]int{}
	for k, c := range cur {
		p, ok := prev[k]
		if !ok || p <= 0 || c <= 0 {
			return false
		}
		side, _, _ := strings.Cut(k, "/")
		logRatio[side] += math.Log(c / p)
		n[side]++
	}
	for side, l := range logRatio {
		if math.Abs(math.Expm1(l/float64(n[side]))) > settleTolerance {
			return false
		}
	}
	return len(cur) > 0
}

func hasCost(m map[string]float64) bool {
	for _, v := range m {
		if v > 0 {
			return true
		}
	}
	return false
}

// WarmUp says how a run's warm-up went.
type WarmUp struct {
	// Rounds is how many warm-up rounds ran; Took their time.
	Rounds int
	Took   time.Duration
	// Settled is true when the last round's server CPU per operation was
	// within 10% of the round before on every side (over its workloads).
	Settled bool
}

// trial runs workload w once on a fresh clone of s's seed and stores it; a
// pair of -1 is a warm-up trial, run the same way and not stored, and
// profilePair the profiled trial after the counted ones (profile.go).
// requireRate fails the run when the trial did not hold its target rate;
// paired runs store such a trial instead, because a candidate that cannot
// hold a rate its baseline holds is a regression compare judges (and a rate
// neither side holds makes compare call the run invalid). It returns the
// trial's server CPU per operation (0 when not read).
func (r *Runner) trial(ctx context.Context, s *side, w string, pair, order int, requireRate bool) (cpuPerOp float64, err error) {
	r.announce(s, w, pair, "")
	// A paired run's trial holds the slot of its order (slots.go); both
	// trials of a pair share a clone number, a warm-up trial has its own.
	slot, seq := 0, int64(0)
	if r.slots.paired {
		slot, seq = order+1, r.slots.seq
		if order == 0 || pair < 0 {
			seq = r.nextSeq()
		}
	}
	table, drop, err := r.cloneFor(ctx, s, slot, seq)
	if err != nil {
		return 0, err
	}
	defer func() {
		if derr := drop(err); derr != nil && err == nil {
			err = derr
		}
	}()
	hs := []probe.TrialHooks{r.hooksFor(s, w, table, pair)}
	probe.Before(ctx, hs)
	at := timing{Measure: r.windowOf(pair)}
	idle := r.watchIdle(ctx, []*side{s})
	if len(idle) > 0 {
		at.Start = idle[0].until.Add(startLead)
	} else {
		at.Start = time.Now().Add(startLead)
	}
	m, err := r.measure(ctx, s, w, table, at, hs[0])
	if err != nil {
		probe.Stored(ctx, hs, probed(nil), []bool{false})
		return 0, err
	}
	defer os.Remove(m.hlog)
	closed(ctx, hs, []*measured{m})
	err = r.record(s, w, pair, order, requireRate, false, m)
	probe.Stored(ctx, hs, probed(m), []bool{err == nil})
	return m.cpuPerOp(), err
}

// duetTrial runs workload w on both sides at once: each on a fresh clone of
// its own seed, watched idle over the same stretch, started at the same
// instant with the same seed, so both meet the machine's interference at the
// same moments. Whatever comes first or goes to one place (clone, probes,
// idle watch, load start, CPU half when pinned, table name) follows the
// pair's slots, which alternate between the sides (slots.go); both trials
// are stored with the pair, each with its slot (its order: slot 1 is 0). It
// returns each side's server CPU per operation, baseline first.
func (r *Runner) duetTrial(ctx context.Context, bs, cs *side, w string, pair int) (costs []float64, err error) {
	// sides are in slot order: sides[0] holds slot 1; idx maps them back.
	sides, idx := []*side{bs, cs}, []int{0, 1}
	if r.firstSide(pair, w) == 1 {
		sides, idx = []*side{cs, bs}, []int{1, 0}
	}
	seq := r.nextSeq()
	tables := make([]string, 2)
	drops := make([]func(failed error) error, 2)
	cerrs := make([]error, 2)
	var cwg sync.WaitGroup
	for i, s := range sides {
		r.announce(s, w, pair, "duet")
		// Each side clones and prewarms on its own cluster: both at once.
		cwg.Go(func() { tables[i], drops[i], cerrs[i] = r.cloneFor(ctx, s, i+1, seq) })
	}
	cwg.Wait()
	for _, drop := range drops {
		if drop == nil {
			continue
		}
		defer func() {
			if derr := drop(err); derr != nil && err == nil {
				err = derr
			}
		}()
	}
	if err := errors.Join(cerrs...); err != nil {
		return nil, err
	}
	if r.Suite.Run.Pin {
		// Slot 1's servers on the first half of the CPUs, whichever side.
		if err := pinSides(sides); err != nil {
			return nil, err
		}
	}
	// Both sides' probes run before either is watched idle or measured,
	// and after both windows closed: one side's reading never falls in
	// the other's window either (their JVMs share the CPUs).
	hs := []probe.TrialHooks{r.hooksFor(sides[0], w, tables[0], pair), r.hooksFor(sides[1], w, tables[1], pair)}
	probe.Before(ctx, hs)
	idle := r.watchIdle(ctx, sides)
	at := timing{Start: time.Now().Add(startLead), Seed: time.Now().UnixNano(), Measure: r.windowOf(pair)}
	if len(idle) > 0 {
		at.Start = idle[0].until.Add(startLead)
	}
	if r.LoadHosts != nil {
		at.gate = newStartGate(2)
	}
	ms := make([]*measured, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, s := range sides {
		wg.Go(func() { ms[i], errs[i] = r.measure(ctx, s, w, tables[i], at, hs[i]) })
	}
	wg.Wait()
	for _, m := range ms {
		if m != nil {
			defer os.Remove(m.hlog)
		}
	}
	closed(ctx, hs, ms)
	kept := make([]bool, 2)
	defer probe.Stored(ctx, hs, probed(ms...), kept) // both sides' recordings are read at once, between trials
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	costs = make([]float64, 2)
	for i, s := range sides {
		if err := r.record(s, w, pair, i, false, true, ms[i]); err != nil {
			return nil, err
		}
		kept[i] = true
		costs[idx[i]] = ms[i].cpuPerOp()
	}
	return costs, nil
}

// dropTable drops a trial's (or a step's) table. A run that was stopped
// (ctx done: a signal, a dead server) leaves the table of a cluster it
// started to go with the cluster: a drop would wait on a dying cluster
// (measured: a run took 90 s to exit after a killed region server). On a
// cluster it did not start it drops it within stoppedDrop. A trial that
// failed while the run goes on (a load host died, the rate was not held)
// tries for failedDrop, whoever started the cluster: a stalled cluster
// costs that long, a healthy one is left clean. A table left behind, the
// next run's CleanupStale drops.
func (r *Runner) dropTable(ctx context.Context, s *side, table string, failed error) error {
	var err error
	switch {
	case ctx.Err() == nil && failed == nil:
		err = s.mgr.Drop(ctx, table)
	case ctx.Err() == nil:
		// The trial failed but the run is not stopped: the cluster may be
		// fine (a load host died) or stalled; try, for a bounded time.
		err = s.mgr.DropWithin(ctx, table, failedDrop)
	case s.t.Provider != "external":
		r.logger().Debug("trial table left to go with its cluster", "target", s.t.Name, "table", table)
		return nil
	default:
		err = s.mgr.DropWithin(ctx, table, stoppedDrop)
	}
	if err != nil {
		return fmt.Errorf("%s: drop trial table %s: %w", s.t.Name, table, err)
	}
	return nil
}

// stoppedDrop bounds the drop of a trial table on a cluster regress did not
// start once the run is stopped, so a signal still ends it within 2 s.
const stoppedDrop = time.Second

// failedDrop bounds the drop of a failed trial's table while the run goes on.
const failedDrop = 5 * time.Second

// startLead is how far ahead of now a trial's schedule is anchored, so its
// window edges are known before it starts and a duet's two runs can both be
// ready for the same instant.
const startLead = 200 * time.Millisecond

// cloneFor clones s's seed for one trial as the table of slot in pair
// number seq (cloneAs) and prewarms it when the suite asks; drop(the
// trial's error) drops the clone (see dropTable).
func (r *Runner) cloneFor(ctx context.Context, s *side, slot int, seq int64) (table string, drop func(failed error) error, err error) {
	table, err = r.cloneAs(ctx, s, slot, seq)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", s.t.Name, err)
	}
	drop = func(failed error) error { return r.dropTable(ctx, s, table, failed) }
	if r.Suite.Run.Prewarm {
		rows, err := lifecycle.Prewarm(ctx, s.t.Client, table)
		if err != nil {
			err = fmt.Errorf("%s: %w", s.t.Name, err)
			_ = drop(err)
			return "", nil, err
		}
		r.logger().Debug("prewarmed the trial table", "target", s.t.Name, "table", table, "rows", rows)
	}
	return table, drop, nil
}

// measured is one side's trial as run, before it is stored.
type measured struct {
	res   *loadgen.Result
	hosts []results.LoadHost
	hlog  string
	// server is the servers' cost in the measurement window, nil when not read.
	server *results.ServerStats
}

// setCounts keeps the counts read around the trial (probe.Counts) with its
// server cost; nothing when either is missing.
func (m *measured) setCounts(c *results.Counts) {
	if m != nil && m.server != nil && c != nil {
		m.server.Counts = c
	}
}

func (m *measured) cpuPerOp() float64 {
	if m == nil || m.server == nil {
		return 0
	}
	return m.server.CPUPerOpMicros
}

// measure runs workload w on table, its schedule pinned by at, and reads
// s's servers at the edges of the measurement window; hs's window phase
// runs once the schedule is fixed (on load hosts, at the agreed start).
func (r *Runner) measure(ctx context.Context, s *side, w, table string, at timing, hs probe.TrialHooks) (*measured, error) {
	load, err := r.trialSpec(s, w, table, at)
	if err != nil {
		return nil, err
	}
	hlog, err := os.CreateTemp("", "regress-trial-*.hlog")
	if err != nil {
		return nil, err
	}
	m := &measured{hlog: hlog.Name()}
	var edges func() ([]servercost.Cost, error)
	onStart := func(start time.Time) {
		probe.Window(ctx, []probe.TrialHooks{hs}, start)
		if len(s.t.Servers) > 0 {
			from := start.Add(load.Warmup)
			edges = watch(ctx, s.t.Servers, from, from.Add(load.Duration))
		}
		// When the load starts, so a stall or a death in the servers' logs can
		// be placed against the trial's warm-up and measurement window.
		r.logger().Info("trial running", "target", s.t.Name, "workload", w, "table", table,
			"start", start.Format(time.RFC3339Nano), "warmup", load.Warmup, "measure", load.Duration)
	}
	res, hosts, err := r.drive(ctx, s, load, hlog, at, onStart)
	if cerr := hlog.Close(); err == nil {
		err = cerr
	}
	var costs []servercost.Cost
	var werr error
	if edges != nil {
		costs, werr = edges()
	}
	if err != nil {
		os.Remove(m.hlog)
		return nil, fmt.Errorf("%s: workload %s on %s: %w", s.t.Name, w, table, err)
	}
	m.res, m.hosts = res, hosts
	if werr != nil {
		r.logger().Warn("server cost not read", "target", s.t.Name, "workload", w, "err", werr)
	} else if costs != nil {
		m.server = serverStats(servercost.Total(costs), &s.idle, res.Ops, len(costs))
		m.server.PerServer = serverParts(costs, s.counts.Addresses())
		m.server.Timeline = timelineOf(costs, res.Start)
	}
	return m, nil
}

// record checks a measured trial and stores it; a pair of -1 (warm-up) is
// only logged.
func (r *Runner) record(s *side, w string, pair, order int, requireRate, duet bool, m *measured) error {
	res := m.res
	if pair != profilePair {
		if err := r.checkSources(s, w, m); err != nil {
			return err
		}
	}
	if pair == profilePair {
		r.logger().Info("profile trial done (not counted)", "target", s.t.Name, "workload", w, "rate", res.RateMessage(), "server_cpu_per_op_us", m.cpuPerOp())
		return nil
	}
	if pair < 0 {
		r.logger().Info("warm-up trial done", "target", s.t.Name, "workload", w, "rate", res.RateMessage(), "server_cpu_per_op_us", m.cpuPerOp())
		return nil
	}
	t := results.Trial{
		ID:       r.trialID(w, pair),
		RunID:    r.RunID,
		Workload: filepath.Base(w),
		Pair:     pair,
		Order:    order,
		Instance: s.instance,
		Slot:     r.slotOf(order),
		Duet:     duet,
		Server:   m.server,
	}
	if r.WarmUp.Rounds > 0 {
		t.Warmup = &results.Warmup{Rounds: r.WarmUp.Rounds, Seconds: r.WarmUp.Took.Seconds(), Settled: r.WarmUp.Settled}
	}
	results.FillTrial(&t, res)
	t.LoadHosts = m.hosts
	var total, failed int64
	for _, o := range t.Ops {
		total += o.Count
		failed += o.Errors
	}
	if total > 0 && float64(failed)/float64(total) > r.Suite.Run.MaxErrorRate {
		return fmt.Errorf("%w: %s workload %s: %d of %d operations failed, above run.max_error_rate %.1f%% (see the log for the first error of each kind)",
			ErrRunFailed, s.t.Name, w, failed, total, 100*r.Suite.Run.MaxErrorRate)
	}
	if !res.HeldTarget() {
		stall := stallNote(t, r.Suite.Run.Measure)
		if requireRate {
			if stall != "" {
				return fmt.Errorf("%w: %s workload %s: %s; %s", ErrRunFailed, s.t.Name, w, stall, res.RateMessage())
			}
			return fmt.Errorf("%w: %s workload %s: %s; lower run.target in the suite or give the cluster more room",
				ErrRunFailed, s.t.Name, w, res.RateMessage())
		}
		r.logger().Warn("trial did not hold the target rate; kept for the held-rate check", "target", s.t.Name, "workload", w, "pair", pair, "rate", res.RateMessage(), "stall", stall)
		r.emit(Event{Phase: "trial", Target: s.t.Name, Workload: w, Message: "target rate not held: " + res.RateMessage() + map[bool]string{true: "; " + stall}[stall != ""]})
	}
	if _, err := r.Store.AppendTrialFile(s.key, t, m.hlog); err != nil {
		return fmt.Errorf("%s: store trial: %w", s.t.Name, err)
	}
	r.stored++
	return nil
}

// dropEmptyOnFailure removes s's store entry when the run failed (or was
// stopped) before storing any trial in it: an empty entry is no result,
// and `results check` rightly calls it a leftover. An entry holding
// anything (an earlier run's trials) is kept (Store.RemoveIfEmpty).
func (r *Runner) dropEmptyOnFailure(err *error, s *side) {
	if *err == nil || s == nil {
		return
	}
	if rerr := r.Store.RemoveIfEmpty(s.key); rerr != nil {
		r.logger().Warn("an empty store entry of the failed run is left", "entry", s.key, "err", rerr)
	}
}

// rng is the run's source of random orders: Rand, or one seeded at random.
func (r *Runner) rng() *rand.Rand {
	if r.Rand == nil {
		r.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	return r.Rand
}

// Stored is how many trials this Runner has stored so far (warm-up trials
// are not stored): what an interrupted or failed run kept.
func (r *Runner) Stored() int { return r.stored }

// stallAfter is the share of the measurement window one operation must take
// for a trial that missed its rate to be called stalled rather than slow.
const stallAfter = 0.5

// stallNote names a stall when one operation of t took at least half the
// measurement window in service time (time behind the schedule is a backlog,
// not a stall): the servers stopped answering for that long (a stopped or
// swapping process, a long GC pause, a lost disk), which no rate setting
// fixes. It is "" when the trial was merely slow.
func stallNote(t results.Trial, window time.Duration) string {
	var longest float64
	var op string
	for name, o := range t.Ops {
		if m := o.Service.MaxMicros; m > longest {
			longest, op = m, name
		}
	}
	d := time.Duration(longest * float64(time.Microsecond))
	if window <= 0 || d < time.Duration(stallAfter*float64(window)) {
		return ""
	}
	return fmt.Sprintf("the cluster stalled: one %s took %s in a %s window (a stopped or swapping server, a long GC pause, a lost disk; see the servers' logs and GC logs); the trial's tail shows the stall",
		op, d.Round(10*time.Millisecond), window)
}

// trialID names the stored trial of workload w's pair in this run.
func (r *Runner) trialID(w string, pair int) string {
	return fmt.Sprintf("%s-%s-p%02d", r.RunID, filepath.Base(w), pair)
}

// duet reports whether pairs run as duets: the suite's run.mode says so. On
// load hosts a duet's two trials start at one instant agreed through
// ZooKeeper (startGate, loadhosts.Clock).
func (r *Runner) duet() bool { return r.Suite.Run.Mode == suite.ModeDuet }

func (r *Runner) emit(e Event) {
	if r.OnEvent != nil {
		r.OnEvent(e)
	}
}

func (r *Runner) logger() *slog.Logger {
	if r.Log == nil {
		return slog.Default()
	}
	return r.Log
}
