package suite

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func parseCapacity(t *testing.T, section string) (*Suite, error) {
	t.Helper()
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	return Parse([]byte("workloads: [workloada, workloadc]\ndata: {recordcount: 1000}\n"+section), scen)
}

func TestCapacitySectionDefaultsWhenAbsent(t *testing.T) {
	s, err := parseCapacity(t, "")
	if err != nil {
		t.Fatal(err)
	}
	c := s.Capacity
	if c == nil || c.SLOP50 != 5*time.Millisecond || c.SLOP99 != 0 || c.Factor != 2 || c.Pairs != 3 || len(c.Workloads) != 2 || c.Threads != s.Run.Threads {
		t.Errorf("defaults: %+v", c)
	}
}

func TestCapacitySectionParsesEveryKey(t *testing.T) {
	s, err := parseCapacity(t, `capacity:
  workloads: [workloadc]
  rates: [100, 200, 400]
  max_rate: 300
  slo_p99: 5ms
  resolution: 5%
  tolerance: 8%
  warmup: 1s
  measure: 4s
  pairs: 4
  budget: 2m
  threads: 16
`)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Capacity
	if c.SLOP99 != 5*time.Millisecond || c.Resolution != 0.05 || c.Tolerance != 0.08 || c.Budget != 2*time.Minute || c.Pairs != 4 || c.Threads != 16 || len(c.Rates) != 3 || c.Workloads[0] != "workloadc" {
		t.Errorf("parsed %+v", c)
	}
}

func TestCapacitySectionRejectsBadValuesWithWhatToDo(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"capacity: {workloads: [workloadb]}", "not one of the suite's workloads"},
		{"capacity: {factor: 1}", "factor must exceed 1"},
		{"capacity: {rates: [400, 200]}", "ascending order"},
		{"capacity: {slo_p99: fast}", "slo_p99"},
		{"capacity: {tolerance: 5%, resolution: 10%}", "finer than resolution"},
		{"capacity: {budget: 0s}", "budget"},
		{"capacity: {start: 9000, max_rate: 1000}", "above max_rate"},
		{"capacity: {knee: 5}", "knee"},
	} {
		_, err := parseCapacity(t, tc.yaml)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.yaml, err, tc.want)
		}
	}
}

func TestShippedCapacitySuiteLoads(t *testing.T) {
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	s, err := Load(filepath.Join(scen, "suites", "capacity.yaml"), scen)
	if err != nil {
		t.Fatal(err)
	}
	if s.Capacity.Budget != 6*time.Minute || len(s.Capacity.Workloads) != 2 {
		t.Errorf("capacity suite: %+v", s.Capacity)
	}
}

// TestCapacitySLOs: the median SLO is the default, the p99 one optional,
// and a section that turns both off is refused.
func TestCapacitySLOs(t *testing.T) {
	s, err := parseCapacity(t, "capacity:\n  slo_p99: 10ms\n  slo_p50: 0s\n")
	if err != nil || s.Capacity.SLOP99 != 10*time.Millisecond || s.Capacity.SLOP50 != 0 {
		t.Errorf("p99 only: %v, %+v", err, s)
	}
	if _, err := parseCapacity(t, "capacity:\n  slo_p50: 0s\n"); err == nil || !strings.Contains(err.Error(), "both off") {
		t.Errorf("both SLOs off: %v, want refused", err)
	}
	if _, err := parseCapacity(t, "capacity:\n  slo_p50: -1ms\n"); err == nil {
		t.Error("a negative median SLO was accepted")
	}
}
