package profile

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mathext"
)

// Kind says what a profile's weights count.
type Kind string

// The two kinds of profile a recording gives, and the count behind Alloc.
const (
	CPU   Kind = "cpu"   // jdk.ExecutionSample events
	Alloc Kind = "alloc" // allocated bytes
	// AllocSamples counts the allocation events behind Alloc's bytes, one
	// a sample (Profile.AllocSamples): what an allocation frame's P is
	// computed from. Not a differential of its own.
	AllocSamples Kind = "alloc-samples"
	// Wait is the wall-clock time request threads spent waiting (a lock, a
	// queue, a sync, I/O: Profile.Wait), in microseconds: where a latency
	// went that CPU samples cannot see.
	Wait Kind = "wait"
	// WaitCount counts the wait events behind Wait's microseconds, one an
	// event (Profile.WaitCount): what a wait frame's P is computed from.
	WaitCount Kind = "wait-events"
)

// TopN is how many frames and stacks a differential keeps.
const TopN = 10

// Side is one side of a differential: the folded stacks recorded on its
// region servers and the operations it served while they were recorded.
type Side struct {
	Stacks Folded
	Ops    int64
	// Samples, for allocated bytes and wait time, counts the samples or
	// events behind each of Stacks' stacks (Profile.AllocSamples,
	// Profile.WaitCount), summed as Stacks was. nil is not counted (older
	// stores): unless both sides counted, frames carry no P. Empty is
	// counted, none recorded: a side that waited not once is tested as such.
	Samples Folded
}

// Weight is one frame's or stack's weight on both sides.
type Weight struct {
	Base      int64   `json:"base"` // samples or bytes
	Cand      int64   `json:"cand"`
	BaseShare float64 `json:"base_share"` // fraction of the side's total weight
	CandShare float64 `json:"cand_share"`
	BasePerOp float64 `json:"base_per_op"` // weight per operation
	CandPerOp float64 `json:"cand_per_op"`
}

// Delta is the change per operation, candidate minus baseline: what Diff
// ranks by. A difference within rounding (the same weight per operation
// computed from different counts) is no change.
func (w Weight) Delta() float64 { return change(w.CandPerOp, w.BasePerOp) }

// change is a-b, or 0 when that is within float rounding of a and b.
func change(a, b float64) float64 {
	d := a - b
	if math.Abs(d) <= 1e-9*max(math.Abs(a), math.Abs(b)) {
		return 0
	}
	return d
}

// FrameChange is one method's change: self counts stacks whose leaf it is,
// total every stack it appears in (once, however often it recurses).
type FrameChange struct {
	Frame string `json:"frame"`
	Self  Weight `json:"self"`
	Total Weight `json:"total"`
	// P is the chance of a change in self weight per operation at least
	// this large (in its direction) were the frame's cost per operation the
	// same on both sides: the exact conditional test of two Poisson counts,
	// of the frame's CPU samples, or of its allocation samples (allocP). 0
	// when not known: allocated bytes whose samples were not counted.
	P float64 `json:"p,omitempty"`
}

// FrameAlpha is the P above which a frame's change may be chance, CPU or
// allocation: the vote paragraph leaves such frames out, and those without
// a P. A run's profiled pair records a few dozen CPU samples a side at
// smoke's rate (docs/profiles.md), where shares move by several points from
// noise alone.
const FrameAlpha = 0.01

// countP is the one-sided P of b baseline and c candidate samples over
// bOps and cOps operations, in the direction they moved, if both sides
// sampled a frame at the same rate per operation: given n = b+c, c is then
// Binomial(n, q) with q = cOps/(bOps+cOps). The tails are regularized
// incomplete beta functions, exact where 1-CDF would round to 0.
func countP(b, c int64, bOps, cOps float64) float64 {
	q := cOps / (bOps + cOps)
	return binomialTail(b, c, q, float64(c) >= q*float64(b+c))
}

