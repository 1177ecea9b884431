// Package job runs what regress's commands ask for once their flags are
// parsed: for the main job, run and capacity it checks the sides, loads the
// suite, opens the store, starts the targets, runs the trials or the sweep,
// compares and reports; compare and plan work from stored results; cluster up,
// cluster versions and doctor serve and inspect clusters. Its errors say whose
// fault they are (package fault); the CLI maps them to exit codes.
package job

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/inputfile"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/progress"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
	"github.com/regress-hbase/regress/scenarios"
)

// Options are what every job that runs a suite shares: the suite, the store,
// the provider and how chatty to be.
type Options struct {
	Suite, Scenarios, Store, Provider, CacheDir, ZNode string
	Reseed, Quiet, Keep                                bool
	// LoadHosts runs the trials on `regress worker` load hosts.
	LoadHosts LoadHosts
	// RegionServers and RSHeap shape every cluster regress starts (0 and "":
	// the suite's cluster section, else one standalone JVM with a 1g heap).
	RegionServers int
	RSHeap        string
	// Trials overrides the suite's run.mode: "duet" or "interleaved" ("" keeps the suite's).
	Trials string
	// Profile overrides the suite's run.profile (--profile); nil keeps the suite's.
	Profile *bool
	// Instances overrides the suite's run.instances (--instances); 0 keeps the suite's.
	Instances int
	// Overrides are YCSB's -P, -p, -threads and -target given to the suite
	// (the main job and run): part of its fingerprint.
	Overrides suite.Overrides
}

// Report says where a comparison's reports go and when its verdict fails the job.
type Report struct {
	Out, Format        string
	FailOnInconclusive bool
	// Wide prints the text report's every column (--wide), not the compact table.
	Wide bool
}

// Main is the main job (`regress --baseline V1 --candidate V2`): baseline
// against candidate, in pairs (or the candidate alone against stored
// baseline trials).
type Main struct {
	Options
	Report
	Baseline, Candidate sut.Spec
	ReuseBaseline       bool
}

// Asked says whether any side was given (without one the CLI shows its help).
func (j *Main) Asked() bool {
	b, c := j.Baseline, j.Candidate
	return b.Version != "" || b.ZK != "" || c.Version != "" || c.ZK != "" || b.Home != "" || c.Home != ""
}

// Run runs the job and returns the verdict as an error when it fails the job.
func (j *Main) Run(ctx context.Context, stdout, stderr io.Writer) error {
	outcomeOf(ctx).expect()
	if err := j.Report.CheckIn(j.Store); err != nil {
		return err
	}
	base, cand, s, err := j.checkPair(j.Baseline, j.Candidate)
	if err != nil {
		return err
	}
	se, err := j.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer se.prog.Close()
	store, log, cfg := se.store, se.log, CompareConfig(s)
	for _, side := range []sut.Spec{base, cand} {
		if side.ZK != "" && len(s.Cluster.Conf) > 0 {
			log.Warn("the suite's cluster.conf is not applied to a cluster regress did not start: set these hbase-site settings on it yourself, or its results measure another configuration",
				"side", side.Role, "zk", side.ZK, "conf", s.Cluster.Conf)
		}
	}

	var stored *results.Manifest
	if j.ReuseBaseline {
		stored, err = findReused(store, base, j.topology(s), s)
		if err != nil {
			return err
		}
		// The candidate runs a fixed pairs.initial trials and is judged once:
		// one look, whatever the suite plans for an adaptive paired run.
		cfg.Unpaired, cfg.Looks, cfg.MaxPairs = true, 1, 0
	}

	if stored == nil {
		WarnIfUndecidable(log, store, base.Version, s, cfg)
	}
	r := se.runner(ctx, &j.Options, s, newRunID(), se.prog.Event)

	sides := []sut.Spec{base, cand}
	if stored != nil {
		sides = []sut.Spec{cand}
	}
	se.showPlan(r, len(sides))
	ctx, targets, stop, err := se.start(ctx, &j.Options, s, sides)
	defer stop()
	if err != nil {
		return err
	}
	closeHosts, err := se.useLoadHosts(ctx, &j.Options, s, r, targets[0].ZK)
	defer closeHosts()
	if err != nil {
		return err
	}

	var bm, cm *results.Manifest
	if stored != nil {
		sut.ApartFrom(targets[0], results.KeyOf(stored).Target)
		cm, err = r.RunSingle(ctx, targets[0])
		bm = stored
	} else {
		sut.DistinctNames(targets[0], targets[1])
		more := func(look int, b, c *results.Manifest) (map[string]int, error) {
			plan, err := compare.NeedMorePairs(b, c, cfg, look)
			if err != nil {
				return nil, err
			}
			if plan.More {
				log.Info("gated metrics inconclusive: adding pairs", "look", look, "metrics", plan.Inconclusive, "extra", plan.Extra)
			}
			return plan.Extra, nil
		}
		r.Renew = se.renew
		bm, cm, err = r.RunPairs(ctx, targets[0], targets[1], more)
	}
	if err != nil {
		return Kept(RunFailure(deathReported(ctx), err), r.Stored(), se.store.Root())
	}
	se.prog.Close()
	return decide(ctx, stdout, store, bm, cm, cfg, j.Report, r.ProfileNotes())
}

