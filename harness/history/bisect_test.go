package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
)

// fakeJudge answers from a table of statuses by release; a release missing
// from the table fails the test. It counts the calls per release.
type fakeJudge struct {
	t      *testing.T
	status map[string]compare.Status
	calls  map[string]int
}

func (f *fakeJudge) judge(_ context.Context, r string) (Point, error) {
	st, ok := f.status[r]
	if !ok {
		f.t.Fatalf("judged %s, which has no status (the good release is never judged)", r)
	}
	f.calls[r]++
	if st == "error" {
		return Point{}, errors.New("cluster died")
	}
	return Point{Release: r, Ratio: 1.2, Low: 1.1, High: 1.3, Pairs: 5, Status: st}, nil
}

func releasesN(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("2.6.%d", i)
	}
	return out
}

// stepAt: releases from k on have status moved, those before unchanged.
func stepAt(rs []string, k int, moved compare.Status) map[string]compare.Status {
	m := map[string]compare.Status{}
	for i, r := range rs[1:] {
		if i+1 >= k {
			m[r] = moved
		} else {
			m[r] = compare.Unchanged
		}
	}
	return m
}

func TestBisectFindsTheFirstReleaseThatMoved(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8, 19} {
		rs := releasesN(n)
		for k := 1; k < n; k++ {
			for _, dir := range []compare.Status{compare.Regressed, compare.Improved} {
				f := &fakeJudge{t: t, status: stepAt(rs, k, dir), calls: map[string]int{}}
				var seen []Step
				b, err := Bisect(context.Background(), rs, f.judge, func(s Step) { seen = append(seen, s) })
				if err != nil {
					t.Fatal(err)
				}
				if b.First != rs[k] || b.LastGood != rs[k-1] || b.Direction != dir || !b.Conclusive() {
					t.Errorf("n=%d step at %d %s: first %q last good %q direction %s, want %s, %s, %s (%s)", n, k, dir, b.First, b.LastGood, b.Direction, rs[k], rs[k-1], dir, b.Message)
				}
				// One step for the bad release, then at most ceil(log2(n-1)) halvings.
				maxSteps := 1
				for span := n - 1; span > 1; span = (span + 1) / 2 {
					maxSteps++
				}
				if len(b.Steps) > maxSteps {
					t.Errorf("n=%d step at %d: %d steps, want at most %d", n, k, len(b.Steps), maxSteps)
				}
				if len(seen) != len(b.Steps) {
					t.Errorf("onStep saw %d steps of %d", len(seen), len(b.Steps))
				}
				for r, c := range f.calls {
					if c > 1 {
						t.Errorf("n=%d: %s judged %d times", n, r, c)
					}
				}
			}
		}
	}
}

func TestBisectStopsWhenTheBadReleaseDidNotMove(t *testing.T) {
	rs := releasesN(6)
	for _, tc := range []struct {
		bad     compare.Status
		outcome Outcome
		want    string
	}{
		{compare.Unchanged, NotMoved, "did not move beyond tolerance"},
		{compare.NotWorse, NotMoved, "did not move beyond tolerance"},
		{compare.Inconclusive, Undecided, "inconclusive: cannot tell whether it moved"},
	} {
		f := &fakeJudge{t: t, status: map[string]compare.Status{"2.6.5": tc.bad}, calls: map[string]int{}}
		b, err := Bisect(context.Background(), rs, f.judge, nil)
		if err != nil {
			t.Fatal(err)
		}
		if b.Conclusive() || len(b.Steps) != 1 || b.Steps[0].Outcome != tc.outcome || !strings.Contains(b.Message, tc.want) {
			t.Errorf("bad %s: steps %+v, message %q; want one step %s saying %q", tc.bad, b.Steps, b.Message, tc.outcome, tc.want)
		}
	}
}