// binomialTail is P(X >= c) (grew) or P(X <= c) for X ~ Binomial(b+c, q),
// 0 < q < 1.
func binomialTail(b, c int64, q float64, grew bool) float64 {
	n := b + c
	var p float64
	switch {
	case n == 0 || grew && c == 0 || !grew && b == 0:
		return 1 // the whole distribution
	case grew: // P(X >= c) = I_q(c, n-c+1)
		p = mathext.RegIncBeta(float64(c), float64(n-c+1), q)
	default: // P(X <= c) = I_(1-q)(n-c, c+1)
		p = mathext.RegIncBeta(float64(n-c), float64(c+1), 1-q)
	}
	return min(1, max(p, 1e-300))
}

// allocP is the P of an allocation frame's change in bytes per operation,
// tested on its samples, b and c, in the direction its bytes moved.
//
// Bytes are not counts: JFR weighs each allocation sample by the bytes its
// thread allocated since that thread's previous sample, so a frame's bytes
// are a sum of a random number of random weights, and their spread is not
// their mean. The samples are counts. A sample is taken where a thread
// fills its allocation buffer (or allocates outside one), which a method
// reaches in proportion to the bytes it allocates, and the recorder keeps
// about 150 a second whatever the rate (JDK 11's TLAB events: all of them),
// so each of a side's samples stands for that side's bytes over its samples
// on average (a frame whose samples weigh more than its side's average,
// on a thread that allocates more between samples, does so on both sides,
// and the ratio cancels). Were the frame's bytes per operation equal, its expected
// samples on a side would be proportional to the side's ops*samples/bytes,
// and given b+c, c ~ Binomial(b+c, q) with q the candidate's part of that
// exposure: countP with exposures for operations. Taking a side's mean weight
// as known costs little (it comes from all of the side's samples, a frame's
// from a few); a permutation or bootstrap over recordings was not possible:
// a run profiles one pair, one recording a region server.
func allocP(b, c int64, base, cand Side, grew bool) float64 {
	bExp, cExp := exposure(base), exposure(cand)
	switch {
	case bExp == 0 && cExp == 0:
		return 0
	case bExp == 0: // a side without samples weighs as the other does
		bExp = cExp / float64(cand.Ops) * float64(base.Ops)
	case cExp == 0:
		cExp = bExp / float64(base.Ops) * float64(cand.Ops)
	}
	return binomialTail(b, c, cExp/(bExp+cExp), grew)
}

// exposure is a side's operations over the bytes one of its samples stands
// for: its expected samples for a frame allocating one byte an operation.
func exposure(s Side) float64 {
	n, t := s.Samples.Total(), s.Stacks.Total()
	if n <= 0 || t <= 0 {
		return 0
	}
	return float64(s.Ops) * float64(n) / float64(t)
}

// StackChange is one whole folded stack's change.
type StackChange struct {
	Stack string `json:"stack"`
	Weight
}

// Differential is what changed from a baseline profile to a candidate's.
type Differential struct {
	Kind      Kind  `json:"kind"`
	BaseOps   int64 `json:"base_ops"`
	CandOps   int64 `json:"cand_ops"`
	BaseTotal int64 `json:"base_total"` // samples or bytes
	CandTotal int64 `json:"cand_total"`
	// Frames are the methods whose self weight per operation changed most
	// (largest absolute change first; unchanged ones left out): self,
	// because a leaf that grew makes every caller's total grow by as much,
	// and the callers are in Stacks.
	Frames []FrameChange `json:"frames"`
	// TotalLow and TotalHigh bound the change of the whole profile's weight
	// per operation (two-sided at 1%, from its samples or events): what
	// FrameNamed holds a frame's growth to.
	TotalLow  float64 `json:"total_low"`
	TotalHigh float64 `json:"total_high"`
	// Stacks are the whole stacks whose weight per operation changed most (unchanged ones left out).
	Stacks []StackChange `json:"stacks"`
}

