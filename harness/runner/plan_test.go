package runner

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// TestThePlanCountsAsTheReportDoes: the release suite's plan on two sides
// (before the clusters start) holds its counted trials as the report
// counts them, the warm-up and profiled ones apart; each trial announced is
// numbered among its own kind, a duet's two sides one after the other.
func TestThePlanCountsAsTheReportDoes(t *testing.T) {
	s, err := suite.Named(suite.Folder(filepath.Join("..", "..", "scenarios")), "release")
	if err != nil {
		t.Fatal(err)
	}
	var events []Event
	r := &Runner{Suite: s, Profile: true, OnEvent: func(e Event) { events = append(events, e) }}
	p := r.Plan(2)
	if want := (Plan{Warmup: 24, Counted: 96, Profiled: 12, Sides: 2, PerSlot: 2, Window: 13 * time.Second}); p != want {
		t.Fatalf("release plan %+v, want %+v", p, want)
	}
	r.setPlan(p)
	a, b := &side{t: &sut.Target{Name: "2.6.0"}}, &side{t: &sut.Target{Name: "2.6.1"}}
	for _, pair := range []int{-1, 0, 0, profilePair} {
		r.announce(a, "workloada", pair, "duet")
		r.announce(b, "workloada", pair, "duet")
	}
	type got struct {
		kind          string
		trial, trials int
	}
	var trials []got
	for _, e := range events {
		if e.Phase == "trial" {
			trials = append(trials, got{e.Kind, e.Trial, e.Trials})
		}
	}
	want := []got{{KindWarmup, 1, 24}, {KindWarmup, 2, 24}, {KindCounted, 1, 96}, {KindCounted, 2, 96}, {KindCounted, 3, 96}, {KindCounted, 4, 96}, {KindProfiled, 1, 12}, {KindProfiled, 2, 12}}
	if len(trials) != len(want) {
		t.Fatalf("events %+v", trials)
	}
	for i := range want {
		if trials[i] != want[i] {
			t.Errorf("trial %d: %+v, want %+v", i, trials[i], want[i])
		}
	}
	if a.kind != KindProfiled || a.number != 1 || b.number != 2 {
		t.Errorf("a side's trial in progress: %s %d, %d", a.kind, a.number, b.number)
	}
	r.stored = 4
	r.done("")
	last := events[len(events)-1]
	if last.Phase != "done" || last.Trial != 4 || last.Plan.Warmup != 2 || last.Plan.Profiled != 2 {
		t.Errorf("done event %+v %+v: want the counted trials stored and the others as run", last, last.Plan)
	}
}