// Decide compares, writes every report, prints the chosen one, and returns
// the verdict as an error when it fails the job.
// The warnings (what the caller substituted for something the user named)
// are added to the report's.
func Decide(ctx context.Context, stdout io.Writer, store *results.Store, bm, cm *results.Manifest, cfg compare.Config, rp Report, warnings ...string) error {
	return decide(ctx, stdout, store, bm, cm, cfg, rp, nil, warnings...)
}

// decide is Decide with the run's notes on profiles it could not record.
func decide(ctx context.Context, stdout io.Writer, store *results.Store, bm, cm *results.Manifest, cfg compare.Config, rp Report, profileNotes []string, warnings ...string) error {
	c, err := compare.Compare(bm, cm, cfg)
	if err != nil {
		return fault.Usage(err)
	}
	c.Warnings = slices.Concat(warnings, c.Warnings)
	// A missing or damaged .hlog costs its plots, not the verdict: say
	// which, in the log and in the report.
	bh, err := store.WorkloadHistograms(bm)
	if err != nil {
		slog.Warn("baseline histograms", "err", err)
		c.Warnings = append(c.Warnings, fmt.Sprintf("baseline histograms: %v", err))
	}
	ch, err := store.WorkloadHistograms(cm)
	if err != nil {
		slog.Warn("candidate histograms", "err", err)
		c.Warnings = append(c.Warnings, fmt.Sprintf("candidate histograms: %v", err))
	}
	rep := report.Report{Comparison: c, Distributions: report.Distributions(bh, ch), Generated: time.Now(),
		Vote: voteOf(bm, cm, c, ""), Build: ReadVersion().Build(), Measured: measuredTime(bm, cm)}
	var notes []string
	rep.Profiles, notes = Differentials(bm, cm)
	rep.Timelines = Timelines(store, bm, cm)
	rep.Shifts, rep.ShiftNotes = LatencyShifts(store, bm, cm, c)
	rep.ProfileNotes = slices.Concat(profileNotes, notes)
	if err := writeReports(ctx, stdout, rp, rep, true); err != nil {
		return err
	}
	switch c.Verdict {
	case compare.VerdictInvalid:
		return fault.Run(fmt.Errorf("verdict INVALID: %s", c.Invalid))
	case compare.Regression:
		return &fault.VerdictError{Verdict: fault.Regression, Err: fmt.Errorf("verdict REGRESSION: %s is slower than %s beyond tolerance", c.Candidate.Name, c.Baseline.Name)}
	case compare.VerdictInconclusive:
		if rp.FailOnInconclusive {
			return &fault.VerdictError{Verdict: fault.Inconclusive, Err: errors.New("verdict INCONCLUSIVE (--fail-on-inconclusive): run more pairs (raise pairs.max in the suite) or accept wider tolerances")}
		}
	case compare.VerdictDescriptive:
		// A gate that must decide is not passed by a comparison that decides
		// nothing: imported summaries give ratios only.
		if rp.FailOnInconclusive {
			return &fault.VerdictError{Verdict: fault.Inconclusive, Err: errors.New("no verdict (DESCRIPTIVE: imported summaries carry no trials, so nothing was decided) with --fail-on-inconclusive: compare measured trials (regress run, or the job) to gate on")}
		}
	}
	return nil
}

