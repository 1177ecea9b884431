package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/history"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
	"github.com/regress-hbase/regress/harness/version"
)

// History is `regress history`: every release of a list or range measured
// against one reference release, which stays up while the releases take
// their turn beside it, in pairs (runner.RunPairs: duet or interleaved); then the
// series of ratios, their shifts and the reports. Trials are stored as any
// run's are, so a release already measured against the reference with this
// suite is reused, not run again.
type History struct {
	Options
	// Out is the report directory (default reports/history-<timestamp>);
	// Format the report printed on stdout.
	Out, Format string
	// Versions is the list or range (history.ResolveVersions); Reference the
	// release every other is compared with (default: the oldest).
	Versions, Reference string
	// Workloads narrows the suite's workloads (default: all of them).
	Workloads []string
	// Fresh measures every release again even when stored trials exist.
	Fresh bool
	// RestartReference starts the reference afresh for every release
	// measured, so each meets a reference of the same age: one kept up
	// through a long sweep drifts (its allocation per operation grew from
	// 13-14 to 24-27 KiB over 25 minutes here, docs/history.md).
	RestartReference bool
	// Known lists the versions a range resolves against; nil asks the cache
	// and Maven as `regress cluster versions` does.
	Known func(ctx context.Context) ([]string, error)
}

// Run measures what is not stored yet, builds the history and reports it.
// It fails (exit 3) when some release could not be measured, after
// reporting the others.
func (j *History) Run(ctx context.Context, stdout, stderr io.Writer) error {
	if _, err := ParseHistoryFormat(j.Format); err != nil {
		return fault.Usagef("--format %w", err)
	}
	if err := checkOutFree(j.Out); err != nil {
		return err
	}
	if strings.TrimSpace(j.Versions) == "" {
		return fault.Usage(errors.New("--versions is empty: give releases as a list (2.6.0,2.6.2,2.6.4) or a range (2.5.10..2.6.4)"))
	}
	s, err := LoadSuite(j.Scenarios, j.Suite)
	if err != nil {
		return err
	}
	if err := j.setTrials(s); err != nil {
		return err
	}
	if err := narrowWorkloads(s, j.Workloads, "--workloads"); err != nil {
		return err
	}
	releases, err := resolveReleases(ctx, j.Versions, j.CacheDir, j.Known)
	if err != nil {
		return err
	}
	ref := j.Reference
	if ref == "" {
		ref = releases[0]
	}
	if err := version.Validate(ref); err != nil {
		return fault.Usagef("--reference: %w", err)
	}
	if i := slices.IndexFunc(releases, func(r string) bool { return version.SameRelease(r, ref) }); i >= 0 {
		ref = releases[i]
	} else {
		releases = version.Sort(append(releases, ref))
	}
	if len(releases) < 2 {
		return fault.Usagef("--versions %q names only the reference %s: give at least one more release", j.Versions, ref)
	}
	se, err := j.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer se.prog.Close()
	sw, err := newSweep(&j.Options, se, s, ref)
	if err != nil {
		return err
	}
	defer sw.close()

	var runs []history.Run
	var failed []string
	for _, rel := range releases {
		if rel == ref {
			runs = append(runs, history.Run{Release: rel, Reference: true})
			continue
		}
		if !j.Fresh {
			if r, ok := sw.stored(rel); ok {
				se.log.Info("reusing stored pairs", "release", rel, "reference", ref, "run", r.RunID)
				runs = append(runs, r)
				continue
			}
		}
		r, err := sw.measure(ctx, rel, nil)
		if err != nil {
			if fatal := sw.fatal(ctx, err); fatal != nil {
				return fatal
			}
			se.log.Warn("release not measured; the sweep goes on without it", "release", rel, "err", err)
			r = history.Run{Release: rel, Note: "not measured: " + err.Error()}
			failed = append(failed, rel)
		}
		runs = append(runs, r)
		if j.RestartReference {
			// The next release measured starts the reference anew.
			sw.close()
		}
	}
	sw.close()
	se.prog.Close()

	h, err := history.Build(s.Name, ref, runs, sw.workloads, history.Options{Alpha: s.Compare.Alpha, Tolerances: s.Compare.Tolerances})
	if err != nil {
		return fault.Run(err)
	}
	d, err := reserveOut(j.Out, ReportsDir, "history-")
	if err != nil {
		return err
	}
	out := d.Path
	written, err := history.Formats.WriteFiles(d.Tmp, h)
	if err != nil {
		d.Abort()
		return fault.Run(fmt.Errorf("history: %w", err))
	}
	if err := d.Commit(); err != nil {
		return fault.Run(fmt.Errorf("history: %w", err))
	}
	if err := history.Formats.Render(stdout, j.Format, h); err != nil {
		return fault.Run(err)
	}
	slog.Info("reports written", "dir", out, "files", len(written))
	if len(failed) > 0 {
		return fault.Run(fmt.Errorf("%d release(s) not measured: %s (see the log above); run the same command again to measure them: what is stored is reused",
			len(failed), strings.Join(failed, ", ")))
	}
	return nil
}

