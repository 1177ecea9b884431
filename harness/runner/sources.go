package runner

import (
	"errors"
	"fmt"
	"strings"
)

// A gated server-cost figure is compared only where both sides read it the
// same way: cpu_per_op from the request threads on both, or from the
// process on both; alloc_per_op likewise (the request threads' need
// regress's agent in the region server). Where the sides differ, compare
// leaves the figure out ("gated but not compared"), which a run learnt
// after its whole suite (issue 43: 17.9 minutes, then INCONCLUSIVE for
// all six workloads, 2.6.3's region servers having run without the agent).
// The first trial of each workload on both sides (a warm-up one when the
// suite warms up) says how each is read, so the run stops there: at the
// second such pair of trials in a row that differ (one agent read that
// timed out under load is not worth a run), which a side without the agent
// gives at once, the next workload's (or the next pair's, in a suite of
// one workload) first trials.

// ErrSourcesDiffer marks a run stopped because a gated server-cost figure
// is read one way on one side and another way on the other.
var ErrSourcesDiffer = errors.New("a gated server-cost figure is read differently on the two sides")

// sourceCheck remembers the first sources each side gave for a workload
// until both sides' are known and checked.
type sourceCheck struct {
	// seen holds, by workload, each side's (by store name) first sources.
	seen map[string]map[string]costSources
	// checked lists the workloads whose two sides were compared and agreed.
	checked map[string]bool
	// differed is the last check's difference, "" when it agreed or none ran.
	differed string
}

// costSources says how a trial's gated server-cost figures were read.
type costSources struct{ cpu, alloc string }

// gatedCost says which of cpu_per_op and alloc_per_op the suite gates for
// workload w (a selector's last part names the metric, its first, when it
// has three, the workload; "*" matches any).
func gatedCost(gate []string, w string) (cpu, alloc bool) {
	for _, g := range gate {
		parts := strings.Split(g, "/")
		if len(parts) == 3 && parts[0] != "*" && parts[0] != w {
			continue
		}
		switch parts[len(parts)-1] {
		case "*":
			cpu, alloc = true, true
		case "cpu_per_op":
			cpu = true
		case "alloc_per_op":
			alloc = true
		}
	}
	return cpu, alloc
}

// checkSources notes how s's trial of workload w read its server cost and,
// once the other side's trial of w is noted too, compares: when a gated
// figure's source differs twice in a row (two workloads' first pairs, or
// one workload's first two) it returns an error wrapping ErrRunFailed and
// ErrSourcesDiffer; after a first difference the workload is checked again
// at its next pair. Only a paired run checks; a trial whose cost was not
// read (nil m.server, an empty source) waits for the next one.
func (r *Runner) checkSources(s *side, w string, m *measured) error {
	if !r.slots.paired || m == nil || m.server == nil {
		return nil
	}
	c := &r.sources
	if c.checked[w] {
		return nil
	}
	if c.seen == nil {
		c.seen, c.checked = map[string]map[string]costSources{}, map[string]bool{}
	}
	if c.seen[w] == nil {
		c.seen[w] = map[string]costSources{}
	}
	name := s.t.Name
	if _, ok := c.seen[w][name]; !ok {
		c.seen[w][name] = costSources{cpu: m.server.CPUSource, alloc: m.server.AllocSource}
	}
	if len(c.seen[w]) < 2 {
		return nil
	}
	var names []string
	var got []costSources
	for n, src := range c.seen[w] {
		names, got = append(names, n), append(got, src)
	}
	if names[0] > names[1] { // map order: name the sides in one order
		names[0], names[1], got[0], got[1] = names[1], names[0], got[1], got[0]
	}
	gateCPU, gateAlloc := gatedCost(r.Suite.Compare.Gate, w)
	var diffs []string
	if gateCPU && got[0].cpu != "" && got[1].cpu != "" && got[0].cpu != got[1].cpu {
		diffs = append(diffs, fmt.Sprintf("cpu_per_op from %s's %s but %s's %s", names[0], got[0].cpu, names[1], got[1].cpu))
	}
	if gateAlloc && got[0].alloc != "" && got[1].alloc != "" && got[0].alloc != got[1].alloc {
		diffs = append(diffs, fmt.Sprintf("alloc_per_op from %s's %s but %s's %s", names[0], got[0].alloc, names[1], got[1].alloc))
	}
	if len(diffs) == 0 {
		c.checked[w], c.differed = true, ""
		return nil
	}
	delete(c.seen, w) // its next pair is checked again
	if c.differed == "" {
		c.differed = fmt.Sprintf("workload %s reads %s", w, strings.Join(diffs, "; "))
		r.logger().Warn("a gated server-cost figure was read differently on the two sides; checking the next trials before stopping the run", "workload", w, "differs", strings.Join(diffs, "; "))
		return nil
	}
	return fmt.Errorf("%w: %w: %s, and workload %s reads %s; compare would leave these gated figures out and the run would end INCONCLUSIVE after the whole suite, so it stops at its first trial. "+
		"A side whose allocation comes from its process ran its region servers without regress's agent (the log says why: \"region servers start without regress's agent\", or its info server did not start); "+
		"`regress doctor` shows what each side's trial reads. Fix that side, or take the figure out of the suite's compare.gate",
		ErrRunFailed, ErrSourcesDiffer, c.differed, w, strings.Join(diffs, "; "))
}
