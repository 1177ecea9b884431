package job

import (
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
)

// TestMeasuredTimeCountsADuetsWindowOnce: JUnit's times are the wall time
// the measurement windows covered: a duet's two trials (one window on
// both sides) count once, interleaved trials each, gaps not at all.
func TestMeasuredTimeCountsADuetsWindowOnce(t *testing.T) {
	at := time.Date(2026, 12, 7, 2, 0, 0, 0, time.UTC)
	trial := func(w string, start time.Duration, ms int64) results.Trial {
		return results.Trial{Workload: w, Start: at.Add(start), DurationMillis: ms}
	}
	bm := &results.Manifest{Trials: []results.Trial{trial("a", 0, 10000), trial("a", time.Minute, 10000), trial("b", 0, 5000)}}
	cm := &results.Manifest{Trials: []results.Trial{trial("a", 0, 10000), trial("a", time.Minute+20*time.Second, 10000), trial("b", 2*time.Second, 1000)}}
	got := measuredTime(bm, cm, nil)
	if got["a"] != 30*time.Second || got["b"] != 5*time.Second || len(got) != 2 {
		t.Errorf("measured %v, want a 30s (a duet's window once, two interleaved), b 5s (one window inside another)", got)
	}
}