// measuredTime is each workload's measured time over the trials of both
// sides: the wall time their measurement windows cover, a window two
// trials shared (a duet's) counted once.
func measuredTime(ms ...*results.Manifest) map[string]time.Duration {
	type window struct{ from, to time.Time }
	by := map[string][]window{}
	for _, m := range ms {
		if m == nil {
			continue
		}
		for _, t := range m.Trials {
			if t.DurationMillis > 0 && !t.Start.IsZero() {
				by[t.Workload] = append(by[t.Workload], window{t.Start, t.Start.Add(time.Duration(t.DurationMillis) * time.Millisecond)})
			}
		}
	}
	out := make(map[string]time.Duration, len(by))
	for w, ws := range by {
		slices.SortFunc(ws, func(a, b window) int { return a.from.Compare(b.from) })
		var total time.Duration
		end := ws[0].from
		for _, x := range ws {
			from := x.from
			if from.Before(end) {
				from = end
			}
			if x.to.After(from) {
				total += x.to.Sub(from)
				end = x.to
			}
		}
		out[w] = total
	}
	return out
}

// writeReports writes every format under rp.Out (default reports/<timestamp>),
// adds to GitHub's step summary when asked, prints rp.Format on stdout, and
// records the verdict and the folder in ctx's Outcome.
func writeReports(ctx context.Context, stdout io.Writer, rp Report, rep report.Report, stepSummary bool) error {
	rep.Wide = rp.Wide
	d, err := reserveOut(rp.Out, ReportsDir, "")
	if err != nil {
		return err
	}
	out := d.Path
	rep.Dir = out
	if rep.Vote.Report == "" {
		rep.Vote.Report = filepath.Join(out, "report.html")
	}
	written, err := report.WriteAll(d.Tmp, rep)
	if err != nil {
		d.Abort()
		return fault.Run(err)
	}
	if ctx.Err() != nil {
		// Stopped while the comparison was drawn: no folder of reports
		// and no verdict, and nothing left for the signal watcher's exit
		// to cut through.
		d.Abort()
		return fault.Run(fmt.Errorf("interrupted while writing the reports: %w (none was kept; the trials are stored: `regress compare` writes them)", context.Cause(ctx)))
	}
	if err := d.Commit(); err != nil {
		return fault.Run(err)
	}
	outcomeOf(ctx).record(rep.Comparison, out)
	if stepSummary {
		if err := report.AppendStepSummary(rep); err != nil {
			slog.Warn("GitHub step summary not written", "err", err)
		}
	}
	if err := report.Render(stdout, rp.Format, rep); err != nil {
		return fault.Usage(err)
	}
	slog.Info("reports written", "dir", out, "files", len(written))
	return nil
}

// reserveOut reserves the report directory: out when the user named one
// (refused when it already holds files), else base/<prefix><timestamp>, with
// a suffix when a comparison of the same second took that name.
func reserveOut(out, base, prefix string) (*report.OutDir, error) {
	var d *report.OutDir
	var err error
	if out != "" {
		d, err = report.NamedOutDir(out)
	} else {
		d, err = report.NewOutDir(base, prefix, time.Now())
	}
	if errors.Is(err, report.ErrOutTaken) {
		return nil, fault.Usage(err)
	}
	if err != nil {
		return nil, fault.Run(err)
	}
	return d, nil
}

// Run is `regress run`: one target measured with a suite, its trials stored.
type Run struct {
	Options
	// Side is the target; its Label (required with ZK) names the stored results.
	Side sut.Spec
}

// Run measures the target and prints where its trials are stored.
func (j *Run) Run(ctx context.Context, stdout, stderr io.Writer) error {
	side := j.Side
	side.Role = sut.Run
	if err := side.Check(); err != nil {
		return err
	}
	s, err := LoadSuite(j.Scenarios, j.Suite)
	if err != nil {
		return err
	}
	if err := j.override(s); err != nil {
		return err
	}
	if err := j.setTrials(s); err != nil {
		return err
	}
	se, err := j.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer se.prog.Close()
	se.showPlan(&runner.Runner{Suite: s, Profile: j.profileOn(s.Run.Profile)}, 1)
	ctx, targets, stop, err := se.start(ctx, &j.Options, s, []sut.Spec{side})
	defer stop()
	if err != nil {
		return err
	}
	t := targets[0]
	r := se.runner(ctx, &j.Options, s, newRunID(), se.prog.Event)
	closeHosts, err := se.useLoadHosts(ctx, &j.Options, s, r, t.ZK)
	defer closeHosts()
	if err != nil {
		return err
	}
	m, err := r.RunSingle(ctx, t)
	if err != nil {
		return Kept(RunFailure(deathReported(ctx), err), r.Stored(), se.store.Root())
	}
	se.prog.Close()
	k := results.KeyOf(m)
	fmt.Fprintf(stdout, "stored %d trials of %s (suite %s) in %s\n", len(m.Trials), k.Target, s.Name, se.store.Dir(k))
	return nil
}