// Diff compares two profiles of one kind, normalised per operation so a side
// that served more operations in the same window is not counted as slower,
// and keeps the top frames and stacks (TopN when top <= 0).
func Diff(kind Kind, base, cand Side, top int) (*Differential, error) {
	if base.Ops <= 0 || cand.Ops <= 0 {
		return nil, fmt.Errorf("profile: %s differential needs the operations each side served while recorded; got baseline %d, candidate %d", kind, base.Ops, cand.Ops)
	}
	if top <= 0 {
		top = TopN
	}
	d := &Differential{Kind: kind, BaseOps: base.Ops, CandOps: cand.Ops, BaseTotal: base.Stacks.Total(), CandTotal: cand.Stacks.Total()}
	if d.BaseTotal == 0 && d.CandTotal == 0 {
		return nil, fmt.Errorf("profile: %s differential: neither side recorded a sample; was the recording running during the measure window?", kind)
	}
	weigh := func(b, c int64) Weight {
		return Weight{Base: b, Cand: c, BaseShare: share(b, d.BaseTotal), CandShare: share(c, d.CandTotal),
			BasePerOp: float64(b) / float64(base.Ops), CandPerOp: float64(c) / float64(cand.Ops)}
	}

	stacks := map[string][2]int64{}
	for s, w := range base.Stacks {
		v := stacks[s]
		v[0] += w
		stacks[s] = v
	}
	for s, w := range cand.Stacks {
		v := stacks[s]
		v[1] += w
		stacks[s] = v
	}
	for s, v := range stacks {
		d.Stacks = append(d.Stacks, StackChange{Stack: s, Weight: weigh(v[0], v[1])})
	}
	d.Stacks = slices.DeleteFunc(d.Stacks, func(s StackChange) bool { return s.Delta() == 0 })
	slices.SortFunc(d.Stacks, func(a, b StackChange) int { return byChange(a.Weight, b.Weight, a.Stack, b.Stack) })
	d.Stacks = d.Stacks[:min(top, len(d.Stacks))]

	self, total := map[string][2]int64{}, map[string][2]int64{}
	for i, f := range []Folded{base.Stacks, cand.Stacks} {
		for s, w := range f {
			frames := strings.Split(s, ";")
			leaf := frames[len(frames)-1]
			v := self[leaf]
			v[i] += w
			self[leaf] = v
			seen := make(map[string]bool, len(frames))
			for _, fr := range frames {
				if seen[fr] {
					continue
				}
				seen[fr] = true
				v := total[fr]
				v[i] += w
				total[fr] = v
			}
		}
	}
	// An allocation or wait frame's P is tested on its samples, when both
	// sides counted them (older stores did not); a side that counted none
	// (an empty file, not a missing one) is tested as having none.
	var selfSamples map[string][2]int64
	if (kind == Alloc || kind == Wait) && base.Samples != nil && cand.Samples != nil {
		selfSamples = map[string][2]int64{}
		for i, f := range []Folded{base.Samples, cand.Samples} {
			for s, n := range f {
				leaf := s[strings.LastIndexByte(s, ';')+1:]
				v := selfSamples[leaf]
				v[i] += n
				selfSamples[leaf] = v
			}
		}
	}
	for fr, t := range total {
		s := self[fr]
		f := FrameChange{Frame: fr, Self: weigh(s[0], s[1]), Total: weigh(t[0], t[1])}
		switch {
		case kind == CPU:
			f.P = countP(s[0], s[1], float64(base.Ops), float64(cand.Ops))
		case selfSamples != nil && f.Self.Delta() != 0:
			n := selfSamples[fr]
			f.P = allocP(n[0], n[1], base, cand, f.Self.Delta() > 0)
		}
		d.Frames = append(d.Frames, f)
	}
	d.Frames = slices.DeleteFunc(d.Frames, func(f FrameChange) bool { return f.Self.Delta() == 0 })
	slices.SortFunc(d.Frames, func(a, b FrameChange) int {
		if c := byChange(a.Self, b.Self, "", ""); c != 0 {
			return c
		}
		return byChange(a.Total, b.Total, a.Frame, b.Frame)
	})
	d.Frames = d.Frames[:min(top, len(d.Frames))]
	d.TotalLow, d.TotalHigh = totalBounds(kind, base, cand)
	return d, nil
}

