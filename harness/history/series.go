package history

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/regress-hbase/regress/harness/changepoint"
	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/pairing"
	"github.com/regress-hbase/regress/harness/results"
)

// Run is one release measured against the reference: the reference's and
// the release's trials of one run of pairs (duet or interleaved).
type Run struct {
	Release string
	// RunID names the run the trials came from.
	RunID      string
	Base, Cand []results.Trial
	// Reference marks the reference release itself: its ratio is 1 by
	// definition and nothing is measured.
	Reference bool
	// Note says why a release has no trials (it failed to start, say).
	Note string
}

// Options say how the series are judged. The zero value means the defaults.
type Options struct {
	// Alpha is the one-sided level of each bound of a release's interval, as
	// in compare (so the interval is 1-2·Alpha two-sided), and the level of
	// the change-point test (0: metric.DefaultAlpha).
	Alpha float64
	// Tolerances are the suite's, by metric kind (the catalogue's defaults fill in).
	Tolerances map[string]float64
	// ChangePoints tunes the change-point search; its Alpha defaults to Alpha.
	ChangePoints changepoint.Options
}

// Point is one release in a series.
type Point struct {
	Release   string `json:"release"`
	Reference bool   `json:"reference,omitempty"`
	RunID     string `json:"run_id,omitempty"`
	Pairs     int    `json:"pairs"`
	// Ratio is the geometric mean of release/reference over the pairs, with
	// its interval [Low, High] (each bound one-sided at Alpha); all 0 when
	// the release has no ratio (Note says why).
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"ci_low"`
	High  float64 `json:"ci_high"`
	// SE is the standard error of log(Ratio).
	SE     float64        `json:"se"`
	Status compare.Status `json:"status,omitempty"`
	Note   string         `json:"note,omitempty"`
}

// HasRatio reports whether the point carries a measured (or reference) ratio.
func (p Point) HasRatio() bool { return p.Ratio > 0 }

// Shift is one change point of a series: from Release on, the metric sits
// at Ratio times its level before (the means of the segments either side).
type Shift struct {
	Release string `json:"release"`
	// Index is the position of Release in the series' Points.
	Index int     `json:"index"`
	Ratio float64 `json:"ratio"`
	// Low and High bound Ratio at 1-Alpha two-sided; 0 when the series is
	// too short to estimate its noise (Interval false).
	Low      float64 `json:"ci_low"`
	High     float64 `json:"ci_high"`
	Interval bool    `json:"interval"`
	// P is the permutation p-value of the split.
	P float64 `json:"p"`
}

// Series is one metric of one workload across the releases.
type Series struct {
	Workload string `json:"workload"`
	Metric   string `json:"metric"`
	Unit     string `json:"unit"`
	// HigherIsWorse is true for latency, false for throughput.
	HigherIsWorse bool    `json:"higher_is_worse"`
	Tolerance     float64 `json:"tolerance"`
	Points        []Point `json:"points"`
	Shifts        []Shift `json:"shifts"`
	// Note says why no change points were searched for.
	Note string `json:"note,omitempty"`
}

// History is every series of a sweep.
type History struct {
	Suite     string   `json:"suite"`
	Reference string   `json:"reference"`
	Releases  []string `json:"releases"`
	// Alpha is the level of the intervals' bounds and of the change-point
	// test; Permutations the test's permutations; MinSize its fewest
	// releases a segment.
	Alpha        float64   `json:"alpha"`
	Permutations int       `json:"permutations"`
	MinSize      int       `json:"min_segment"`
	Series       []Series  `json:"series"`
	Generated    time.Time `json:"generated"`
}

// resolve fills in the defaults.
func (o Options) resolve() (Options, error) {
	if o.Alpha == 0 {
		o.Alpha = metric.DefaultAlpha
	}
	if math.IsNaN(o.Alpha) || o.Alpha <= 0 || o.Alpha >= 0.5 {
		return o, fmt.Errorf("history: alpha %v is not a level in (0, 0.5); use e.g. 0.05", o.Alpha)
	}
	if o.ChangePoints.Alpha == 0 {
		o.ChangePoints.Alpha = o.Alpha
	}
	if o.ChangePoints.Permutations == 0 {
		o.ChangePoints.Permutations = changepoint.DefaultPermutations
	}
	if o.ChangePoints.MinSize == 0 {
		o.ChangePoints.MinSize = changepoint.DefaultMinSize
	}
	return o, nil
}

// Build makes the series of every metric of every workload from the runs,
// in the runs' order (release order), and finds each series' shifts.
func Build(suite, reference string, runs []Run, workloads []string, o Options) (*History, error) {
	o, err := o.resolve()
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, errors.New("history: no releases to build a history of; give at least two with --versions")
	}
	h := &History{Suite: suite, Reference: reference, Alpha: o.Alpha, Permutations: o.ChangePoints.Permutations,
		MinSize: o.ChangePoints.MinSize, Generated: time.Now().UTC()}
	var all []results.Trial
	for _, r := range runs {
		h.Releases = append(h.Releases, r.Release)
		all = append(all, r.Base...)
		all = append(all, r.Cand...)
	}
	for _, w := range workloads {
		for _, m := range MetricsOf(all, w) {
			s, err := buildSeries(w, m, runs, o)
			if err != nil {
				return nil, err
			}
			h.Series = append(h.Series, s)
		}
	}
	return h, nil
}

func buildSeries(w string, m Metric, runs []Run, o Options) (Series, error) {
	tol := Tolerance(m, o.Tolerances)
	s := Series{Workload: w, Metric: m.Name, Unit: m.Row.Unit, HigherIsWorse: m.Row.Worse == metric.WorseHigher, Tolerance: tol, Shifts: []Shift{}}
	for _, r := range runs {
		s.Points = append(s.Points, PointOf(r, w, m, tol, o.Alpha))
	}
	var xs, se []float64
	var at []int
	for i, p := range s.Points {
		if p.HasRatio() {
			xs = append(xs, math.Log(p.Ratio))
			se = append(se, p.SE)
			at = append(at, i)
		}
	}
	if len(xs) < 2*o.ChangePoints.MinSize {
		s.Note = fmt.Sprintf("%d release(s) with a ratio; the change-point search needs %d", len(xs), 2*o.ChangePoints.MinSize)
		return s, nil
	}
	if minP := changepoint.SmallestP(len(xs)); minP > o.ChangePoints.Alpha {
		s.Note = fmt.Sprintf("%d releases with a ratio: the smallest p-value a shift can reach is %.3f, above alpha %.2f (measure at least %d)",
			len(xs), minP, o.ChangePoints.Alpha, changepoint.MinLength(o.ChangePoints.Alpha))
	}
	co := o.ChangePoints
	co.SE = se
	res, err := changepoint.Detect(xs, co)
	if err != nil {
		return s, fmt.Errorf("history: %s %s: %w", w, m.Name, err)
	}
	for _, p := range res.Points {
		sh := Shift{Release: s.Points[at[p.Index]].Release, Index: at[p.Index], Ratio: math.Exp(p.Shift), P: p.P}
		if !math.IsNaN(p.Low) {
			sh.Low, sh.High, sh.Interval = math.Exp(p.Low), math.Exp(p.High), true
		}
		s.Shifts = append(s.Shifts, sh)
	}
	return s, nil
}

// PointOf is one release's point of metric m of workload w: the paired
// log ratios release/reference, their mean with a t interval whose bounds
// are one-sided at alpha, and compare's status rule against tolerance tol
// (per metric, no multiplicity correction: a history shows, it does not gate).
func PointOf(r Run, w string, m Metric, tol, alpha float64) Point {
	p := Point{Release: r.Release, RunID: r.RunID, Reference: r.Reference}
	if r.Reference {
		p.Ratio, p.Low, p.High, p.Status = 1, 1, 1, compare.Unchanged
		p.Note = "reference"
		return p
	}
	if r.Note != "" {
		p.Note = r.Note
		return p
	}
	var d []float64
	for _, p := range pairing.Match(r.Base, r.Cand)[w] {
		vb, vc := m.Value(p[0]), m.Value(p[1])
		if usable(vb) && usable(vc) {
			d = append(d, math.Log(vc)-math.Log(vb))
		}
	}
	p.Pairs = len(d)
	if len(d) < 2 {
		p.Note = fmt.Sprintf("%d pair(s) report %s; an interval needs 2", len(d), m.Name)
		return p
	}
	mean, se, lo, hi := compare.PairedInterval(d, alpha)
	c, worse := math.Log1p(tol), m.Row.Worse.Sign()
	p.SE = se
	p.Ratio, p.Low, p.High = math.Exp(mean), math.Exp(lo), math.Exp(hi)
	p.Status = compare.StatusOf(lo, hi, c, worse, compare.BeyondTolerance(lo, hi, c, worse))
	return p
}

// LatestRun picks, from a reference's and a release's stored trials, the
// latest run they share in which every workload has at least pairs
// complete pairs (a run cut short by a kill has fewer and is passed over),
// and returns that run's trials of both. ok is false when there is none.
func LatestRun(ref, rel []results.Trial, workloads []string, pairs int) (runID string, base, cand []results.Trial, ok bool) {
	// count[run][workload] = pairs whose both trials are stored
	count := map[string]map[string]int{}
	for w, ps := range pairing.Match(ref, rel) {
		for _, p := range ps {
			if run := p[1].RunID; run != "" {
				if count[run] == nil {
					count[run] = map[string]int{}
				}
				count[run][w]++
			}
		}
	}
	runs := make([]string, 0, len(count))
	for id := range count {
		runs = append(runs, id)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(runs))) // run IDs are UTC timestamps: latest first
	for _, id := range runs {
		if !slices.ContainsFunc(workloads, func(w string) bool { return count[id][w] < pairs }) {
			return id, trialsOf(ref, id), trialsOf(rel, id), true
		}
	}
	return "", nil, nil, false
}

func trialsOf(ts []results.Trial, runID string) []results.Trial {
	var out []results.Trial
	for _, t := range ts {
		if t.RunID == runID {
			out = append(out, t)
		}
	}
	return out
}