// checkPair checks both sides' flags and loads the suite; the sides it
// returns carry their roles.
func (o *Options) checkPair(b, c sut.Spec) (base, cand sut.Spec, s *suite.Suite, err error) {
	base, cand = b, c
	base.Role, cand.Role = sut.Baseline, sut.Candidate
	if err = base.Check(); err != nil {
		return
	}
	if err = cand.Check(); err != nil {
		return
	}
	if base.Label != "" && base.Label == cand.Label {
		// A label names one build's results: both sides under it would be one entry.
		err = fault.Usagef("--baseline-label and --candidate-label are both %q: each side's results need a name of their own; give each its own label (e.g. %s-baseline and %s-candidate), or drop both labels for an A/A run of one version (stored as VERSION+baseline and VERSION+candidate)", base.Label, base.Label, base.Label)
		return
	}
	if s, err = LoadSuite(o.Scenarios, o.Suite); err != nil {
		return
	}
	if err = o.override(s); err != nil {
		return
	}
	err = o.setTrials(s)
	return
}

// override applies -P, -p, --threads and --target to the suite before
// anything fingerprints it (refused as the suite file's own values would be).
func (o *Options) override(s *suite.Suite) error {
	if err := s.Override(o.Overrides); err != nil {
		return fault.Usagef("suite %s with the command line's workloads and properties: %w", s.Name, err)
	}
	return nil
}

// setTrials applies --trials to the suite before anything fingerprints it:
// a duet measures another machine (two servers loaded at once) than
// interleaved trials, so the mode is part of the suite's identity.
func (o *Options) setTrials(s *suite.Suite) error {
	switch o.Trials {
	case "":
	case suite.ModeDuet, suite.ModeInterleaved:
		s.SetMode(o.Trials)
	default:
		return fault.Usage(fmt.Errorf("--trials %q: use duet (a pair's two trials at the same time) or interleaved (back to back, in random order)", o.Trials))
	}
	return o.setInstances(s)
}

// setInstances applies --instances to the suite, refused as the suite's
// own run.instances would be.
func (o *Options) setInstances(s *suite.Suite) error {
	n := o.Instances
	switch {
	case n == 0:
		return nil
	case n < 0:
		return fault.Usagef("--instances %d: give how many times each side's cluster starts afresh over the run, 1 or more", n)
	case n > 1 && s.Pairs.Initial < 2*n:
		return fault.Usagef("--instances %d: suite %s runs %d initial pairs, and each instance needs two (nothing else estimates the pairs' noise within it); use --instances %d or fewer", n, s.Name, s.Pairs.Initial, max(s.Pairs.Initial/2, 1))
	case n > 1 && o.LoadHosts.N > 0:
		return fault.Usage(errors.New("--instances with --load-hosts: load hosts measure clusters regress does not restart; leave --instances out"))
	}
	s.SetInstances(n)
	return nil
}

// session is what a job opens once its input is checked: the store, the log
// and the progress display (which the job closes).
type session struct {
	store *results.Store
	log   *slog.Logger
	prog  *progress.Progress
	// renew starts side i of the last start afresh (runner.Runner.Renew);
	// the stop start returned stops what it started too.
	renew func(ctx context.Context, i int, old *sut.Target) (*sut.Target, error)
}

// open opens the store (its lock waits end with ctx) and the session's log and progress.
func (o *Options) open(ctx context.Context, stderr io.Writer) (*session, error) {
	// Checked before any cluster starts; useLoadHosts checks the suite's count.
	if o.LoadHosts.N < 0 {
		return nil, fault.Usagef("--load-hosts %d: give the number of `regress worker` hosts, or 0 to run the load here", o.LoadHosts.N)
	}
	if o.LoadHosts.Timeout < 0 {
		return nil, fault.Usagef("--load-hosts-timeout %v: give a positive time to wait for the load hosts to register, e.g. 5m", o.LoadHosts.Timeout)
	}
	if err := CheckZNode("--znode", o.ZNode); err != nil {
		return nil, err
	}
	if o.CacheDir != "" {
		// Found here, not when the first cluster starts (exit 3, after
		// "starting HBase" for both sides).
		if fi, err := os.Stat(o.CacheDir); err == nil && !fi.IsDir() {
			return nil, fault.Usagef("--cache-dir %s is %s, not a directory: give a directory for the HBase jar cache, or leave the flag out (default: the user cache dir)", o.CacheDir, inputfile.Kind(fi.Mode()))
		}
	}
	store, err := results.Open(o.Store)
	if err != nil {
		return nil, fault.Usage(err)
	}
	stderr = OneWriter(stderr) // the progress's and the job's loggers, one lock
	prog := progress.New(stderr, o.Quiet, NewLogger(ctx, stderr, false))
	if prog.Terminal() {
		// Every log line of the run, the packages' through slog's default
		// too, goes above the progress bar, never through it.
		slog.SetDefault(NewLogger(ctx, prog.Writer(), false))
	}
	return &session{store: store.WithContext(ctx), log: NewLogger(ctx, prog.Writer(), o.Quiet), prog: prog}, nil
}