// zTotal is the standard normal quantile of a two-sided 1% interval.
const zTotal = 2.5758293035489

// totalBounds bounds the change of a side's whole weight per operation,
// candidate minus baseline. Samples are counts (CPU), or stand for their
// side's mean weight each (allocated bytes, wait time: Side.Samples); a
// count's spread is its square root.
func totalBounds(kind Kind, base, cand Side) (lo, hi float64) {
	se2 := 0.0
	for _, s := range []Side{base, cand} {
		t := float64(s.Stacks.Total())
		n := t
		if kind != CPU {
			n = float64(s.Samples.Total())
		}
		if n > 0 {
			perSample := t / n
			se := perSample * math.Sqrt(n) / float64(s.Ops)
			se2 += se * se
		}
	}
	d := change(float64(cand.Stacks.Total())/float64(cand.Ops), float64(base.Stacks.Total())/float64(base.Ops))
	h := zTotal * math.Sqrt(se2)
	return d - h, d + h
}

// FrameNamed reports whether a frame's growth may be named as a cause: its
// change is not chance (P at most FrameAlpha), the whole profile grew
// (TotalLow above 0), and the frame grew by no more than the whole could
// have (TotalHigh). Two JVMs of one release differ frame by frame (the
// JIT's choices move samples between methods, measured here: a frame 0.0%
// -> 13.1% with the whole unchanged), but such moves leave the whole
// where it was; a cost a release added grows the whole by as much.
func (d *Differential) FrameNamed(f FrameChange) bool {
	if f.P <= 0 || f.P > FrameAlpha || f.Self.Delta() <= 0 {
		return false
	}
	return d.TotalLow > 0 && f.Self.Delta() <= d.TotalHigh
}

// HasP says whether the frames carry a P: CPU frames always, allocation
// frames when both sides' samples were counted.
func (d *Differential) HasP() bool {
	return d.Kind == CPU || slices.ContainsFunc(d.Frames, func(f FrameChange) bool { return f.P > 0 })
}

// byChange orders by absolute change per operation, largest first, then by name for a stable order.
func byChange(a, b Weight, an, bn string) int {
	if c := cmp.Compare(math.Abs(b.Delta()), math.Abs(a.Delta())); c != 0 {
		return c
	}
	return strings.Compare(an, bn)
}

func share(w, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(w) / float64(total)
}

// perOpUnit is how the table scales weight per operation: CPU samples are
// few per operation, so they read per thousand operations.
func perOpUnit(k Kind) (scale float64, unit string) {
	switch k {
	case CPU:
		return 1000, "samples/1k ops"
	case Wait:
		return 1, "µs/op"
	}
	return 1, "bytes/op"
}

// FormatPerOp prints a change per operation in the unit the tables use:
// "+0.273 samples/1k ops" for CPU, "+105 bytes/op" for allocations.
func FormatPerOp(k Kind, perOp float64) string {
	scale, unit := perOpUnit(k)
	return signed(perOp*scale) + " " + unit
}

// ShownStackFrames is how many frames, leaf end, the table shows of a stack.
const ShownStackFrames = 5

