package metric

import (
	"math"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// TestEveryRowIsComplete walks the catalogue: each row has one name, a known
// unit and direction, exactly the reading its scope needs and, when a suite
// may gate on it, a default tolerance inside its own allowed range; and
// reading a trial through it gives the figure the trial stores.
func TestEveryRowIsComplete(t *testing.T) {
	trial := &results.Trial{
		AchievedOpsPerSec: 950,
		Ops: map[string]results.OpStats{"READ": {Intended: results.Latency{
			P50Micros: 50, P95Micros: 95, P99Micros: 99, P999Micros: 999, MeanMicros: 60, MinMicros: 1, MaxMicros: 5000}}},
		Server: &results.ServerStats{CPUPerOpMicros: 12, CPUSource: "request threads", AllocPerOpBytes: 4096, AllocSource: "agent", ProcessCPUPerOpMicros: 20},
	}
	want := map[string]struct {
		unit   string
		worse  Direction
		scope  Scope
		tol    float64
		value  float64
		source string
	}{
		P50:             {Micros, WorseHigher, PerOp, 0.05, 50, ""},
		P95:             {Micros, WorseHigher, PerOp, 0.10, 95, ""},
		P99:             {Micros, WorseHigher, PerOp, 0.10, 99, ""},
		P999:            {Micros, WorseHigher, PerOp, 0.20, 999, ""},
		Mean:            {Micros, WorseHigher, PerOp, 0.05, 60, ""},
		Min:             {Micros, WorseHigher, PerOp, 0, 1, ""},
		Max:             {Micros, WorseHigher, PerOp, 0, 5000, ""},
		Throughput:      {OpsPerSec, WorseLower, PerTrial, 0.05, 950, ""},
		CPUPerOp:        {Micros, WorseHigher, Server, 0.10, 12, "request threads"},
		AllocPerOp:      {Bytes, WorseHigher, Server, 0.10, 4096, "agent"},
		ProcessCPUPerOp: {Micros, WorseHigher, Server, 0.10, 20, "process"},
		Capacity:        {OpsPerSec, WorseLower, Sweep, 0, 0, ""},
	}
	if len(All()) != len(want) {
		t.Errorf("catalogue has %d rows, the test knows %d: add the new row here", len(All()), len(want))
	}
	seen := map[string]bool{}
	for _, m := range All() {
		t.Run(m.Name, func(t *testing.T) {
			if seen[m.Name] {
				t.Fatalf("%s has two rows", m.Name)
			}
			seen[m.Name] = true
			w, ok := want[m.Name]
			if !ok {
				t.Fatalf("row %s is not in the test's table", m.Name)
			}
			if m.Unit != w.unit || m.Worse != w.worse || m.Scope != w.scope || m.Tolerance != w.tol {
				t.Errorf("row = unit %q worse %v scope %v tolerance %v; want %q %v %v %v", m.Unit, m.Worse, m.Scope, m.Tolerance, w.unit, w.worse, w.scope, w.tol)
			}
			if (m.Op != nil) != (m.Scope == PerOp) || (m.Trial != nil) != (m.Scope == PerTrial || m.Scope == Server) || (m.Source != nil) != (m.Scope == Server) {
				t.Errorf("scope %v with readings op=%v trial=%v source=%v", m.Scope, m.Op != nil, m.Trial != nil, m.Source != nil)
			}
			if got := m.Value(trial, "READ"); got != w.value {
				t.Errorf("Value = %v, want %v", got, w.value)
			}
			if q := map[string]float64{P50: 0.50, P95: 0.95, P99: 0.99, P999: 0.999}[m.Name]; m.Quantile != q {
				t.Errorf("Quantile = %v, want %v", m.Quantile, q)
			}
			if m.Scope == PerOp && m.Value(trial, "UPDATE") != 0 {
				t.Error("an operation the trial did not record must read 0")
			}
			if m.Scope == Server {
				if got := m.Source(trial.Server); got != w.source {
					t.Errorf("Source = %q, want %q", got, w.source)
				}
				if m.Value(&results.Trial{}, "") != 0 {
					t.Error("a trial without server figures must read 0")
				}
			}
			if IsMetric(m.Name) != m.Gated() {
				t.Errorf("IsMetric = %v but Gated = %v", IsMetric(m.Name), m.Gated())
			}
			if !m.Gated() {
				if err := CheckTolerance(m.Name, 0.10); err == nil {
					t.Error("a metric no suite gates on accepted a tolerance")
				}
				return
			}
			if DefaultTolerances()[m.Name] != m.Tolerance {
				t.Errorf("DefaultTolerances()[%s] = %v, want %v", m.Name, DefaultTolerances()[m.Name], m.Tolerance)
			}
			for _, tc := range []struct {
				v  float64
				ok bool
			}{
				{m.Tolerance, true}, {m.MaxTolerance, true}, {0.001, true},
				{0, false}, {-0.1, false}, {math.NaN(), false}, {m.MaxTolerance * 1.01, false},
			} {
				if err := CheckTolerance(m.Name, tc.v); (err == nil) != tc.ok {
					t.Errorf("CheckTolerance(%v) = %v, want ok %v", tc.v, err, tc.ok)
				}
			}
		})
	}
}

// TestToleranceAdviceSaysTheRangeAndTheDirection: the refusal of 150%
// names it as a percentage, the range, and what it would let pass in the
// metric's worse direction.
func TestToleranceAdviceSaysTheRangeAndTheDirection(t *testing.T) {
	for _, tc := range []struct {
		metric string
		v      float64
		want   string
	}{
		{P99, 1.5, "150% is outside p99's allowed tolerances, above 0% up to 100%: a larger tolerance would let p99 more than double and still pass"},
		{Throughput, 2, "200% is outside throughput's allowed tolerances, above 0% up to 100%: a larger tolerance would let throughput fall below half"},
		{P50, 0, "0% is outside p50's allowed tolerances"},
		{"p42", 0.1, `unknown metric "p42"; known metrics: p50, p95, p99, p99.9, mean, throughput, cpu_per_op, alloc_per_op, process_cpu_per_op`},
		{Capacity, 0.1, "unknown metric"},
	} {
		err := CheckTolerance(tc.metric, tc.v)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckTolerance(%s, %v) = %v, want %q", tc.metric, tc.v, err, tc.want)
		}
	}
}