// showPlan shows what the runner will run on sides sides, before the
// clusters start: the estimate is there from the first minute.
func (se *session) showPlan(r *runner.Runner, sides int) {
	p := r.Plan(sides)
	se.prog.Event(runner.Event{Phase: "plan", Plan: &p})
}

// runner is the runner of suite s for this session, reporting to onEvent.
func (se *session) runner(ctx context.Context, o *Options, s *suite.Suite, runID string, onEvent func(runner.Event)) *runner.Runner {
	return &runner.Runner{Suite: s, Store: se.store, RunID: runID, Reseed: o.Reseed, Log: se.log,
		OnEvent: onEvent, Env: machineEnvironment(ctx, se.log), Profile: o.profileOn(s.Run.Profile)}
}

// machineEnvironment fingerprints this machine for the store, with the JDK a
// plain java runs here (cluster's one JDK probe; empty and logged when none).
func machineEnvironment(ctx context.Context, log *slog.Logger) results.Environment {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	jdk, err := cluster.DefaultJDK(ctx)
	if err != nil {
		log.Warn("environment: JDK version unknown", "err", err)
	}
	return results.CurrentEnvironment(sut.StoredJDK(jdk, nil))
}

// topology is the shape of every cluster this run starts: the flags over the suite's.
func (o *Options) topology(s *suite.Suite) sut.Topology {
	return sut.Shape(sut.Topology{RegionServers: o.RegionServers, RSHeap: o.RSHeap}, s)
}

// start starts (or connects to) every checked side through sut.Start and
// says whether a failure was the user's input or the run's. The context it
// returns is cancelled when a started cluster dies; stop tears all down.
func (se *session) start(ctx context.Context, o *Options, s *suite.Suite, sides []sut.Spec) (context.Context, []*sut.Target, func(), error) {
	topo := o.topology(s)
	if err := topo.Check(); err != nil {
		return ctx, nil, func() {}, err
	}
	ctx, died := context.WithCancelCause(ctx)
	opt := sut.Options{Provider: o.Provider, CacheDir: o.CacheDir, Keep: o.Keep, Topology: topo, ZNode: o.ZNode,
		Log: se.log, Message: se.prog.Message, Died: died}
	targets, stopTargets, err := sut.Start(ctx, opt, sides...)
	var mu sync.Mutex
	var renewed []func()
	se.renew = func(ctx context.Context, i int, old *sut.Target) (*sut.Target, error) {
		t, stopNew, err := sut.Renew(ctx, opt, sides[i], old)
		mu.Lock()
		renewed = append(renewed, stopNew)
		mu.Unlock()
		return t, err
	}
	stop := func() {
		stopTargets()
		mu.Lock()
		for _, st := range renewed {
			st()
		}
		mu.Unlock()
		died(nil)
	}
	switch {
	case err == nil:
		for _, t := range targets {
			if t.ServersNote != "" {
				se.log.Warn(t.ServersNote, "target", t.Name)
			}
		}
		return ctx, targets, stop, nil
	case ctx.Err() == nil && (errors.Is(err, cluster.ErrBadVersion) || errors.Is(err, cluster.ErrVersionNotFound) || errors.Is(err, cluster.ErrJDKIncompatible) || errors.Is(err, cluster.ErrBadHome)):
		return ctx, nil, stop, fault.Usage(err)
	}
	return ctx, nil, stop, fault.Run(err)
}

// LoadSuite loads a suite by name or path: a name from the scenarios (the
// folder scenarios, or the built-in ones when it is ""), a suite file by
// its path with its workload files from them.
func LoadSuite(scenarios, name string) (*suite.Suite, error) {
	sc, err := ScenariosOf(scenarios)
	if err != nil {
		return nil, err
	}
	if suite.IsPath(name) {
		return loadSuiteFile(name, sc)
	}
	s, err := suite.Named(sc, name)
	if err != nil {
		return nil, fault.Usage(err)
	}
	return checkSuite(s, sc.Path(filepath.Join("suites", name+".yaml")))
}

