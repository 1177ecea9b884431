package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/profile"
)

// VoteCause is a cost's call path named from the profiled pairs of the
// workloads a REGRESSED row rests on (profile.FindCause).
type VoteCause struct {
	// Scope names the rows it explains, e.g. "READ-heavy workloads cpu_per_op".
	Scope string
	profile.Cause
}

// kindMetric is the counted metric a kind of profile weighs: a kind is
// searched for a cause only where its metric grew beyond chance in the
// rows the verdict rests on (two JVMs of one release move samples between
// frames, never the whole: profile.Differential.FrameNamed), or where no
// such row exists (waits: latency is their metric).
var kindMetric = map[profile.Kind]string{profile.CPU: metric.CPUPerOp, profile.Alloc: metric.AllocPerOp}

// causeKinds is the order kinds are searched for a regressed row's cause:
// the kind its metric counts first, waits first for a latency.
func causeKinds(m compare.MetricResult) []profile.Kind {
	switch {
	case m.Metric == metric.AllocPerOp:
		return []profile.Kind{profile.Alloc, profile.CPU}
	case metric.Of(m.Metric).Scope == metric.Server:
		return []profile.Kind{profile.CPU, profile.Alloc}
	}
	return []profile.Kind{profile.Wait, profile.CPU, profile.Alloc}
}

// maxCauses is how many causes the vote names: one a kind at most.
const maxCauses = 2

// VoteCauses names the causes of c's REGRESSED rows from profiles: for
// each such row (primary rows first: they decided), the profiled pairs of
// the workloads it rests on, those that held their rate only, are searched
// kind by kind (causeKinds), a kind skipped where its own metric did not
// grow beyond chance over the same workloads; at most one cause a kind.
func VoteCauses(c *compare.Comparison, profiles []WorkloadProfile) []VoteCause {
	if c == nil || len(profiles) == 0 {
		return nil
	}
	rows := slices.Clone(c.Metrics)
	rows = slices.DeleteFunc(rows, func(m compare.MetricResult) bool { return m.Status != compare.Regressed })
	slices.SortStableFunc(rows, func(a, b compare.MetricResult) int { return boolFirst(a.Primary, b.Primary) })
	var out []VoteCause
	done := map[profile.Kind]bool{}
	for _, row := range rows {
		workloads := row.Pools
		if len(workloads) == 0 {
			workloads = []string{row.Workload}
		}
		for _, kind := range causeKinds(row) {
			if done[kind] || len(out) >= maxCauses || !kindGrew(c, row, kind) {
				continue
			}
			var pairs []profile.Pair
			for _, p := range profiles {
				k := p.kind(kind)
				if !slices.Contains(workloads, p.Workload) || !p.Held() || k.Diff == nil {
					continue
				}
				pr := profile.Pair{Workload: p.Workload, Base: k.Base, Cand: k.Cand}
				if m, ok := workloadRow(c, p.Workload, metric.CPUPerOp); ok {
					pr.BaseCPUPerOp, pr.CandCPUPerOp = m.Baseline, m.Candidate
				}
				pairs = append(pairs, pr)
			}
			cause, ok := profile.FindCause(kind, pairs)
			if !ok {
				continue
			}
			done[kind] = true
			out = append(out, VoteCause{Scope: strings.Join(strings.Fields(row.Workload+" "+strings.TrimPrefix(row.Op, compare.OpAll)+" "+row.Metric), " "), Cause: cause})
		}
	}
	return out
}

// kindGrew reports whether the counted metric kind weighs grew beyond
// chance over row's workloads (its interval above no change), true where
// the comparison holds no such row.
func kindGrew(c *compare.Comparison, row compare.MetricResult, kind profile.Kind) bool {
	name, ok := kindMetric[kind]
	if !ok {
		return true
	}
	for _, m := range c.Metrics {
		if m.Metric == name && m.Workload == row.Workload && m.Op == row.Op {
			return m.CILow > 1
		}
	}
	return true
}

// workloadRow is c's row of a metric over one workload's operations.
func workloadRow(c *compare.Comparison, workload, name string) (compare.MetricResult, bool) {
	for _, m := range c.Metrics {
		if m.Workload == workload && m.Op == compare.OpAll && m.Metric == name {
			return m, true
		}
	}
	return compare.MetricResult{}, false
}

// kind is p's profile of one kind.
func (p WorkloadProfile) kind(k profile.Kind) KindProfile {
	switch k {
	case profile.CPU:
		return p.CPU
	case profile.Alloc:
		return p.Alloc
	}
	return p.Wait
}

// causeWords is how the vote names a kind.
var causeWords = map[profile.Kind]string{profile.CPU: "CPU", profile.Alloc: "allocation", profile.Wait: "waits"}

// voteCauseLines prints each cause as one line (the vote wraps it): what
// grew, where, by how much and how surely, then the path from the last
// frame both sides share.
func voteCauseLines(causes []VoteCause) []string {
	var lines []string
	for _, c := range causes {
		growth := profile.FormatPerOp(c.Kind, c.DeltaPerOp) + " in "
		if c.CPUMicros {
			growth = fmt.Sprintf("%+.1f µs of CPU/op in ", c.DeltaPerOp)
		}
		lines = append(lines,
			fmt.Sprintf("Cause (%s, %s: %s%s; %.1f%% -> %.1f%% of the side's %s, p %.2g): %s",
				causeWords[c.Kind], c.Scope, growth, shortWorkloads(c.Workloads),
				c.BaseShare*100, c.CandShare*100, kindTotal(c.Kind), c.P, c.CauseLine(6)))
	}
	return lines
}

// kindTotal is what a kind's shares are a share of.
func kindTotal(k profile.Kind) string {
	switch k {
	case profile.Alloc:
		return "bytes"
	case profile.Wait:
		return "wait time"
	}
	return "samples"
}

// shortWorkloads names workloads compactly: "workloadb, c, d" for YCSB's.
func shortWorkloads(ws []string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		if s, ok := strings.CutPrefix(w, "workload"); ok && i > 0 && strings.HasPrefix(ws[0], "workload") {
			w = s
		}
		out[i] = w
	}
	return strings.Join(out, ", ")
}

// noCause says why a regression's profiles name no cause when the
// workloads it rests on were profiled only in pairs that missed their rate
// (their stacks per operation are a stall's, so they are not read): ""
// when nothing regressed, nothing was profiled, or a held pair was there
// to read and simply showed no path beyond chance.
func noCause(r Report) string {
	if r.Comparison == nil || r.Comparison.Verdict != compare.Regression {
		return ""
	}
	var missed []string
	for _, p := range shownProfiles(r) {
		if p.Held() {
			return ""
		}
		var sides []string
		if p.BaseMissed > 0 {
			sides = append(sides, fmt.Sprintf("baseline %d of %d", p.BaseMissed, p.BaseTrials))
		}
		if p.CandMissed > 0 {
			sides = append(sides, fmt.Sprintf("candidate %d of %d", p.CandMissed, p.CandTrials))
		}
		missed = append(missed, fmt.Sprintf("%s (%s)", p.Workload, strings.Join(sides, ", ")))
	}
	if len(missed) == 0 {
		return ""
	}
	return "Cause: none named: the profiled trials of " + strings.Join(missed, "; ") +
		" missed the rate their side's counted trials held, so their stacks per operation are a stall's (the differential profiles are in the full report)"
}
