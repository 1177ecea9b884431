package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
)

// noteGroup is one note and every row it applies to: a note compare wrote
// on each of several rows ("throughput not gated: ...", one a workload) is
// said once, naming them.
type noteGroup struct {
	At   []noteAt // the rows it applies to
	Text string
	// Kind says what the note is about, so a format may leave some out.
	Kind noteKind
}

// noteKind sorts the notes by what they say.
type noteKind int

const (
	noteRow        noteKind = iota // a row's own note
	noteTail                       // a percentile too few operations kept from gating
	notePrimary                    // what a row over several workloads is
	noteThroughput                 // throughput not gated at a target rate
	noteSlot                       // what a duet's slot was worth, on a row the verdict does not read
)

// noteAt is where a note applies: a row ("workloada READ") and what of it
// ("p99.9", "cpu_per_op [-14.3%]"; "" for the row).
type noteAt struct{ row, what string }

// String is the group as a line, each row named once: "workloada READ,
// workloadb UPDATE: p99 not gated: ...", "all workloads ALL cpu_per_op,
// alloc_per_op: primary: ...".
func (g noteGroup) String() string {
	if len(g.At) == 0 {
		return g.Text
	}
	var parts []string
	for i, a := range g.At {
		switch {
		case a.what == "":
			parts = append(parts, a.row)
		case i > 0 && g.At[i-1].row == a.row && g.At[i-1].what != "":
			parts = append(parts, a.what)
		default:
			parts = append(parts, a.row+" "+a.what)
		}
	}
	return strings.Join(parts, ", ") + ": " + g.Text
}

// outlierNote matches compare's note on pairs left out of a row.
var outlierNote = regexp.MustCompile(`^(\S+): (\d+ pairs?) left out \(ratio ([^)]*)\), (.*)$`)

// groupedNotes are the rows' notes, each text once with the rows it
// applies to, in the order the rows come: a percentile that too few
// operations kept from gating is one note over every operation it applies
// to, whatever each trial's count; pairs left out are one note naming each
// row with its pairs' ratios; a note on a row gating in place of another
// is left out (the other row's note says it).
func groupedNotes(c *compare.Comparison) []noteGroup {
	var out []noteGroup
	index := map[string]int{}
	add := func(kind noteKind, text string, at noteAt) {
		i, ok := index[text]
		if !ok {
			i = len(out)
			index[text] = i
			out = append(out, noteGroup{Text: text, Kind: kind})
		}
		if at.row != "" && !slices.Contains(out[i].At, at) {
			out[i].At = append(out[i].At, at)
		}
	}
	// at is where m's note applies, its metric named unless the note begins with it.
	at := func(m compare.MetricResult) noteAt {
		a := noteAt{row: strings.TrimSpace(m.Workload + " " + m.Op)}
		if !noteNamesMetric(m.Note, m.Metric) {
			a.what = m.Metric
		}
		return a
	}
	type tail struct{ metric, fallback string }
	var tails []tail
	tailAt := map[tail][]noteAt{}
	tailOps := map[tail][]int64{}
	for _, m := range c.Metrics {
		row := strings.TrimSpace(m.Workload + " " + m.Op)
		switch fb := compare.TailFallback(m); {
		case m.Note == "":
		case m.GatedFor != "":
		case !m.Gated && fb != "":
			k := tail{m.Metric, fb}
			if _, ok := tailAt[k]; !ok {
				tails = append(tails, k)
				index["tail "+m.Metric+" "+fb] = len(out)
				out = append(out, noteGroup{Kind: noteTail}) // filled below, in its place
			}
			if a := (noteAt{row: row}); !slices.Contains(tailAt[k], a) {
				tailAt[k] = append(tailAt[k], a)
			}
			tailOps[k] = append(tailOps[k], m.OpsPerTrial)
		case m.Primary:
			add(notePrimary, m.Note, at(m))
		case m.Metric == metric.Throughput && !m.Gated && len(c.HeldRate) > 0 && strings.HasPrefix(m.Note, "throughput not gated"):
			add(noteThroughput, m.Note, noteAt{row: m.Workload})
		case !m.Gated && m.SlotEffect != 0 && strings.HasPrefix(m.Note, compare.SlotNotePrefix):
			add(noteSlot, m.Note, at(m))
		default:
			if p := outlierNote.FindStringSubmatch(m.Note); p != nil && p[1] == m.Metric {
				what := p[3]
				if p[2] != "1 pair" {
					what = p[2] + ": " + p[3]
				}
				add(noteRow, "pairs left out (their ratios in brackets), "+p[4], noteAt{row, fmt.Sprintf("%s [%s]", m.Metric, what)})
				continue
			}
			add(noteRow, m.Note, at(m))
		}
	}
	for _, k := range tails {
		i := index["tail "+k.metric+" "+k.fallback]
		out[i].Text = compare.TailNotes(k.metric, k.fallback, tailOps[k])
		out[i].At = tailAt[k]
	}
	return out
}