// ScenariosOf is where suites and workload files are read from: the folder
// dir (--scenarios, REGRESS_SCENARIOS), which must be one, or the set built
// into the binary when dir is "".
func ScenariosOf(dir string) (suite.Scenarios, error) {
	if dir == "" {
		return suite.Set(BuiltinScenarios, scenarios.FS()), nil
	}
	if err := suite.CheckScenarios(dir); err != nil {
		return suite.Scenarios{}, fault.Usage(err)
	}
	if _, err := os.Stat(dir); err != nil {
		return suite.Scenarios{}, fault.Usagef("scenarios %s: %v: give --scenarios (or %s) a folder holding suites/ and the workload files, or leave both out for %s", dir, errors.Unwrap(err), ScenariosEnv, BuiltinScenarios)
	}
	return suite.Folder(dir), nil
}

// loadSuiteFile loads and validates the suite file at p, its workloads
// from sc.
func loadSuiteFile(p string, sc suite.Scenarios) (*suite.Suite, error) {
	s, err := suite.LoadFile(p, sc)
	if err != nil {
		return nil, fault.Usage(err)
	}
	return checkSuite(s, p)
}

// checkSuite checks a loaded suite (named where in errors): its cluster
// section as the targets it shapes would refuse it and its compare section
// as the comparison would.
func checkSuite(s *suite.Suite, where string) (*suite.Suite, error) {
	if err := sut.CheckSuite(s); err != nil {
		return nil, fault.Usagef("suite %s: %w", where, err)
	}
	// The comparison's own check, before any cluster starts: what it would
	// refuse after the trials is refused here.
	if err := CompareConfig(s).Check(); err != nil {
		return nil, fault.Usagef("suite %s: %w", where, err)
	}
	return s, nil
}

// CompareConfig is the comparison a suite asks for.
func CompareConfig(s *suite.Suite) compare.Config {
	maxErr := s.Run.MaxErrorRate
	if maxErr == 0 {
		maxErr = -1 // the suite allows no failed operation (compare's 0 is its default)
	}
	return compare.Config{Alpha: s.Compare.Alpha, Tolerances: s.Compare.Tolerances, PrimaryTolerances: s.Compare.PrimaryTolerances, Gate: s.Compare.Gate, DetectOnly: s.Compare.DetectOnly,
		Looks: s.Pairs.Looks, MaxPairs: s.Pairs.Max, InstanceSD: s.Compare.InstanceSD, InstanceSDByLine: s.Compare.InstanceSDByLine, InstanceSDByJDK: s.Compare.InstanceSDByJDK, InstanceRuns: s.Compare.InstanceRuns, MaxErrorRate: maxErr}
}

