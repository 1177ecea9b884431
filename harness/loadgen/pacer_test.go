package loadgen

import (
	"github.com/regress-hbase/regress/harness/workload"
	"math"
	"testing"
	"time"
)

func TestConstantPacerDue(t *testing.T) {
	tests := []struct {
		name string
		rate float64
		hits uint64
		want time.Duration
	}{
		{"first op is due at once", 1000, 0, 0},
		{"1k ops/s spaces ops 1ms apart", 1000, 1, time.Millisecond},
		{"1k ops/s op 10000 at 10s", 1000, 10000, 10 * time.Second},
		{"100k ops/s spaces ops 10us apart", 100_000, 3, 30 * time.Microsecond},
		{"fractional rate", 0.5, 3, 6 * time.Second},
		{"non-integer interval rounds down to ns", 3, 1, 333_333_333 * time.Nanosecond},
		{"unthrottled is always due", 0, 1_000_000, 0},
		{"negative rate is unthrottled", -5, 10, 0},
		{"far future saturates", 1e-9, math.MaxUint64, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (ConstantPacer{Rate: tt.rate}).Due(tt.hits); got != tt.want {
				t.Errorf("Due(%d) at %v ops/s = %v, want %v", tt.hits, tt.rate, got, tt.want)
			}
		})
	}
}

func TestConstantPacerPace(t *testing.T) {
	p := ConstantPacer{Rate: 100} // one op every 10ms
	tests := []struct {
		name     string
		elapsed  time.Duration
		hits     uint64
		wantWait time.Duration
	}{
		{"ahead of schedule waits for the op's slot", 0, 1, 10 * time.Millisecond},
		{"partway to the slot waits the rest", 4 * time.Millisecond, 1, 6 * time.Millisecond},
		{"exactly due runs now", 20 * time.Millisecond, 2, 0},
		{"behind schedule runs back to back", time.Second, 5, 0},
		{"far ahead waits long", 0, 100, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wait, stop := p.Pace(tt.elapsed, tt.hits)
			if wait != tt.wantWait || stop {
				t.Errorf("Pace(%v, %d) = %v, %v; want %v, false", tt.elapsed, tt.hits, wait, stop, tt.wantWait)
			}
		})
	}
}

// TestConstantPacerSimulatedRate drives the pacer with a simulated clock, a
// worker that sleeps exactly as told and ops of a fixed cost, and checks the
// number of ops started in 10 s is the rate times 10 s.
func TestConstantPacerSimulatedRate(t *testing.T) {
	for _, tc := range []struct {
		rate   float64
		opCost time.Duration
	}{
		{1000, 0}, {10_000, 50 * time.Microsecond}, {100_000, 5 * time.Microsecond}, {333, time.Millisecond},
	} {
		p := ConstantPacer{Rate: tc.rate}
		var now time.Duration
		var hits uint64
		for {
			wait, _ := p.Pace(now, hits)
			now += wait
			if now >= 10*time.Second {
				break
			}
			hits++
			now += tc.opCost
		}
		want := uint64(math.Ceil(tc.rate * 10))
		if hits != want {
			t.Errorf("rate %v with op cost %v: %d ops started in 10s, want %d", tc.rate, tc.opCost, hits, want)
		}
	}
}

// TestConstantPacerCatchUp checks a worker that stalls runs back to back until
// it is on schedule again, with no cap on catch-up, and loses no slots.
func TestConstantPacerCatchUp(t *testing.T) {
	p := ConstantPacer{Rate: 100}
	now := 500 * time.Millisecond // stalled half a second before op 1
	hits := uint64(1)
	backToBack := 0
	for ; ; hits++ {
		wait, _ := p.Pace(now, hits)
		if wait > 0 {
			break
		}
		backToBack++
		now += 100 * time.Microsecond
	}
	// Ops 1..50 were due by 500ms; at 0.1ms each they end at 505ms, before op 51 is due (510ms).
	if backToBack != 50 {
		t.Errorf("ran %d ops back to back after a 500ms stall at 100 ops/s, want 50", backToBack)
	}
}

// stopAfter is a pacer that ends the schedule after n ops, to check Run honours stop.
type stopAfter struct {
	ConstantPacer
	n uint64
}

func (p stopAfter) Pace(elapsed time.Duration, hits uint64) (time.Duration, bool) {
	w, _ := p.ConstantPacer.Pace(elapsed, hits)
	return w, hits >= p.n
}

func TestRunHonoursPacerStop(t *testing.T) {
	res := mustRun(t, Config{Schedule: Schedule{Workers: 3, Duration: time.Minute}, Pacer: stopAfter{ConstantPacer{Rate: 2000}, 77}, NewWorker: noop(workload.Read)})
	if res.Ops != 77 || res.StoppedBy != "pacer" {
		t.Errorf("ran %d ops, stopped by %q; want 77 and pacer", res.Ops, res.StoppedBy)
	}
}
