package progress

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/runner"
)

// releasePlan is the release suite's plan on two sides: 6 workloads, 8
// duet pairs, two warm-up rounds at most, one profiled pair each, 13 s of
// windows a trial.
var releasePlan = runner.Plan{Warmup: 24, Counted: 96, Profiled: 12, Sides: 2, PerSlot: 2, Window: 13 * time.Second}

// TestAnEstimateBeforeTheFirstTrial: the plan is shown, with its estimate,
// before any trial runs (the run said nothing for 2m39s), and its
// counts are the report's (counted trials) with the others named apart.
func TestAnEstimateBeforeTheFirstTrial(t *testing.T) {
	var logs bytes.Buffer
	pr := New(&bytes.Buffer{}, false, slog.New(slog.NewJSONHandler(&logs, nil)))
	p := releasePlan
	pr.Event(runner.Event{Phase: "plan", Plan: &p})
	pr.Event(runner.Event{Phase: "plan", Plan: &p}) // the same plan again: shown once
	var rec struct {
		Msg, Estimate string
		Counted       int
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil || len(lines) != 1 {
		t.Fatalf("%d lines: %s", len(lines), logs.String())
	}
	// 12 warm-up and 48 counted slots of 16.5 s, 6 profiled of 36.5 s and the recorders' first start.
	want := 60*16500*time.Millisecond + 6*36500*time.Millisecond + 35*time.Second
	if p.Estimate() != want || rec.Estimate != want.String() || rec.Counted != 96 ||
		rec.Msg != "plan: 96 counted trials (48 a side), up to 24 warm-up, 12 profiled; about 21 min of trials" {
		t.Errorf("plan line %+v, estimate %v, want %v", rec, p.Estimate(), want)
	}
}

// TestTheEstimateKeepsToThePlan: the time left follows the plan, the
// profiled pairs included at their own (slower) pace: a run keeping to
// its plan is told the plan's time left at every slot, the profiled pairs'
// minutes when they begin (the run said 2m12s for the last 4m56s);
// one slow first slot moves it a little, a run going 1.5 times slower
// throughout is told 1.5 times the plan.
func TestTheEstimateKeepsToThePlan(t *testing.T) {
	at := time.Date(2026, 12, 7, 2, 22, 36, 0, time.UTC)
	run := func(slow func(kind string, n int) float64, check func(kind string, n int, left, planLeft time.Duration)) {
		p := pace{plan: releasePlan}
		now := at
		elapsedPlan := time.Duration(0)
		for _, k := range runner.Kinds {
			for n := 1; n <= releasePlan.Slots(k); n++ {
				p.start(k, 2*n-1, now)
				p.start(k, 2*n, now) // the duet's other side: the same slot
				left, ok := p.left(now)
				if !ok {
					t.Fatal("no estimate once a trial started")
				}
				check(k, n, left, releasePlan.Estimate()-elapsedPlan)
				d := releasePlan.SlotTimeAt(k, n)
				elapsedPlan += d
				now = now.Add(time.Duration(slow(k, n) * float64(d)))
			}
		}
	}
	near := func(got, want time.Duration) bool {
		return got > want-want/50-time.Second && got < want+want/50+time.Second
	}
	run(func(string, int) float64 { return 1 }, func(k string, n int, left, planLeft time.Duration) {
		if !near(left, planLeft) {
			t.Errorf("on plan, %s slot %d: %v left, the plan's %v", k, n, left, planLeft)
		}
		if k == runner.KindProfiled && n == 1 && left < 4*time.Minute {
			t.Errorf("the profiled pairs begin with %v left, want their 4 minutes", left)
		}
	})
	run(func(k string, n int) float64 {
		if k == runner.KindWarmup && n == 1 {
			return 2
		}
		return 1
	}, func(k string, n int, left, planLeft time.Duration) {
		if k == runner.KindWarmup && n == 2 && (left > planLeft*13/10 || left < planLeft) {
			t.Errorf("one slow first slot: %v left, the plan's %v; want within 30%% above", left, planLeft)
		}
	})
	run(func(string, int) float64 { return 1.5 }, func(k string, n int, left, planLeft time.Duration) {
		if k == runner.KindCounted && n == 40 && (left < planLeft*14/10 || left > planLeft*16/10) {
			t.Errorf("1.5 times slower, counted slot 40: %v left, the plan's %v", left, planLeft)
		}
	})
}

// TestDoneSaysTheReportsCounts: the end line counts the trials the report
// counts (the run said 136 against the report's 50 vs 50) and
// names the warm-up and profiled ones apart.
func TestDoneSaysTheReportsCounts(t *testing.T) {
	var logs bytes.Buffer
	pr := New(&bytes.Buffer{}, false, slog.New(slog.NewJSONHandler(&logs, nil)))
	p := releasePlan
	p.Counted = 100
	pr.Event(runner.Event{Phase: "done", Kind: runner.KindCounted, Trial: 100, Trials: 100, Plan: &p})
	if !strings.Contains(logs.String(), `"msg":"done: 100 counted trials (50 a side), 24 warm-up, 12 profiled"`) {
		t.Errorf("done line: %s", logs.String())
	}
}