// Check refuses, before any work, a --format no renderer has and an --out
// the reports could not be written under: a run must not end in exit 3 for
// want of a directory after its clusters measured for an hour.
func (rp Report) Check() error {
	if err := CheckFormat(rp.Format); err != nil {
		return err
	}
	out := rp.Out
	if out == "" {
		out = ReportsDir // the default ReportsDir/<timestamp> lies under it
	}
	if err := checkOutFree(rp.Out); err != nil {
		return err
	}
	dir := out
	for {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return fault.Usagef("--out %s: %s is not a directory: give a directory for the reports", out, dir)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fault.Usagef("--out %s: %w", out, err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	f, err := os.CreateTemp(dir, ".regress-write-check-*")
	if err != nil {
		return fault.Usagef("--out %s: reports cannot be written under %s (%v): give a writable directory", out, dir, err)
	}
	f.Close()
	_ = os.Remove(f.Name())
	return nil
}

// checkOutFree refuses an --out that already holds files, before any work:
// reports are never written over another comparison's, unless the folder
// holds regress's own earlier reports, which the new ones replace whole.
func checkOutFree(out string) error {
	if report.HoldsReports(out) {
		return nil
	}
	if out == "" {
		return nil
	}
	f, err := os.Open(out)
	if err != nil {
		return nil // absent: created at the end; anything else is Check's to say
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return nil
	}
	if names, _ := f.Readdirnames(1); len(names) > 0 {
		return fault.Usagef("--out %s already holds files (%s...), and no earlier regress reports (which a run replaces): give a new directory, or leave --out out (reports/<timestamp>)", out, names[0])
	}
	return nil
}

// CheckIn is Check, and refuses an --out inside the results store: reports
// written there would land in (or beside) its entry directories, where
// `results check` and `results remove` take them for the store's own.
func (rp Report) CheckIn(store string) error {
	if rp.Out == "" || store == "" {
		return rp.Check()
	}
	out, err1 := filepath.Abs(rp.Out)
	root, err2 := filepath.Abs(store)
	if err1 != nil || err2 != nil {
		return rp.Check()
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if o, err := evalExisting(out); err == nil {
		out = o
	}
	if rel, err := filepath.Rel(root, out); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fault.Usagef("--out %s lies inside the results store %s: give a directory outside it, e.g. reports/NAME (the default is reports/<timestamp>)", rp.Out, store)
	}
	return rp.Check()
}

// evalExisting resolves the symbolic links of path's longest existing prefix
// and keeps the rest as written.
func evalExisting(path string) (string, error) {
	rest := ""
	for p := path; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest), nil
		}
		if filepath.Dir(p) == p {
			return path, nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// CheckFormat refuses a --format no renderer has (names and aliases, in any case, are taken).
func CheckFormat(f string) error {
	if _, err := ParseFormat(f); err != nil {
		return fault.Usagef("--format %w", err)
	}
	return nil
}

// RunFailure says why a started run failed: a cluster died, the user
// interrupted it, or the error itself (a failed run unless it says otherwise).
func RunFailure(ctx context.Context, err error) error {
	var died *cluster.DiedError
	if errors.As(context.Cause(ctx), &died) {
		return &fault.RunError{Err: fmt.Errorf("%w\nThe run stopped because that cluster died (stored trials are kept; the trial in progress was not stored): %v", died, err)}
	}
	if ctx.Err() != nil {
		return &fault.RunError{Err: fmt.Errorf("interrupted: %w (the trial in progress was not stored; clusters this run started are stopped, their tables with them; a regress_trial_* table left on a cluster it did not start is dropped by the next run)", err)}
	}
	return fault.Run(err)
}

// deathWait is how long a failed run waits for a cluster's death to be
// reported before it says why it failed: when a region server is killed the
// trial's error (refused connections, retries given up) can come before the
// cluster's other JVMs are reaped and the death is known.
const deathWait = 2 * time.Second

// deathReported returns ctx once it is done (a death or a signal) or
// deathWait has passed, whichever comes first.
func deathReported(ctx context.Context) context.Context {
	t := time.NewTimer(deathWait)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	return ctx
}

// Kept adds to a failed run's error what it stored and where: a signal, a
// dead server or a full disk loses only the trial in progress.
func Kept(err error, stored int, store string) error {
	if err == nil {
		return nil
	}
	note := fmt.Sprintf("this run stored %d trials before it stopped; they are kept in %s", stored, store)
	if stored == 0 {
		note = "this run stored no trial before it stopped; the store " + store + " is as it was"
	}
	return fmt.Errorf("%w\n%s", err, note)
}

func newRunID() string {
	return time.Now().UTC().Format("20060102T150405")
}

// ParseCount reads a count flag whose default 0 means the suite's: a value
// given must be a whole number of at least 1 (`--region-servers 0` is
// refused, not read as the default).
func ParseCount(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a count: give a whole number of at least 1, or leave the flag out for the suite's", s)
	}
	return n, nil
}

// ParseRate reads --target: a rate in ops/s, 0 for unthrottled.
func ParseRate(s string) (*float64, error) {
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || r < 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		return nil, fmt.Errorf("%q is not a rate: give ops/s for the whole cluster, e.g. 1000, or 0 for as fast as it goes", s)
	}
	return &r, nil
}

// ParseStore reads --store: an empty or blank directory is refused, not read
// as the default (./baselines), which would write somewhere the user did not name.
func ParseStore(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", errors.New("the results store directory is empty: give a directory, e.g. --store baselines (the default)")
	}
	return s, nil
}

// ParseOut reads --out: an empty or blank directory is refused, not read as
// the default (reports/<timestamp>), a directory the user did not name.
func ParseOut(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", errors.New("the report directory is empty: give a directory, e.g. --out reports/NAME, or leave the flag out (reports/<timestamp>)")
	}
	return s, nil
}

// LogFormats are the values of --log-format: text (slog's key=value lines,
// DefaultLogFormat) and json (one JSON object a line, for CI).
var LogFormats = []string{DefaultLogFormat, "json"}