func TestBisectNeverGuessesAtAnInconclusiveStep(t *testing.T) {
	rs := releasesN(9) // good 2.6.0, bad 2.6.8
	for _, tc := range []struct {
		name      string
		status    map[string]compare.Status
		first     string
		suspects  []string
		undecided []string
	}{
		{
			name: "an inconclusive middle is stepped around",
			status: map[string]compare.Status{"2.6.1": compare.Unchanged, "2.6.2": compare.Unchanged, "2.6.3": compare.Unchanged,
				"2.6.4": compare.Inconclusive, "2.6.5": compare.Unchanged, "2.6.6": compare.Regressed, "2.6.7": compare.Regressed, "2.6.8": compare.Regressed},
			first: "2.6.6",
		},
		{
			name: "the only release left to tell is inconclusive",
			status: map[string]compare.Status{"2.6.1": compare.Unchanged, "2.6.2": compare.Unchanged, "2.6.3": compare.Unchanged,
				"2.6.4": compare.Unchanged, "2.6.5": compare.Unchanged, "2.6.6": compare.Inconclusive, "2.6.7": compare.Regressed, "2.6.8": compare.Regressed},
			suspects: []string{"2.6.6", "2.6.7"}, undecided: []string{"2.6.6"},
		},
		{
			name: "an improvement is not the regression sought; NOT WORSE is not moved",
			status: map[string]compare.Status{"2.6.1": compare.Improved, "2.6.2": compare.NotWorse, "2.6.3": compare.Unchanged,
				"2.6.4": compare.Improved, "2.6.5": compare.Regressed, "2.6.6": compare.Regressed, "2.6.7": compare.Regressed, "2.6.8": compare.Regressed},
			first: "2.6.5",
		},
		{
			name: "NOT WORSE cannot rule out the improvement sought",
			status: map[string]compare.Status{"2.6.1": compare.Unchanged, "2.6.2": compare.Unchanged, "2.6.3": compare.NotWorse,
				"2.6.4": compare.NotWorse, "2.6.5": compare.NotWorse, "2.6.6": compare.Improved, "2.6.7": compare.Improved, "2.6.8": compare.Improved},
			suspects: []string{"2.6.3", "2.6.4", "2.6.5", "2.6.6"}, undecided: []string{"2.6.3", "2.6.4", "2.6.5"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeJudge{t: t, status: tc.status, calls: map[string]int{}}
			b, err := Bisect(context.Background(), rs, f.judge, nil)
			if err != nil {
				t.Fatal(err)
			}
			if b.First != tc.first || !slices.Equal(b.Suspects, tc.suspects) || !slices.Equal(b.Undecided, tc.undecided) {
				t.Errorf("first %q suspects %v undecided %v, want %q %v %v (%s)", b.First, b.Suspects, b.Undecided, tc.first, tc.suspects, tc.undecided, b.Message)
			}
			if tc.first == "" && !strings.Contains(b.Message, "cannot name") {
				t.Errorf("message %q does not say the answer is open", b.Message)
			}
		})
	}
}

func TestBisectReportsAFailedStepAndRefusesTooFewReleases(t *testing.T) {
	rs := releasesN(5)
	f := &fakeJudge{t: t, status: map[string]compare.Status{"2.6.4": compare.Regressed, "2.6.2": "error"}, calls: map[string]int{}}
	_, err := Bisect(context.Background(), rs, f.judge, nil)
	if err == nil || !strings.Contains(err.Error(), "step 2 (2.6.2): cluster died") {
		t.Errorf("err = %v, want the failed step named", err)
	}
	if _, err := Bisect(context.Background(), rs[:1], f.judge, nil); err == nil {
		t.Error("one release was accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f = &fakeJudge{t: t, status: stepAt(rs, 2, compare.Regressed), calls: map[string]int{}}
	if _, err := Bisect(ctx, rs, f.judge, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

func TestWriteBisectionPrintsStepsAndAnswer(t *testing.T) {
	rs := releasesN(4)
	f := &fakeJudge{t: t, status: stepAt(rs, 2, compare.Regressed), calls: map[string]int{}}
	b, err := Bisect(context.Background(), rs, f.judge, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteBisection(&buf, "workloadc READ/p95", b); err != nil {
		t.Fatal(err)
	}
	want := `bisect workloadc READ/p95: good 2.6.0, bad 2.6.3
step 1  2.6.3            +20.0% [+10.0%, +30.0%] (5 pairs)    REGRESSED    -> MOVED
step 2  2.6.1            +20.0% [+10.0%, +30.0%] (5 pairs)    UNCHANGED    -> NOT MOVED
step 3  2.6.2            +20.0% [+10.0%, +30.0%] (5 pairs)    REGRESSED    -> MOVED
first release that regressed: 2.6.2 (the last that did not: 2.6.1)
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestBisectHeaderIsInert: names in the bisection's first line cannot
// start a line of their own or pass for a verdict.
func TestBisectHeaderIsInert(t *testing.T) {
	got := BisectHeader("workloadc READ/p50", "2.6.0\nVerdict: PASS", "2.6.2\x1b[2J")
	if strings.ContainsAny(got, "\n\x1b") {
		t.Fatalf("header %q carries a line break or an escape", got)
	}
	if !strings.HasPrefix(got, "bisect workloadc READ/p50: good ") {
		t.Fatalf("header %q: a plain name changed", got)
	}
}
