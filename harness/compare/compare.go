package compare

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/results"
)

// Compare compares a candidate with a baseline. It returns an error when the
// two results are not comparable (different suites or data specs, too few
// trials, bad configuration); anything merely doubtful becomes a warning.
func Compare(base, cand *results.Manifest, cfg Config) (*Comparison, error) {
	c, _, err := compare(base, cand, cfg)
	return c, err
}

// NeedMorePairs is what the scheduler calls after look number look (1-based)
// of cfg.Looks planned looks. It compares the trials so far at this look's
// share of alpha and, for each workload whose gated metrics include an
// INCONCLUSIVE one, projects from the current spread how many pairs would
// let the interval clear the tolerance boundary nearest the estimate, capped
// at cfg.MaxPairs pairs in all. A REGRESSED gated metric ends the run: the
// verdict cannot be anything but REGRESSION at a later look that is trusted.
func NeedMorePairs(base, cand *results.Manifest, cfg Config, look int) (Plan, error) {
	r, err := cfg.resolve()
	if err != nil {
		return Plan{}, err
	}
	if look < 1 || look > r.Looks {
		return Plan{}, fmt.Errorf("compare: look %d is outside the %d planned looks; count looks from 1 and plan enough of them in Config.Looks", look, r.Looks)
	}
	c, details, err := compare(base, cand, cfg)
	if err != nil {
		return Plan{}, err
	}
	return plan(c, details, r, look), nil
}

// PlanPairs projects, for every gated metric, the pairs a run of this suite
// needs. From a baseline and a candidate it uses their (paired, when they
// share runs) trials; with cand nil it uses the baseline's trials alone,
// taking the spread of a pair's log ratio as that of two independent trials.
// cfg carries the suite's alpha, tolerances, gate and planned looks. It
// also returns the gated metrics it could not plan (Comparison.NotCompared:
// a gate selector matching nothing stored, a cost never read): a run of the
// suite cannot PASS while they stay so.
func PlanPairs(base, cand *results.Manifest, cfg Config) ([]PairsPlan, []string, error) {
	if cand == nil {
		cand = base
		cfg.Unpaired = true
	}
	r, err := cfg.resolve()
	if err != nil {
		return nil, nil, err
	}
	c, details, err := compare(base, cand, cfg)
	if err != nil {
		return nil, nil, err
	}
	return planPairs(c, details, r), c.NotCompared, nil
}