// DefaultLogFormat is --log-format when not given.
const DefaultLogFormat = "text"

// OneWriter makes w safe to write from several goroutines at once, one
// Write at a time: a command's stderr takes lines from slog's default, the
// job's own logger and the progress, each a handler with its own lock, and
// from the goroutines that start and watch clusters. A file takes that
// (each Write is one system call) and is returned as it is, so a terminal
// stays one (progress bars); a buffer does not (tests), so the command
// line hands every command its stderr through OneWriter. A writer it made
// already is returned as it is.
func OneWriter(w io.Writer) io.Writer {
	switch w.(type) {
	case *os.File, *oneWriter:
		return w
	}
	return &oneWriter{w: w}
}

type oneWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (o *oneWriter) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.w.Write(b)
}

// StartLog makes a command's log lines on stderr, in format (one of
// LogFormats), slog's default for the packages that log through it, and
// returns ctx carrying the format, in which NewLogger makes the job's own.
func StartLog(ctx context.Context, stderr io.Writer, format string) (context.Context, error) {
	h, err := newLogHandler(stderr, format, slog.LevelInfo)
	if err != nil {
		return ctx, err
	}
	slog.SetDefault(slog.New(h))
	return WithLogFormat(ctx, format), nil
}

func newLogHandler(stderr io.Writer, format string, level slog.Level) (slog.Handler, error) {
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: logFields}
	switch format {
	case "text":
		return slog.NewTextHandler(stderr, opts), nil
	case "json":
		return slog.NewJSONHandler(stderr, opts), nil
	}
	return nil, fault.Usagef("--log-format %q: use %s", format, strings.Join(LogFormats, " or "))
}

// logFields keeps every log value a field a reader can take in: a map of
// figures (a warm-up round's server CPU per operation by side and
// workload) becomes a group of its keys, sorted, not one Go map[...]
// value; a float is rounded to 4 significant digits (12.34, not
// 12.339999999999998), as the logs show figures, not exact values.
func logFields(_ []string, a slog.Attr) slog.Attr {
	switch v := a.Value.Any().(type) {
	case float64:
		return slog.Float64(a.Key, roundSig(v))
	case map[string]float64:
		attrs := make([]slog.Attr, 0, len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			attrs = append(attrs, slog.Float64(k, roundSig(v[k])))
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(attrs...)}
	}
	return a
}

// roundSig rounds v to 4 significant digits (NaN and infinities as they are).
func roundSig(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	scale := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*scale) / scale
}

type logFormatKey struct{}

// WithLogFormat is ctx carrying the command's --log-format, for NewLogger.
func WithLogFormat(ctx context.Context, format string) context.Context {
	return context.WithValue(ctx, logFormatKey{}, format)
}

// NewLogger is a command's log on its stderr in ctx's --log-format (text
// when none was given): the same format as slog's default, but the job's
// own writer, so commands run side by side in one process (tests) keep
// their lines apart. Warnings only when quiet.
func NewLogger(ctx context.Context, stderr io.Writer, quiet bool) *slog.Logger {
	level := slog.LevelInfo
	if quiet {
		level = slog.LevelWarn
	}
	format, _ := ctx.Value(logFormatKey{}).(string)
	h, err := newLogHandler(stderr, cmp.Or(format, DefaultLogFormat), level)
	if err != nil { // the CLI refused the format before any job ran
		h, _ = newLogHandler(stderr, DefaultLogFormat, level)
	}
	return slog.New(h)
}

// CheckZNode refuses a znode path ZooKeeper would not take: it must be an
// absolute path (/hbase), as zookeeper.znode.parent is. A flag ending in
// "root" names the load hosts' znode (--root, --load-hosts-root), which the
// message names instead of HBase's.
func CheckZNode(flag, znode string) error {
	if !strings.HasPrefix(znode, "/") || strings.ContainsAny(znode, " \t\n") || (len(znode) > 1 && strings.HasSuffix(znode, "/")) || strings.Contains(znode, "//") {
		if strings.HasSuffix(flag, "root") {
			return fault.Usagef("%s %q: give the znode the load hosts register under, the same on the run and on every worker: an absolute znode path such as %s (the default)", flag, znode, loadhosts.DefaultRoot)
		}
		return fault.Usagef("%s %q: give the cluster's zookeeper.znode.parent, an absolute znode path such as /hbase (the default)", flag, znode)
	}
	return nil
}
