package report

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/regress-hbase/regress/harness/compare"
)

// serverCountsHeading introduces the server counts in every format.
const serverCountsHeading = "server counts (requests the trial tables' regions counted against the client's operations; the servers' block cache lookups):"

// scanRowsNote explains, where the client scanned, a count of reads far
// above the client's: HBase counts a read request for every row a scan
// returns (workload E's scans of up to 100 rows), not one per scan.
const scanRowsNote = " (HBase counts a read for every row a scan returns)"

// serverCountLines says, per workload and side, what the servers counted
// in the trials' windows: one line each, the same in every format.
func serverCountLines(c *compare.Comparison) []string {
	out := make([]string, 0, len(c.ServerCounts))
	for _, s := range c.ServerCounts {
		var parts []string
		if s.RequestTrials > 0 {
			p := fmt.Sprintf("%d reads counted for the client's %d, %d writes for %d (%d trials)",
				s.ServerReads, s.ClientReads, s.ServerWrites, s.ClientWrites, s.RequestTrials)
			if s.ClientScans > 0 {
				p += scanRowsNote
			}
			parts = append(parts, p)
		}
		if s.CacheTrials > 0 {
			parts = append(parts, fmt.Sprintf("block cache %d hits, %d misses, hit ratio %.1f%% (%d trials)",
				s.BlockCacheHits, s.BlockCacheMisses, 100*s.HitRatio, s.CacheTrials))
		}
		out = append(out, fmt.Sprintf("%s %s: %s", s.Workload, s.Side, strings.Join(parts, "; ")))
	}
	return append(out, c.ServerCountNotes...)
}

// serverCountsTable is the server counts as a table within TextWidth
// columns, a row per workload and side, the notes under it; "" with none.
func serverCountsTable(c *compare.Comparison) string {
	if len(c.ServerCounts) == 0 && len(c.ServerCountNotes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(wrapLine(serverCountsHeading, TextWidth) + "\n")
	rows := [][]string{{"  workload", "side", "reads", "client's", "writes", "client's", "cache hits", "misses", "hit ratio"}}
	var scans []string
	for _, s := range c.ServerCounts {
		r := []string{"  " + s.Workload, s.Side, "-", "-", "-", "-", "-", "-", "-"}
		if s.RequestTrials > 0 {
			r[2], r[3], r[4], r[5] = fmt.Sprint(s.ServerReads), fmt.Sprint(s.ClientReads), fmt.Sprint(s.ServerWrites), fmt.Sprint(s.ClientWrites)
			if s.ClientScans > 0 && !slices.Contains(scans, s.Workload) {
				scans = append(scans, s.Workload)
			}
		}
		if s.CacheTrials > 0 {
			r[6], r[7], r[8] = fmt.Sprint(s.BlockCacheHits), fmt.Sprint(s.BlockCacheMisses), fmt.Sprintf("%.1f%%", 100*s.HitRatio)
		}
		rows = append(rows, r)
	}
	if len(c.ServerCounts) > 0 {
		b.WriteString(alignColumns(rows, 2))
	}
	if len(scans) > 0 {
		b.WriteString(wrapLine("  reads of "+strings.Join(scans, ", ")+": HBase counts a read for every row a scan returns", TextWidth) + "\n")
	}
	for _, n := range c.ServerCountNotes {
		b.WriteString(wrapLine("  - "+n, TextWidth) + "\n")
	}
	return b.String()
}

// alignColumns lays rows out in columns, the first `text` columns left-aligned
// and the rest (figures) right-aligned, two blanks apart.
func alignColumns(rows [][]string, text int) string {
	var ws []int
	for _, r := range rows {
		for i, cell := range r {
			if i >= len(ws) {
				ws = append(ws, 0)
			}
			ws[i] = max(ws[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		parts := make([]string, len(r))
		for i, cell := range r {
			parts[i] = pad(cell, ws[i], i >= text)
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " ") + "\n")
	}
	return b.String()
}

// heldRateLines are the held-rate checks, the workloads that held their
// target in every trial of both sides said in one line ("held rate:
// workloada, ..., workloadf held 1000 ops/s (workloade 400) in every trial
// of both sides: UNCHANGED, gated"), any other check a line of its own.
func heldRateLines(c *compare.Comparison) []string {
	var clean []compare.HeldRate
	var out []string
	for _, h := range c.HeldRate {
		if h.BaselineMissed == 0 && h.CandidateMissed == 0 && h.Status == compare.Unchanged && h.Gated == c.HeldRate[0].Gated {
			clean = append(clean, h)
			continue
		}
		out = append(out, heldRateLine(h))
	}
	if len(clean) < 2 {
		for _, h := range clean {
			out = append([]string{heldRateLine(h)}, out...)
		}
		return out
	}
	// The target most of them ran at, then the others by name.
	count := map[float64]int{}
	for _, h := range clean {
		count[h.TargetOpsPerSec]++
	}
	common := clean[0].TargetOpsPerSec
	for t, n := range count {
		if n > count[common] || n == count[common] && t > common {
			common = t
		}
	}
	var names, others []string
	for _, h := range clean {
		names = append(names, h.Workload)
		if h.TargetOpsPerSec != common {
			others = append(others, fmt.Sprintf("%s %.0f", h.Workload, h.TargetOpsPerSec))
		}
	}
	target := fmt.Sprintf("%.0f ops/s", common)
	if len(others) > 0 {
		target += " (" + strings.Join(others, ", ") + ")"
	}
	line := fmt.Sprintf("held rate: %s held %s in every trial of both sides: UNCHANGED", strings.Join(names, ", "), target)
	if clean[0].Gated {
		line += ", gated"
	}
	return append([]string{line}, out...)
}
