package history

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/report"
)

// Judge compares one release with the good release on the bisected metric
// and returns that release's point (its ratio, interval and status).
type Judge func(ctx context.Context, release string) (Point, error)

// Outcome is what one bisect step says of its release.
type Outcome string

// Step outcomes.
const (
	Moved     Outcome = "MOVED"
	NotMoved  Outcome = "NOT MOVED"
	Undecided Outcome = "INCONCLUSIVE"
)

// Step is one comparison of the search.
type Step struct {
	N       int     `json:"step"`
	Release string  `json:"release"`
	Point   Point   `json:"point"`
	Outcome Outcome `json:"outcome"`
}

// Bisection is the answer of a search and how it got there.
type Bisection struct {
	Good, Bad string
	// Direction is the move searched for: compare.Regressed or
	// compare.Improved, set from how the bad release compares with the good.
	Direction compare.Status
	Steps     []Step
	// First is the first release that moved; empty when the search could
	// not name it (Message says why).
	First string
	// LastGood is the last release known not to have moved.
	LastGood string
	// Suspects are the releases the first move lies among when inconclusive
	// steps left more than one (in order); Undecided those steps' releases.
	Suspects, Undecided []string
	Message             string
}

// Conclusive reports whether the search named the first release that moved.
func (b *Bisection) Conclusive() bool { return b.First != "" }

// Bisect searches releases (in release order: releases[0] is the good
// release every step compares with, the last the bad one) for the first
// release where the metric moved beyond tolerance. It first judges the bad
// release: a move there sets the direction sought (REGRESSED or IMPROVED);
// no move, or no decision, ends the search. Then it halves the range
// between the last release known not to have moved and the first known to
// have moved. A step that cannot decide is never read as either: the search
// tries the untested release nearest the middle instead, and when none is
// left it says which releases the answer lies among. onStep, if set, sees
// every step as it completes. Like any bisection it assumes the metric moves
// once in the range; a release that moved and came back can hide.
func Bisect(ctx context.Context, releases []string, judge Judge, onStep func(Step)) (*Bisection, error) {
	if len(releases) < 2 {
		return nil, fmt.Errorf("bisect needs a good and a bad release, got %d release(s)", len(releases))
	}
	n := len(releases)
	b := &Bisection{Good: releases[0], Bad: releases[n-1], LastGood: releases[0]}
	step := func(i int) (Outcome, error) {
		p, err := judge(ctx, releases[i])
		if err != nil {
			return "", fmt.Errorf("bisect step %d (%s): %w", len(b.Steps)+1, releases[i], err)
		}
		s := Step{N: len(b.Steps) + 1, Release: releases[i], Point: p, Outcome: StepOutcome(p, b.Direction)}
		b.Steps = append(b.Steps, s)
		if onStep != nil {
			onStep(s)
		}
		return s.Outcome, nil
	}
	if _, err := step(n - 1); err != nil {
		return nil, err
	}
	switch st := b.Steps[0].Point.Status; b.Steps[0].Outcome {
	case Moved:
		b.Direction = st
	case Undecided:
		b.Message = fmt.Sprintf("%s against %s is inconclusive: cannot tell whether it moved, so there is nothing to search; run more pairs (raise pairs.max) or widen the tolerance", b.Bad, b.Good)
		return b, nil
	case NotMoved:
		b.Message = fmt.Sprintf("%s did not move beyond tolerance against %s (%s): nothing to search", b.Bad, b.Good, st)
		if st == compare.NotWorse {
			b.Message = fmt.Sprintf("%s did not move beyond tolerance against %s (NOT WORSE: no regression; an improvement beyond tolerance is not ruled out, and not shown either): nothing to search", b.Bad, b.Good)
		}
		return b, nil
	}
	lo, hi := 0, n-1
	tried := map[int]bool{n - 1: true}
	var undecided []int
	for hi-lo > 1 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		i := nextProbe(lo, hi, tried)
		if i < 0 {
			break
		}
		tried[i] = true
		o, err := step(i)
		if err != nil {
			return nil, err
		}
		switch o {
		case Moved:
			hi = i
		case NotMoved:
			lo = i
		default:
			undecided = append(undecided, i)
		}
	}
	b.LastGood = releases[lo]
	if hi-lo == 1 {
		b.First = releases[hi]
		b.Message = fmt.Sprintf("first release that %s: %s (the last that did not: %s)", verb(b.Direction), b.First, b.LastGood)
		return b, nil
	}
	b.Suspects = releases[lo+1 : hi+1]
	slices.Sort(undecided)
	for _, i := range undecided {
		if i > lo && i < hi {
			b.Undecided = append(b.Undecided, releases[i])
		}
	}
	b.Message = fmt.Sprintf("cannot name the first release that %s: the steps at %s were inconclusive, so it is one of %s; run more pairs (raise pairs.max) and bisect %s..%s again",
		verb(b.Direction), strings.Join(b.Undecided, ", "), strings.Join(b.Suspects, ", "), b.LastGood, releases[hi])
	return b, nil
}

