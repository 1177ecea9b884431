package section

import (
	"strings"
	"testing"
	"time"
)

func TestNormaliseFillsDefaultsFromTheSuite(t *testing.T) {
	c := Defaults()
	if err := c.Normalise([]string{"workloada", "workloadc"}, 16); err != nil {
		t.Fatal(err)
	}
	if len(c.Workloads) != 2 || c.Threads != 16 || c.Pairs != 3 || c.SLOP50 != 5*time.Millisecond || c.SLOP99 != 0 {
		t.Errorf("normalised defaults: %+v", c)
	}
	var empty Capacity // nothing written: the zero fields the reader left untyped get defaults too
	empty.SLOP50, empty.Resolution, empty.Measure, empty.Budget, empty.Tolerance = time.Millisecond, 0.1, time.Second, time.Minute, 0.1
	if err := empty.Normalise([]string{"workloada"}, 4); err != nil || empty.StartOpsPerSec != 500 || empty.Factor != 2 || empty.MaxOpsPerSec != 50000 {
		t.Errorf("%+v, %v", empty, err)
	}
}

func TestNormaliseNamesEveryBrokenRuleByItsKey(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Capacity)
		want string
	}{
		{"workload outside the suite", func(c *Capacity) { c.Workloads = []string{"workloadb"} }, "capacity.workloads: \"workloadb\" is not one of the suite's workloads"},
		{"factor", func(c *Capacity) { c.Factor = 1 }, "capacity.factor: each step must raise the rate"},
		{"rates unsorted", func(c *Capacity) { c.Rates = []float64{400, 200} }, "capacity.rates: list positive rates in ascending order"},
		{"rate twice", func(c *Capacity) { c.Rates = []float64{200, 200} }, "capacity.rates: 200 is listed twice"},
		{"start above ceiling", func(c *Capacity) { c.StartOpsPerSec, c.MaxOpsPerSec = 9000, 1000 }, "capacity.start (9000 ops/s) is above max_rate"},
		{"no SLO", func(c *Capacity) { c.SLOP50, c.SLOP99 = 0, 0 }, "slo_p50 and slo_p99 are both off"},
		{"negative SLO", func(c *Capacity) { c.SLOP99 = -time.Millisecond }, "capacity.slo_p99: must be 0s (off) or longer"},
		{"no resolution", func(c *Capacity) { c.Resolution = 0 }, "capacity.resolution: must be above 0%"},
		{"negative threads", func(c *Capacity) { c.Threads = -1 }, "capacity.threads: must be positive"},
		{"no measurement", func(c *Capacity) { c.Measure = 0 }, "capacity.measure: must be longer than 0s"},
		{"negative pairs", func(c *Capacity) { c.Pairs = -2 }, "capacity.pairs: at least 1 search a side"},
		{"no budget", func(c *Capacity) { c.Budget = 0 }, "capacity.budget: must be longer than 0s"},
		{"tolerance finer than the grid", func(c *Capacity) { c.Tolerance, c.Resolution = 0.05, 0.10 }, "capacity.tolerance (5%) is finer than resolution (10%)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Defaults()
			tc.edit(&c)
			err := c.Normalise([]string{"workloada", "workloadc"}, 8)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want it to say %q", err, tc.want)
			}
		})
	}
}
