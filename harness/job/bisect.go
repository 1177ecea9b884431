package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/history"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/version"
)

// Bisect is `regress bisect`: the first release between Good and Bad where
// one metric of one workload moved beyond tolerance against Good. Good
// stays up; each step's release is measured beside it in pairs
// (adding pairs, up to the suite's pairs.max over its looks, while the
// metric is inconclusive) unless a run of it against Good is stored; every
// step's trials are stored, so a later history reuses them.
type Bisect struct {
	Options
	Good, Bad string
	// Versions lists the releases to search (Good and Bad among them);
	// empty means the range Good..Bad resolved as `regress history` does.
	Versions         string
	Workload, Metric string
	// Fresh measures every step again even when stored trials exist.
	Fresh bool
	// Known lists the versions a range resolves against (nil: cache and Maven).
	Known func(ctx context.Context) ([]string, error)
}

// Run searches and prints every step and the answer. It returns an
// inconclusive verdict (exit 4) when the search could not name the release.
func (j *Bisect) Run(ctx context.Context, stdout, stderr io.Writer) error {
	switch {
	case j.Good == "" || j.Bad == "":
		return fault.Usage(errors.New("bisect needs --good VERSION (the metric was fine there) and --bad VERSION (it had moved)"))
	case j.Workload == "" || j.Metric == "":
		return fault.Usage(errors.New("bisect needs --workload W (e.g. workloadc) and --metric M (e.g. READ/p95 or throughput)"))
	}
	if err := history.CheckMetricName(j.Metric); err != nil {
		return fault.Usagef("--metric: %w", err)
	}
	for _, v := range []string{j.Good, j.Bad} {
		if err := version.Validate(v); err != nil {
			return fault.Usage(err)
		}
	}
	if version.Compare(j.Good, j.Bad) >= 0 {
		return fault.Usagef("--good %s must be an older release than --bad %s", j.Good, j.Bad)
	}
	s, err := LoadSuite(j.Scenarios, j.Suite)
	if err != nil {
		return err
	}
	if err := j.setTrials(s); err != nil {
		return err
	}
	if err := narrowWorkloads(s, []string{j.Workload}, "--workload"); err != nil {
		return err
	}
	if err := checkMetricOp(s, s.Workloads[0], j.Metric); err != nil {
		return err
	}
	spec := j.Versions
	if spec == "" {
		spec = j.Good + ".." + j.Bad
	}
	releases, err := resolveReleases(ctx, spec, j.CacheDir, j.Known)
	if err != nil {
		if j.Versions == "" {
			return fault.Usagef("the releases from --good to --bad: %w (or give them with --versions)", err)
		}
		return err
	}
	gi, bi := slices.Index(releases, j.Good), slices.Index(releases, j.Bad)
	if gi < 0 || bi < 0 {
		return fault.Usagef("--versions %q must include --good %s and --bad %s", spec, j.Good, j.Bad)
	}
	releases = releases[gi : bi+1]

	se, err := j.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer se.prog.Close()
	sw, err := newSweep(&j.Options, se, s, j.Good)
	if err != nil {
		return err
	}
	defer sw.close()
	w := sw.workloads[0]
	looks := max(s.Pairs.Looks, 1)
	alpha := s.Compare.Alpha
	if alpha == 0 {
		alpha = compare.DefaultAlpha
	}
	// Each look spends alpha/looks, as a comparison's does, and so does
	// the final reading: a stored run is judged as strictly as a new one.
	level := alpha / float64(looks)

	var metricErr error
	// dir is the move sought, set once the bad release's step moved.
	var dir compare.Status
	point := func(run history.Run) (history.Point, error) {
		trials := append(slices.Clone(run.Base), run.Cand...)
		ms := history.MetricsOf(trials, w)
		m, ok := history.FindMetric(ms, j.Metric)
		if !ok {
			return history.Point{}, fault.Usagef("--metric %s: workload %s reports %v", j.Metric, w, history.MetricNames(ms))
		}
		p := history.PointOf(run, w, m, history.Tolerance(m, s.Compare.Tolerances), level)
		if p.Status == "" {
			p.Status = compare.Inconclusive
		}
		return p, nil
	}
	more := func(look int, bm, cm *results.Manifest) (map[string]int, error) {
		p, err := point(history.Run{Release: j.Metric, RunID: "look", Base: bm.Trials, Cand: cm.Trials})
		if err != nil {
			metricErr = err
			return nil, err
		}
		n := morePairs(p, dir, s.Pairs.Initial)
		if n == 0 {
			return nil, nil
		}
		se.log.Info("metric inconclusive: adding pairs", "look", look, "metric", j.Metric, "pairs", p.Pairs)
		return map[string]int{w: n}, nil
	}
	judge := func(ctx context.Context, rel string) (history.Point, error) {
		run, ok := history.Run{}, false
		if !j.Fresh {
			run, ok = sw.stored(rel)
		}
		if ok {
			se.log.Info("reusing stored pairs", "release", rel, "good", j.Good, "run", run.RunID)
		} else {
			var err error
			run, err = sw.measure(ctx, rel, more)
			if metricErr != nil {
				return history.Point{}, metricErr
			}
			if err != nil {
				if fatal := sw.fatal(ctx, err); fatal != nil {
					return history.Point{}, fatal
				}
				// A release that cannot be measured cannot be judged:
				// the search steps around it.
				se.log.Warn("release not measured; judged inconclusive", "release", rel, "err", err)
				return history.Point{Release: rel, Status: compare.Inconclusive, Note: "not measured: " + err.Error()}, nil
			}
		}
		return point(run)
	}
	label := fmt.Sprintf("%s %s", w, j.Metric)
	fmt.Fprintln(stdout, history.BisectHeader(label, j.Good, j.Bad))
	b, err := history.Bisect(ctx, releases, judge, func(st history.Step) {
		if st.N == 1 && st.Outcome == history.Moved {
			dir = st.Point.Status
		}
		se.prog.Close()
		fmt.Fprintln(stdout, history.StepLine(st))
	})
	if err != nil {
		if ctx.Err() != nil {
			return RunFailure(ctx, err)
		}
		if fault.Classified(err) {
			return err
		}
		return fault.Run(err)
	}
	fmt.Fprintln(stdout, b.Message)
	// Undecided: the search could not name the release, or could not tell
	// whether the bad release moved at all.
	if !b.Conclusive() && (b.Direction != "" || b.Steps[0].Outcome == history.Undecided) {
		return &fault.VerdictError{Verdict: fault.Inconclusive, Err: errors.New("bisect inconclusive: " + b.Message)}
	}
	return nil
}

