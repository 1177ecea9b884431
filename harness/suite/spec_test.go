package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadspec"
)

func specSuite(t *testing.T, yaml string) *Suite {
	t.Helper()
	dir := t.TempDir()
	w := "recordcount=10\noperationcount=10\nfieldcount=3\ntable=fromfile\ninsertproportion=0.5\nreadproportion=0.5\nupdateproportion=0\ndurability=ASYNC_WAL\n"
	if err := os.WriteFile(filepath.Join(dir, "w"), []byte(w), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Parse([]byte(yaml), dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A trial's spec carries the run section as typed values, the data spec
// winning over the workload file, the rate clamped to the live servers.
func TestTrialSpec(t *testing.T) {
	const base = `
workloads: [w]
data: {recordcount: 5000, fieldcount: 7, fieldlength: 20, columnfamily: cf}
run: {threads: 6, target: 1000, %s warmup: 2s, measure: 8s}
`
	for _, tc := range []struct {
		name    string
		clamp   string
		servers int
		rate    float64
		err     string
	}{
		{"no clamp", "", 0, 1000, ""},
		{"clamp above the target", "per_server_clamp: 600,", 2, 1000, ""},
		{"clamp below the target", "per_server_clamp: 300,", 2, 600, ""},
		{"clamp without a server count", "per_server_clamp: 300,", 0, 0, "live region servers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := specSuite(t, strings.Replace(base, "%s", tc.clamp, 1))
			l, err := s.TrialSpec("w", tc.servers)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("TrialSpec = %v, want an error naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := loadgen.Schedule{TargetRate: 1000, Rate: tc.rate, Workers: 6, Warmup: 2 * time.Second, Duration: 8 * time.Second}
			if l.Schedule != want {
				t.Errorf("schedule %+v, want %+v", l.Schedule, want)
			}
			c := l.Workload
			if c.RecordCount != 5000 || c.FieldCount != 7 || c.FieldLength != 20 || c.Table != "fromfile" || l.Family != "cf" || l.Durability != loadspec.AsyncWAL || l.Name != "w" {
				t.Errorf("spec %+v: want the data spec's 5000 rows of 7 fields of 20 bytes in cf, the file's table and durability", l)
			}
			// 1000 ops/s over 10 s size the insert key space: 10000 ops, half inserts, times 2.
			if c.OperationCount != 10000 || c.ExpectedNewKeys != 10000 {
				t.Errorf("operations %d, expected new keys %d; want 10000 and 10000", c.OperationCount, c.ExpectedNewKeys)
			}
		})
	}
}

func TestStepAndPreloadSpecs(t *testing.T) {
	s := specSuite(t, `
workloads: [w]
data: {recordcount: 1000, regions: 4}
load: {threads: 3, batch: 64}
run: {threads: 6, target: 1000, per_server_clamp: 10}
capacity: {threads: 12, warmup: 1s, measure: 4s}
`)
	step, err := s.StepSpec("w", 2000)
	if err != nil {
		t.Fatal(err)
	}
	if want := (loadgen.Schedule{TargetRate: 2000, Workers: 12, Warmup: time.Second, Duration: 4 * time.Second}); step.Schedule != want || step.Workload.OperationCount != 10000 {
		t.Errorf("step schedule %+v with %d operations, want %+v (no clamp) and 10000", step.Schedule, step.Workload.OperationCount, want)
	}
	pre, err := s.PreloadSpec()
	if err != nil {
		t.Fatal(err)
	}
	c := pre.Workload
	if pre.Insert == nil || pre.Insert.Batch != 64 || !pre.Insert.StopOnFailure || pre.Workers != 3 || pre.MaxOps != 16 || pre.TargetRate != 0 || pre.Seed != 1 {
		t.Errorf("preload %+v (insert %+v): want 16 unthrottled slots of 64 rows on 3 workers, stopping at a failure", pre.Schedule, pre.Insert)
	}
	if c.InsertStart != 0 || c.InsertCount != 1000 || c.RecordCount != 1000 {
		t.Errorf("preload inserts rows %d..+%d of %d, want every row", c.InsertStart, c.InsertCount, c.RecordCount)
	}
}

// A durability YCSB does not know is refused when the suite loads.
func TestParseRefusesUnknownDurability(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	_, err := Parse([]byte(minimal+"properties: {durability: sometimes}\n"), dir)
	if err == nil || !strings.Contains(err.Error(), "durability=sometimes") {
		t.Fatalf("Parse = %v, want the durability refused", err)
	}
}
