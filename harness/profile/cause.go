package profile

import (
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// Pair is one profiled pair's two sides of one kind: what FindCause tests a
// path's growth on. Workload names the pair for the reports.
type Pair struct {
	Workload   string
	Base, Cand Side
	// BaseCPUPerOp and CandCPUPerOp are the sides' CPU per operation as
	// their counted trials measured it (µs; 0: not known). With both set a
	// CPU path is tested as its share of that cost, not as samples per
	// operation, which JFR's sampler does not hold steady.
	BaseCPUPerOp, CandCPUPerOp float64
}

// Cause is the call path a cost grew along, found across profiled pairs:
// the frame where the candidate's stacks part from the baseline's, with
// the frames above it both share and the heaviest grown path below it.
type Cause struct {
	Kind Kind
	// Path runs from the last frame both sides share (Path[Shared-1]) to
	// the leaf of the heaviest grown stack through the frame that differs.
	Path []string
	// Shared counts Path's leading frames the baseline's stacks hold as
	// much as the candidate's: Path[Shared] is the first frame that differs
	// (Shared is 0 when the path grew without parting: a frame that got
	// costlier, its callers the same).
	Shared int
	// Workloads are the pairs the path grew in, every one it appears in.
	Workloads []string
	// DeltaPerOp is the path's mean growth per operation over those pairs:
	// bytes or µs an operation, as the kind counts; CPU samples an
	// operation, or, where the pairs carry the sides' CPU per operation,
	// µs of it (scaled by 1e6: Pair.BaseCPUPerOp).
	DeltaPerOp float64
	// BaseShare and CandShare are the path's share of each side's weight,
	// pooled over the pairs.
	BaseShare, CandShare float64
	// P is the pairs' one-sided P-values combined (Fisher): the chance of
	// growth this consistent were the path's cost per operation the same.
	P float64
	// Tested counts the paths tested: the P each was held to is
	// CauseAlpha over it.
	Tested int
	// CPUMicros says DeltaPerOp is µs of CPU an operation (every pair
	// carried its sides' CPU per operation), not samples.
	CPUMicros bool
}

// CauseAlpha is the family-wise level a cause is named at: a path's
// combined P must be at most CauseAlpha over the paths tested (Bonferroni;
// the paths nest, so this is conservative).
const CauseAlpha = 0.01

// causeMinShare is the least share of the candidate's weight a path must
// carry to be tested: thinner paths cannot be named at a useful P anyway,
// and each one tested raises the bar for the rest.
const causeMinShare = 0.005

// newShare is how little of a path's weight per operation the baseline may
// carry, against the candidate's, for the path to read as new in the
// candidate: the frame where the candidate's stacks part from the
// baseline's. A caller whose weight only doubled (its callee's new cost
// added to its own) is not new.
const newShare = 0.25

// pathStat is one path's weight and samples on each side of one pair.
type pathStat struct{ bw, cw, bn, cn int64 }

// prefixes sums a side's stacks over every prefix of each stack (the
// prefix "a;b" holds every stack that starts a;b), into acc[i] side at.
func prefixes(f Folded, n Folded, acc map[string]*pathStat, base bool) {
	for s, w := range f {
		var k int64
		if n != nil {
			k = n[s]
		}
		for i := 0; i <= len(s); i++ {
			if i < len(s) && s[i] != ';' {
				continue
			}
			p := acc[s[:i]]
			if p == nil {
				p = &pathStat{}
				acc[s[:i]] = p
			}
			if base {
				p.bw += w
				p.bn += k
			} else {
				p.cw += w
				p.cn += k
			}
		}
	}
}

// pairP is the one-sided P that a path grew from b to c in pair pr: its CPU
// samples, or for allocated bytes and wait time its samples or events.
func pairP(kind Kind, pr Pair, st pathStat) float64 {
	if kind == CPU {
		return countP(st.bw, st.cw, float64(pr.Base.Ops), float64(pr.Cand.Ops))
	}
	grew := float64(st.cw)/float64(pr.Cand.Ops) > float64(st.bw)/float64(pr.Base.Ops)
	return allocP(st.bn, st.cn, pr.Base, pr.Cand, grew)
}

// fisher combines one-sided P-values: -2 sum ln p is chi-squared with 2k
// degrees of freedom under no change.
func fisher(ps []float64) float64 {
	x := 0.0
	for _, p := range ps {
		x -= 2 * math.Log(max(p, 1e-300))
	}
	return distuv.ChiSquared{K: float64(2 * len(ps))}.Survival(x)
}

// FindCause finds the path a cost of kind grew along in every pair it
// appears in: a path (a stack's prefix) is tested in each pair on its own
// samples (CPU samples; allocation samples or wait events: Side.Samples),
// the pairs' P combined, and it is named only if it grew in each pair that
// holds it, in at least two pairs when there are two or more (a change
// seen in one recording alone may be that recording's), at CauseAlpha over
// the paths tested. Of the named paths, the cause is the heaviest whose
// baseline weight is under half the candidate's while its caller's is not
// (the frame that differs) and whose caller grew by at least half as much
// (a cost added, not moved between a caller's frames); with none, the
// deepest named path that holds half the largest growth (a frame that got
// costlier). ok is false when no
// path passes, or a kind whose samples were not counted (allocation
// stored without its samples).
func FindCause(kind Kind, pairs []Pair) (Cause, bool) {
	var ps []Pair
	scaled := kind == CPU
	for _, p := range pairs {
		if p.Base.Ops <= 0 || p.Cand.Ops <= 0 {
			continue
		}
		// Bytes or wait time without their samples counted (a store from
		// before they were) cannot be tested; a side that counted none
		// (no wait above the threshold) is tested as none.
		if kind != CPU && (p.Base.Samples == nil || p.Cand.Samples == nil) {
			continue
		}
		if kind == CPU && p.BaseCPUPerOp > 0 && p.CandCPUPerOp > 0 {
			// JFR's CPU samples are not a fixed slice of CPU time: the
			// sampler takes a bounded number of threads a period, and two
			// JVMs' counts per operation differed by two thirds for a 5%
			// cost (2.6.0 against 2.6.1). Where the side's CPU per
			// operation was measured, a path's samples are read as its
			// share of that: its exposure is the side's samples over it.
			bt, ct := p.Base.Stacks.Total(), p.Cand.Stacks.Total()
			if bt <= 0 || ct <= 0 {
				continue
			}
			p.Base.Ops = max(1, int64(float64(bt)/p.BaseCPUPerOp*1e6))
			p.Cand.Ops = max(1, int64(float64(ct)/p.CandCPUPerOp*1e6))
		} else {
			scaled = false
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return Cause{}, false
	}
	stats := make([]map[string]*pathStat, len(ps))
	var candTotal, candOps float64
	for i, p := range ps {
		stats[i] = map[string]*pathStat{}
		prefixes(p.Base.Stacks, p.Base.Samples, stats[i], true)
		prefixes(p.Cand.Stacks, p.Cand.Samples, stats[i], false)
		candTotal += float64(p.Cand.Stacks.Total())
		candOps += float64(p.Cand.Ops)
	}
	type tested struct {
		path                 string
		delta                float64 // mean per-op growth over the pairs holding it
		basePerOp, candPer   float64 // pooled over those pairs
		baseShare, candShare float64
		p                    float64
		workloads            []string
	}
	var baseTotal, baseOps float64
	for _, p := range ps {
		baseTotal += float64(p.Base.Stacks.Total())
		baseOps += float64(p.Base.Ops)
	}
	need := min(2, len(ps))
	paths := map[string]*tested{}
	for path := range unionKeys(stats) {
		if path == "" {
			continue
		}
		t := &tested{path: path}
		var pvals []float64
		var bw, cw, bo, co float64
		grewAll := true
		for i, pr := range ps {
			st, ok := stats[i][path]
			if !ok || st.bw == 0 && st.cw == 0 {
				continue
			}
			d := float64(st.cw)/float64(pr.Cand.Ops) - float64(st.bw)/float64(pr.Base.Ops)
			if d <= 0 {
				grewAll = false
				break
			}
			pvals = append(pvals, pairP(kind, pr, *st))
			t.delta += d
			t.workloads = append(t.workloads, pr.Workload)
			bw, cw = bw+float64(st.bw), cw+float64(st.cw)
			bo, co = bo+float64(pr.Base.Ops), co+float64(pr.Cand.Ops)
		}
		if !grewAll || len(pvals) < need || candTotal == 0 || cw/candTotal < causeMinShare {
			continue
		}
		t.delta /= float64(len(pvals))
		t.basePerOp, t.candPer = bw/bo, cw/co
		if baseTotal > 0 {
			t.baseShare = bw / baseTotal
		}
		t.candShare = cw / candTotal
		t.p = fisher(pvals)
		paths[path] = t
	}
	if len(paths) == 0 {
		return Cause{}, false
	}
	level := CauseAlpha / float64(len(paths))
	isNew := func(t *tested) bool { return t.basePerOp < newShare*t.candPer }
	named := func(path string) *tested {
		if t := paths[path]; t != nil && t.p <= level {
			return t
		}
		return nil
	}
	// A cost added grows its caller by as much; samples one JVM's JIT moved
	// between a caller's frames leave the caller's cost where it was.
	callerGrew := func(path string) bool {
		parent := parentOf(path)
		if parent == "" {
			return true
		}
		pt := paths[parent]
		return pt != nil && pt.delta >= 0.5*paths[path].delta
	}
	var best *tested
	shared := 0
	for path, t := range paths {
		if t.p > level || !isNew(t) {
			continue
		}
		if pt := paths[parentOf(path)]; pt != nil && isNew(pt) || !callerGrew(path) {
			continue // its caller is new too: not where the stacks part
		}
		if best == nil || t.delta > best.delta || t.delta == best.delta && path < best.path {
			best = t
		}
	}
	if best != nil {
		shared = strings.Count(best.path, ";") // the frames above the new one
	} else {
		var top float64
		for _, t := range paths {
			if t.p <= level {
				top = max(top, t.delta)
			}
		}
		for path, t := range paths {
			if t.p > level || t.delta < 0.5*top || !callerGrew(path) {
				continue
			}
			if best == nil || depth(path) > depth(best.path) || depth(path) == depth(best.path) && path < best.path {
				best = t
			}
		}
		if best == nil {
			return Cause{}, false
		}
	}
	// Below the cause, the heaviest named path that grew, down to a leaf.
	end := best.path
	for {
		var next *tested
		for path, t := range paths {
			if parentOf(path) == end && named(path) != nil {
				if next == nil || t.delta > next.delta || t.delta == next.delta && path < next.path {
					next = t
				}
			}
		}
		if next == nil {
			break
		}
		end = next.path
	}
	frames := strings.Split(end, ";")
	c := Cause{Kind: kind, Workloads: best.workloads, DeltaPerOp: best.delta, BaseShare: best.baseShare,
		CandShare: best.candShare, P: best.p, Tested: len(paths)}
	if shared > 0 {
		// From the last frame both share: where the new call is made.
		c.Path, c.Shared = frames[shared-1:], 1
	} else {
		// From the costlier frame's caller.
		c.Path = frames[max(0, depth(best.path)-2):]
	}
	if scaled {
		c.DeltaPerOp, c.CPUMicros = c.DeltaPerOp*1e6, true
	}
	slices.Sort(c.Workloads)
	return c, true
}

// depth is how many frames a path holds.
func depth(path string) int { return strings.Count(path, ";") + 1 }

// parentOf is a path without its last frame, "" for a root.
func parentOf(path string) string {
	i := strings.LastIndexByte(path, ';')
	if i < 0 {
		return ""
	}
	return path[:i]
}

// unionKeys is every path of any pair, in order.
func unionKeys(stats []map[string]*pathStat) map[string]struct{} {
	out := map[string]struct{}{}
	for _, m := range stats {
		for k := range m {
			out[k] = struct{}{}
		}
	}
	return out
}

// CauseLine prints a cause's path from the last shared frame to the leaf
// as Class.method names joined by " -> ", at most maxFrames of them: a
// longer path first folds the JDK's frames between its start and its leaf
// into "…"; if still longer it keeps its start (where the stacks part) and
// its last two names (the application's last frame and the leaf, or what
// grew), "…" between (keepEnds).
func (c Cause) CauseLine(maxFrames int) string {
	names := make([]string, len(c.Path))
	for i, f := range c.Path {
		if i+1 < len(c.Path) {
			names[i] = ShortFrameCalling(f, c.Path[i+1])
		} else {
			names[i] = ShortFrame(f)
		}
	}
	if maxFrames > 0 && len(names) > maxFrames {
		names = keepEnds(withoutJDKMiddle(c.Path, names), maxFrames)
	}
	return strings.Join(names, " -> ")
}

// keepEnds is a folded path (names and "…") cut to maxFrames names: its
// first ones (where the stacks part) and its last two (the application's
// last frame and the leaf when the JDK's frames between them are folded:
// createRegionSpan -> … -> Bytes.toStringBinary -> … -> Arrays.copyOf),
// "…" for what is left out; a path of maxFrames names or fewer as it is.
func keepEnds(folded []string, maxFrames int) []string {
	var at []int // the indexes of names, not folds
	for i, f := range folded {
		if f != "…" {
			at = append(at, i)
		}
	}
	tail := min(2, max(maxFrames-1, 1))
	head := max(maxFrames-tail, 1)
	if head+tail >= len(at) {
		return folded
	}
	out := slices.Clone(folded[:at[head-1]+1])
	from := at[len(at)-tail]
	if folded[from-1] == "…" {
		from-- // the fold before the tail stands for what is left out too
	}
	if folded[from] != "…" {
		out = append(out, "…")
	}
	return append(out, folded[from:]...)
}

// withoutJDKMiddle is names with the JDK's own frames between the path's
// first frame and its leaf folded into "…" (a run of them into one): the
// application's frames say where a cost is made (readBlock ->
// BlockCacheKey.toString -> … -> Arrays.copyOf), the JDK's how it is paid.
func withoutJDKMiddle(path, names []string) []string {
	var out []string
	for i, name := range names {
		if i > 0 && i < len(names)-1 && jdkFrame(path[i]) {
			if out[len(out)-1] != "…" {
				out = append(out, "…")
			}
			continue
		}
		out = append(out, name)
	}
	return out
}

// jdkFrame reports whether a frame is the JDK's own (java., javax., jdk., sun.).
func jdkFrame(f string) bool {
	for _, p := range []string{"java.", "javax.", "jdk.", "sun."} {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}