func TestDefaultTolerancesAreACopy(t *testing.T) {
	d := DefaultTolerances()
	d[P99] = 0.5
	if DefaultTolerances()[P99] != 0.10 {
		t.Error("changing the returned map changed the defaults")
	}
	for _, m := range Metrics {
		if _, ok := d[m]; !ok {
			t.Errorf("no default tolerance for %s", m)
		}
	}
}

// TestDerivedListsKeepTheirOrder: the lists other packages iterate are the
// catalogue's, in the order reports show them.
func TestDerivedListsKeepTheirOrder(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want []string
	}{
		{"Metrics", Metrics, []string{P50, P95, P99, P999, Mean, Throughput, CPUPerOp, AllocPerOp, ProcessCPUPerOp}},
		{"LatencyMetrics", LatencyMetrics, []string{P50, P95, P99, P999, Mean}},
		{"EfficiencyMetrics", EfficiencyMetrics, []string{CPUPerOp, AllocPerOp, ProcessCPUPerOp}},
		{"Names(PerOp)", Names(PerOp), []string{P50, P95, P99, P999, Mean, Min, Max}},
	} {
		if strings.Join(tc.got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if Rank(P999) >= Rank(Throughput) || Rank(Throughput) >= Rank(CPUPerOp) || Rank("nosuch") <= Rank(Capacity) {
		t.Error("Rank does not follow the catalogue's order")
	}
}