// narrowWorkloads keeps only the named workloads of s (by file name, e.g.
// workloadc), in the suite's order; none named keeps them all. The suite's
// fingerprint covers its workloads, so a history of workloadc alone and a
// bisect of workloadc share stored trials, and a history of A and C does not.
func narrowWorkloads(s *suite.Suite, names []string, flag string) error {
	if len(names) == 0 {
		return nil
	}
	var keep []string
	for _, n := range names {
		i := slices.IndexFunc(s.Workloads, func(w string) bool { return w == n || filepath.Base(w) == n })
		if i < 0 {
			var have []string
			for _, w := range s.Workloads {
				have = append(have, filepath.Base(w))
			}
			return fault.Usagef("%s %s: suite %s has no such workload; it has %s", flag, n, s.Name, strings.Join(have, ", "))
		}
		if !slices.Contains(keep, s.Workloads[i]) {
			keep = append(keep, s.Workloads[i])
		}
	}
	var ordered []string
	for _, w := range s.Workloads {
		if slices.Contains(keep, w) {
			ordered = append(ordered, w)
		}
	}
	s.Workloads = ordered
	return nil
}

// resolveReleases turns --versions into releases, asking known (or the
// cache and Maven) only when a range needs resolving.
func resolveReleases(ctx context.Context, spec, cacheDir string, known func(context.Context) ([]string, error)) ([]string, error) {
	// Checked as written first: a bad range must not wait on Maven.
	if err := history.CheckVersions(spec); err != nil {
		return nil, fault.Usage(err)
	}
	var vs []string
	if strings.Contains(spec, "..") {
		if known == nil {
			known = func(ctx context.Context) ([]string, error) { return KnownVersions(ctx, cacheDir) }
		}
		var err error
		if vs, err = known(ctx); err != nil && len(vs) == 0 {
			return nil, fault.Usagef("--versions %q: cannot list the known versions to resolve the range (%v); list the releases instead, e.g. 2.6.0,2.6.1,2.6.2", spec, err)
		}
	}
	rs, err := history.ResolveVersions(spec, vs)
	if err != nil {
		return nil, fault.Usage(err)
	}
	return rs, nil
}

// KnownVersions are the versions `regress cluster versions` lists that can
// be started here: cached, resolvable or not yet checked (not those Maven
// lists but does not serve). Without Maven it answers from the cache.
func KnownVersions(ctx context.Context, cacheDir string) ([]string, error) {
	sts, err := cluster.NewLocal("").VersionStatuses(ctx, cacheDir, false, nil)
	var out []string
	for _, st := range sts {
		if st.State != "not served" {
			out = append(out, st.Version)
		}
	}
	return out, err
}

// sweep measures releases against one reference kept up between them.
type sweep struct {
	o         *Options
	se        *session
	s         *suite.Suite
	fp        string
	ref       string
	workloads []string // trial workload names (file base names)

	// The reference, once started (lazily: a sweep that finds everything
	// stored starts nothing).
	refCtx    context.Context
	refTarget *sut.Target
	stopRef   func()
	hosts     *loadhosts.Coordinator
	closeHost func()

	// warned holds the stored suites sameSuite has named.
	warned map[string]bool
}

func newSweep(o *Options, se *session, s *suite.Suite, ref string) (*sweep, error) {
	fp, err := s.Fingerprint()
	if err != nil {
		return nil, fault.Usage(err)
	}
	sw := &sweep{o: o, se: se, s: s, fp: fp, ref: ref}
	for _, w := range s.Workloads {
		sw.workloads = append(sw.workloads, filepath.Base(w))
	}
	return sw, nil
}

// storedTrials are the trials stored for release under this suite, by any
// name its runs are stored under (the version, its -hadoop3 build, and the
// topology suffix sut.Name adds).
func (sw *sweep) storedTrials(release string) []results.Trial {
	var out []results.Trial
	for _, v := range []string{release, release + "-hadoop3"} {
		name := sut.StoredName(v, sw.o.topology(sw.s))
		entries, err := sw.se.store.Find(name, sw.s.Name)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.Fingerprint != sw.fp {
				continue
			}
			if m, err := sw.se.store.Load(e.Key); err == nil {
				sw.sameSuite(m)
				out = append(out, m.Trials...)
			}
		}
	}
	return out
}