func compare(base, cand *results.Manifest, cfg Config) (*Comparison, []detail, error) {
	if base == nil || cand == nil {
		return nil, nil, errors.New("compare: baseline or candidate manifest is nil; load both results first")
	}
	r, err := cfg.resolve()
	if err != nil {
		return nil, nil, err
	}
	warnings, err := checkComparable(base, cand)
	if err != nil {
		return nil, nil, err
	}
	out := &Comparison{
		Baseline:  Side{Name: base.StoreName(), Trials: len(base.Trials)},
		Candidate: Side{Name: cand.StoreName(), Trials: len(cand.Trials)},
		Suite:     firstNonEmpty(cand.Suite.Name, base.Suite.Name),
		Data:      firstNonEmpty(cand.Suite.DataSpec, base.Suite.DataSpec),
		Alpha:     r.Alpha,
		Looks:     r.Looks,
		LookAlpha: r.lookAlpha(),
		Warnings:  warnings,
	}
	if len(base.Trials) == 0 || len(cand.Trials) == 0 {
		if err := describe(base, cand, r, out); err != nil {
			return nil, nil, err
		}
		return out, nil, nil
	}
	if len(base.Summaries) > 0 || len(cand.Summaries) > 0 {
		out.Warnings = append(out.Warnings, "imported summaries are ignored because both sides have measured trials")
	}
	n := instanceNoise(base, cand, cfg) // noise.go
	r.InstanceSD = n.SD
	failed := failedTrials(base.Trials, cand.Trials, r.maxErrorRate())
	details, err := infer(base.Trials, cand.Trials, r, out)
	if err != nil {
		if len(failed) > 0 {
			err = fmt.Errorf("%w; %s", err, failedWhy(failed, r.maxErrorRate()))
		}
		return nil, nil, err
	}
	addLineNotes(out, n)
	out.InstanceNoise = n.Assumed(cfg.Noise())
	markFailed(out, failed, r.maxErrorRate())
	return out, details, nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// checkComparable refuses results of different suites or data specs and warns
// about environment differences: a different suite measures something else,
// while a different machine only adds noise the verdict cannot see.
func checkComparable(base, cand *results.Manifest) ([]string, error) {
	var warnings []string
	b, c := base.Suite, cand.Suite
	if b.Fingerprint != c.Fingerprint {
		return nil, fmt.Errorf("compare: baseline %q ran suite %q (fingerprint %q) but candidate %q ran suite %q (fingerprint %q); "+
			"only results of the same suite definition are comparable, so rerun one side with the other's suite",
			base.StoreName(), b.Name, b.Fingerprint, cand.StoreName(), c.Name, c.Fingerprint)
	}
	if b.DataSpec != c.DataSpec {
		return nil, fmt.Errorf("compare: baseline %q was seeded with data spec %q but candidate %q with %q; "+
			"results on different data are not comparable, so reseed one side with the other's spec",
			base.StoreName(), b.DataSpec, cand.StoreName(), c.DataSpec)
	}
	if b.Fingerprint == "" {
		warnings = append(warnings, "neither result records a suite fingerprint, so it cannot be checked that both ran the same suite")
	}
	if b, c := base.RegionServers, cand.RegionServers; b != c && b > 0 && c > 0 {
		warnings = append(warnings, fmt.Sprintf("the baseline ran on %d region server(s), the candidate on %d: "+
			"a difference may come from the cluster's shape rather than the release; run both with the same --region-servers", b, c))
	}
	if diffs := base.Environment.Diff(cand.Environment); len(diffs) > 0 {
		warnings = append(warnings, "environments differ (baseline vs candidate: "+strings.Join(diffs, "; ")+
			"); a difference may come from the machine rather than the release")
	}
	return warnings, nil
}

// describe fills a descriptive comparison: ratios of geometric means, no
// intervals, no p-values, no verdict. Used when a side has no trials (YCSB
// imports carry one summary per metric, so there is no between-trial variance
// to test against).
func describe(base, cand *results.Manifest, r resolved, out *Comparison) error {
	bt, ct := observations(base), observations(cand)
	if len(bt) == 0 {
		return fmt.Errorf("compare: baseline %q has neither trials nor imported summaries; run or import it first", base.StoreName())
	}
	if len(ct) == 0 {
		return fmt.Errorf("compare: candidate %q has neither trials nor imported summaries; run or import it first", cand.StoreName())
	}
	out.Descriptive = true
	out.Verdict = VerdictDescriptive
	out.Baseline.Trials, out.Candidate.Trials = len(bt), len(ct)
	out.Warnings = append(out.Warnings, "descriptive comparison: imported YCSB summaries carry one value per metric and no trials, "+
		"so these are ratios only, with no confidence interval, no significance and no verdict")
	// An imported summary's failures (YCSB's [READ-FAILED]) are its
	// operations' errors: named as a measured trial's are, though with no
	// verdict to withhold.
	if failed := failedTrials(bt, ct, r.maxErrorRate()); len(failed) > 0 {
		out.Warnings = append(out.Warnings, failedWhy(failed, r.maxErrorRate()))
	}
	keys, missing := descriptiveKeys(bt, ct)
	if len(missing) > 0 {
		out.Warnings = append(out.Warnings, "not compared (absent or zero on a side): "+strings.Join(missing, ", "))
	}
	for _, k := range keys {
		gb, nb, belowB := geoMeanBelow(k, bt)
		gc, nc, belowC := geoMeanBelow(k, ct)
		m := MetricResult{
			Workload: k.Workload, Op: k.Op, Metric: k.Metric, Unit: k.unit(),
			Baseline: gb, Candidate: gc, Ratio: gc / gb,
			Tolerance: r.tol[k.Metric], Status: Descriptive, Gated: r.gated(k) && k.Metric != MetricMin && k.Metric != MetricMax,
			Pairs: min(nb, nc), BaselineBelow: belowB, CandidateBelow: belowC,
		}
		if belowB || belowC {
			// A bound is not a value: no ratio can be formed from it.
			m.Ratio = math.NaN()
			m.Note = k.Metric + " printed as 0 ms, i.e. below 1 ms, on the " + strings.Join(belowSides(belowB, belowC), " and ") + "; no ratio"
		}
		out.Metrics = append(out.Metrics, m)
	}
	if len(out.Metrics) == 0 {
		return errors.New("compare: baseline and candidate share no workload and metric; check that both ran the same workloads")
	}
	return nil
}

// descriptiveMetrics are the per-operation figures an imported summary is
// compared on: every per-operation metric of the catalogue, the trial
// metrics plus YCSB's MinLatency and MaxLatency.
var descriptiveMetrics = metric.Names(metric.PerOp)

func belowSides(b, c bool) []string {
	var out []string
	if b {
		out = append(out, "baseline")
	}
	if c {
		out = append(out, "candidate")
	}
	return out
}

// observations are the values a side contributes: its trials, or its
// imported summaries when it has none.
func observations(m *results.Manifest) []results.Trial {
	if len(m.Trials) > 0 {
		return m.Trials
	}
	return m.Summaries
}

// infer runs the trial-level tests and fills statuses and the verdict:
// extraction reads the trials, decide works on the plain numbers.
func infer(bt, ct []results.Trial, r resolved, out *Comparison) ([]detail, error) {
	return decide(extract(bt, ct, r.Unpaired), r, out)
}