// nextProbe is the untested release strictly between lo and hi nearest
// their middle (the lower one on a tie), or -1.
func nextProbe(lo, hi int, tried map[int]bool) int {
	mid := (lo + hi) / 2
	for d := 0; d < hi-lo; d++ {
		for _, i := range []int{mid - d, mid + d} {
			if i > lo && i < hi && !tried[i] {
				return i
			}
		}
	}
	return -1
}

// StepOutcome reads a step's status for the direction sought (none yet at
// the first step, which judges the bad release: any move counts): a move
// the other way is not the move sought; NOT WORSE rules out a regression
// but not an improvement.
func StepOutcome(p Point, dir compare.Status) Outcome {
	if dir == "" {
		switch p.Status {
		case compare.Regressed, compare.Improved:
			return Moved
		case compare.Unchanged, compare.NotWorse:
			return NotMoved
		}
		return Undecided
	}
	switch p.Status {
	case dir:
		return Moved
	case compare.Unchanged, compare.Regressed, compare.Improved:
		return NotMoved
	case compare.NotWorse:
		if dir == compare.Regressed {
			return NotMoved
		}
	}
	return Undecided
}

func verb(dir compare.Status) string {
	if dir == compare.Improved {
		return "improved"
	}
	return "regressed"
}

// WriteBisection prints the steps and the answer.
func WriteBisection(w io.Writer, metric string, b *Bisection) error {
	if b == nil {
		return errors.New("history: no bisection to print")
	}
	var sb strings.Builder
	fmt.Fprintln(&sb, BisectHeader(metric, b.Good, b.Bad))
	for _, s := range b.Steps {
		fmt.Fprintln(&sb, StepLine(s))
	}
	fmt.Fprintln(&sb, b.Message)
	_, err := io.WriteString(w, sb.String())
	return err
}

// BisectHeader is the line a bisection's printout starts with; its names
// print through report.Inert, as the history's do (a name cannot end the
// line or start one of its own).
func BisectHeader(metric, good, bad string) string {
	return fmt.Sprintf("bisect %s: good %s, bad %s", report.Inert(metric), report.Inert(good), report.Inert(bad))
}

// StepLine is one step as printed: release, change with interval, status, outcome.
func StepLine(s Step) string {
	return fmt.Sprintf("step %d  %-16s %-36s %-12s -> %s", s.N, s.Release, ratioText(s.Point), s.Point.Status, s.Outcome)
}

// ratioText is a point's ratio as a change with its interval: "+12.0% [+8.1%, +16.2%] (5 pairs)".
func ratioText(p Point) string {
	if !p.HasRatio() {
		return "no ratio: " + p.Note
	}
	if p.Reference {
		return "reference"
	}
	return fmt.Sprintf("%s [%s, %s] (%d pairs)", pctChange(p.Ratio), pctChange(p.Low), pctChange(p.High), p.Pairs)
}

// pctChange writes a ratio as a signed percentage change.
func pctChange(r float64) string {
	c := 100 * (r - 1)
	if math.Abs(c) < 0.05 {
		c = 0 // no "-0.0%"
	}
	return fmt.Sprintf("%+.1f%%", c)
}