// morePairs is how many pairs a bisect step adds after a look: half the
// suite's initial pairs while the step is undecided for the move sought
// (dir, "" before the bad release has moved), else none. Once the search
// is for an improvement, NOT WORSE is undecided too.
func morePairs(p history.Point, dir compare.Status, initial int) int {
	if history.StepOutcome(p, dir) != history.Undecided {
		return 0
	}
	return max(initial/2, 1)
}

// checkMetricOp refuses an OP/kind metric whose operation workload w never
// runs (READ/p95 of a scan-only mix, SCAN/p95 of workloadc): found only after
// the first step's clusters had measured, it wasted a whole step.
func checkMetricOp(s *suite.Suite, w, name string) error {
	op, _, ok := strings.Cut(name, "/")
	if !ok {
		return nil // throughput or a server cost: every workload has them
	}
	l, err := s.TrialSpec(w, 1)
	if err != nil {
		return err
	}
	runs := l.Workload.OpNames()
	if !slices.ContainsFunc(runs, func(r string) bool { return strings.EqualFold(r, op) }) {
		return fault.Usagef("--metric %s: workload %s runs no %s operations (it runs %s): name one of them, e.g. --metric %s/p95", name, filepath.Base(w), op, strings.Join(runs, ", "), runs[0])
	}
	return nil
}
