package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/noise"
)

// PlanSuite is what the plan's header says of the suite it plans.
type PlanSuite struct {
	Name                string
	Initial, Max, Looks int
	Alpha               float64
	// Instances is the server instances a side the suite's runs start.
	Instances int
	// Noise is the instance noise of the plan's HBase line(s) and
	// NoiseAdvice compare's advice on it (compare.PlanNoise).
	Noise       noise.Instance
	NoiseAdvice []string
}

// WritePlan prints the pairs planner's table (compare.PlanPairs) and whether
// the suite's pairs suffice; paired says the spread came from stored pairs.
func WritePlan(w io.Writer, s PlanSuite, plan []compare.PairsPlan, unplanned []string, paired bool) {
	from := "spread of two baseline trials"
	if paired {
		from = "spread of the stored pairs"
	}
	fmt.Fprintf(w, "suite %s: pairs %d to %d, %d look(s), alpha %.3g; %s\n", s.Name, s.Initial, s.Max, s.Looks, s.Alpha, from)
	writeNoise(w, s)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-12s %-18s %-7s %5s %7s %6s %10s %8s %10s\n", "workload", "op", "metric", "tol", "spread", "trials", "ops/trial", "to PASS", "to 2x tol")
	short, fallback, detect := 0, false, false
	for _, p := range plan {
		metric := p.Metric
		if p.GatedFor != "" {
			metric += "*"
			fallback = true
		}
		if p.DetectOnly {
			metric += "+"
			detect = true
		}
		fmt.Fprintf(w, "%-12s %-18s %-7s %4.0f%% %6.1f%% %6d %10d %8s %10s\n", p.Workload, p.Op, metric, 100*p.Tolerance, 100*p.Spread, p.Trials, p.OpsPerTrial,
			PairsText(p.PairsToPass), PairsText(p.PairsToDetect))
		if !p.DetectOnly && (p.PairsToPass > s.Max || p.PairsToDetect > s.Max) {
			short++
		}
	}
	fmt.Fprintf(w, "\nspread: standard deviation of log(candidate/baseline) per pair. to PASS: pairs at which an unchanged release passes\n"+
		"that metric with probability 0.8; to 2x tol: pairs at which a change of twice the tolerance is REGRESSED with probability 0.8.\n")
	if fallback {
		fmt.Fprintln(w, "* gates in place of a higher percentile: too few operations per trial for it (50 samples beyond it needed).")
	}
	if detect {
		fmt.Fprintln(w, "+ only detects (compare.detect_only): REGRESSED fails the run, undecided it never holds a PASS back, so its pairs are not counted below.")
	}
	if len(unplanned) > 0 {
		fmt.Fprintf(w, "\ngated but not planned, so a run cannot PASS until they are measured: %s; check the suite's gate (a misspelt operation or workload) or what the trials read.\n",
			strings.Join(unplanned, "; "))
	}
	switch {
	case short > 0:
		fmt.Fprintf(w, "\n%d gated metric(s) need more than the suite's %d pairs: expect INCONCLUSIVE (or missed regressions); raise pairs.max, lengthen run.measure, or widen the tolerance.\n", short, s.Max)
	case len(unplanned) > 0:
		fmt.Fprintf(w, "\nthe suite's %d pairs suffice for every gated metric planned above.\n", s.Max)
	default:
		fmt.Fprintf(w, "\nthe suite's %d pairs suffice for every gated metric.\n", s.Max)
	}
}

// PairsText is a planned number of pairs, or ">cap" beyond what the planner searches.
func PairsText(n int) string {
	if n > compare.PlanCap {
		return fmt.Sprintf(">%d", compare.PlanCap)
	}
	return fmt.Sprint(n)
}

// writeNoise prints the instance noise line of the plan's header: the
// line's figure and where it came from, the note of a line not measured,
// and the advice to start more instances where the figure asks for them.
func writeNoise(w io.Writer, s PlanSuite) {
	n := s.Noise
	if len(n.SD) == 0 && n.Note == "" {
		return
	}
	lines := make([]string, len(n.Lines))
	for i, l := range n.Lines {
		lines[i] = l
		if l == "" {
			lines[i] = "unknown"
		}
	}
	fmt.Fprintf(w, "instance noise, HBase %s: %s; runs of this suite start %d instance(s) a side\n", strings.Join(lines, " and "), n, max(s.Instances, 1))
	if n.Note != "" {
		fmt.Fprintln(w, n.Note)
	}
	for _, a := range s.NoiseAdvice {
		fmt.Fprintln(w, a)
	}
}