// sameSuite says in the log when stored results it reuses carry a version
// of the suite that judges otherwise than the one this sweep loaded: the
// sweep judges every release alike, by its own (the stored results were
// measured alike: their fingerprint is the suite's).
func (sw *sweep) sameSuite(m *results.Manifest) {
	info := m.Suite
	if !info.Carried() || info.Text == sw.s.Text() || sw.warned[info.Text] {
		return
	}
	if stored, err := suite.FromStored(info.Name, info.Text, info.Files, info.Overrides); err == nil && sameJudging(stored, sw.s) {
		return
	}
	if sw.warned == nil {
		sw.warned = map[string]bool{}
	}
	sw.warned[info.Text] = true
	sw.se.log.Warn("stored results reused here were judged by another version of the suite when they ran; this history judges them with the suite loaded now",
		"target", results.KeyOf(m).Target, "suite", sw.s.Name, "scenarios", sw.s.Scenarios.String())
}

// stored returns the latest stored run of release against the reference
// with the suite's initial pairs of every workload.
func (sw *sweep) stored(release string) (history.Run, bool) {
	id, base, cand, ok := history.LatestRun(sw.storedTrials(sw.ref), sw.storedTrials(release), sw.workloads, sw.s.Pairs.Initial)
	if !ok {
		return history.Run{}, false
	}
	return history.Run{Release: release, RunID: id, Base: base, Cand: cand}, true
}

// startRef starts the reference (and connects the load hosts) once.
func (sw *sweep) startRef(ctx context.Context) error {
	if sw.refTarget != nil {
		return nil
	}
	side := sut.Spec{Role: sut.Baseline, Version: sw.ref}
	if err := side.Check(); err != nil {
		return err
	}
	rctx, targets, stop, err := sw.se.start(ctx, sw.o, sw.s, []sut.Spec{side})
	if err != nil {
		stop()
		return fmt.Errorf("reference %s: %w", sw.ref, err)
	}
	sw.refCtx, sw.refTarget, sw.stopRef = rctx, targets[0], stop
	r := sw.se.runner(rctx, sw.o, sw.s, newRunID(), sw.se.prog.Event)
	closeHosts, err := sw.se.useLoadHosts(rctx, sw.o, sw.s, r, sw.refTarget.ZK)
	sw.closeHost = closeHosts
	if err != nil {
		return err
	}
	sw.hosts = r.LoadHosts
	return nil
}

// measure starts release beside the reference, runs the suite's pairs
// (more may add some, as in a comparison), stops the release and returns
// this run's trials of both sides.
func (sw *sweep) measure(ctx context.Context, release string, more runner.More) (history.Run, error) {
	if err := sw.startRef(ctx); err != nil {
		return history.Run{}, err
	}
	side := sut.Spec{Role: sut.Candidate, Version: release}
	if err := side.Check(); err != nil {
		return history.Run{}, err
	}
	sw.se.log.Info("measuring against the reference", "release", release, "reference", sw.ref)
	cctx, targets, stop, err := sw.se.start(sw.refCtx, sw.o, sw.s, []sut.Spec{side})
	defer stop()
	if err != nil {
		return history.Run{}, err
	}
	runID := newRunID() + "-" + release
	r := sw.se.runner(cctx, sw.o, sw.s, runID, sw.se.prog.Event)
	r.LoadHosts = sw.hosts
	bm, cm, err := r.RunPairs(cctx, sw.refTarget, targets[0], more)
	if err != nil {
		return history.Run{}, RunFailure(cctx, err)
	}
	return history.Run{Release: release, RunID: runID, Base: bm.Trials, Cand: cm.Trials}, nil
}

// fatal says whether a release's failure ends the sweep: an interrupt, or
// the reference's death (every later release would need it). It returns
// the error to end with, or nil to go on to the next release.
func (sw *sweep) fatal(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return RunFailure(ctx, err)
	}
	if sw.refTarget == nil {
		// The reference never started: nothing can be measured.
		return err
	}
	if sw.refCtx.Err() != nil {
		return RunFailure(sw.refCtx, fmt.Errorf("reference %s: %w", sw.ref, err))
	}
	return nil
}

func (sw *sweep) close() {
	if sw.closeHost != nil {
		sw.closeHost()
		sw.closeHost = nil
	}
	if sw.stopRef != nil {
		sw.stopRef()
		sw.stopRef = nil
	}
	sw.refTarget, sw.refCtx, sw.hosts = nil, nil, nil
}
