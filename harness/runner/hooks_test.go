package runner

import (
	"testing"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// TestHooksForRegistersWhatTheTrialAsks: every counted trial gets the
// counts probe (before and closed, never window); the profiled pair the
// flight recorder alone; a run that does not profile the counts probe on
// every pair. The trial is described to the probes as the side and the
// run have it.
func TestHooksForRegistersWhatTheTrialAsks(t *testing.T) {
	r := &Runner{Profile: true}
	s := &side{}
	for _, pair := range []int{0, 3} {
		hs := r.hooksFor(s, "workloadc", "t", pair)
		if len(hs) != 1 || hs[0].Window != nil || hs[0].Before == nil || hs[0].Closed == nil {
			t.Errorf("pair %d: want the counts probe alone, reading before and after the window, never across it", pair)
		}
	}
	if hs := r.hooksFor(s, "workloadc", "t", profilePair); len(hs) != 1 || hs[0].Window == nil || hs[0].Stored == nil || hs[0].Closed != nil {
		t.Errorf("the profiled pair: want the flight recorder alone (window and stored phases)")
	}
	if hs := (&Runner{}).hooksFor(s, "w", "t", profilePair); len(hs) != 1 || hs[0].Window != nil || hs[0].Closed == nil {
		t.Errorf("a run that does not profile: want the counts probe alone on every pair")
	}
	// Servers profiled over JMX get their recorders started ahead of the
	// idle watch: the probe sees the side's servers.
	store, err := results.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r = &Runner{Profile: true, Store: store, RunID: "run", Suite: &suite.Suite{}}
	jmx := &side{t: &sut.Target{Name: "cand", Servers: servercost.Servers{{Name: "rs", JMXRemote: "rs1:9999"}}}}
	if hs := r.hooksFor(jmx, "workloadc", "t", profilePair); len(hs) != 1 || hs[0].Before == nil || hs[0].Window == nil || hs[0].Closed != nil {
		t.Errorf("the profiled pair over JMX: want the recorder prepared before, recording across the window, nothing after")
	}
}