// WriteDiffTable writes the differential as text: the totals, then the
// frames and the stacks that changed most, each with both sides' shares.
func WriteDiffTable(w io.Writer, d *Differential) error {
	scale, unit := perOpUnit(d.Kind)
	what := "CPU samples"
	switch d.Kind {
	case Alloc:
		what = "allocated bytes"
	case Wait:
		what = "request threads' wait time"
	}
	var b strings.Builder
	bp, cp := float64(d.BaseTotal)/float64(d.BaseOps)*scale, float64(d.CandTotal)/float64(d.CandOps)*scale
	fmt.Fprintf(&b, "%s: baseline %d over %d ops (%s %s), candidate %d over %d ops (%s %s), %s\n",
		what, d.BaseTotal, d.BaseOps, num(bp), unit, d.CandTotal, d.CandOps, num(cp), unit, pct(bp, cp))

	fmt.Fprintf(&b, "\nframes whose self %s changed most (%s; share of the side's total", what, unit)
	hasP := d.HasP()
	switch {
	case hasP && d.Kind == Alloc:
		fmt.Fprintf(&b, "; p: chance of so large a change at equal cost per op, from the allocation samples, above %g maybe chance", FrameAlpha)
	case hasP && d.Kind == Wait:
		fmt.Fprintf(&b, "; p: chance of so large a change at equal wait per op, from the wait events, above %g maybe chance", FrameAlpha)
	case hasP:
		fmt.Fprintf(&b, "; p: chance of so large a change at equal cost per op, above %g maybe chance", FrameAlpha)
	case len(d.Frames) > 0:
		b.WriteString("; no p: the allocation samples were not counted when these were stored, and no frame is named as a cause")
	}
	b.WriteString("):\n")
	rows := [][]string{{"change", "self base", "self cand", "total base", "total cand", "frame"}}
	if hasP {
		rows[0] = slices.Insert(rows[0], 1, "p")
	}
	for _, f := range d.Frames {
		row := []string{signed(f.Self.Delta() * scale), percent(f.Self.BaseShare), percent(f.Self.CandShare),
			percent(f.Total.BaseShare), percent(f.Total.CandShare), f.Frame}
		if hasP {
			row = slices.Insert(row, 1, fmt.Sprintf("%.2g", f.P))
		}
		rows = append(rows, row)
	}
	table(&b, rows)

	fmt.Fprintf(&b, "\nstacks whose %s changed most (%s; last %d frames as Class.method, leaf last):\n", what, unit, ShownStackFrames)
	rows = [][]string{{"change", "base", "cand", "stack"}}
	for _, s := range d.Stacks {
		rows = append(rows, []string{signed(s.Delta() * scale), percent(s.BaseShare), percent(s.CandShare), ShortStack(s.Stack, ShownStackFrames)})
	}
	table(&b, rows)
	_, err := io.WriteString(w, b.String())
	return err
}

// ShortStack keeps a folded stack's last n frames, each as Class.method
// (ShortFrameCalling, so a lambda is named by its body), marking a cut with
// "…": the table's view of a stack.
func ShortStack(stack string, n int) string {
	frames := strings.Split(stack, ";")
	from := max(0, len(frames)-n)
	short := make([]string, 0, len(frames)-from)
	for i := from; i < len(frames); i++ {
		if i+1 < len(frames) {
			short = append(short, ShortFrameCalling(frames[i], frames[i+1]))
		} else {
			short = append(short, ShortFrame(frames[i]))
		}
	}
	s := strings.Join(short, ";")
	if from > 0 {
		s = "…;" + s
	}
	return s
}

// table writes rows with every column but the last right-aligned to its widest cell.
func table(b *strings.Builder, rows [][]string) {
	if len(rows) == 1 {
		b.WriteString("  (none)\n")
		return
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		b.WriteString(" ")
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(" " + c)
				continue
			}
			b.WriteString(" " + strings.Repeat(" ", width[i]-len([]rune(c))) + c)
		}
		b.WriteString("\n")
	}
}

func percent(f float64) string { return fmt.Sprintf("%.1f%%", f*100) }

// num prints a figure with three significant digits, without an exponent below a million.
func num(v float64) string {
	if math.Abs(v) >= 1e6 {
		return fmt.Sprintf("%.3g", v)
	}
	switch a := math.Abs(v); {
	case a >= 100 || a == 0:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

func signed(v float64) string {
	if v > 0 {
		return "+" + num(v)
	}
	if v == 0 {
		return "0"
	}
	return num(v)
}

func pct(base, cand float64) string {
	if base == 0 {
		return "new"
	}
	return fmt.Sprintf("%+.1f%% per op", (cand/base-1)*100)
}
