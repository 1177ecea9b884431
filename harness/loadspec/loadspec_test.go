package loadspec

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

func TestClampRate(t *testing.T) {
	tests := []struct {
		name              string
		target, perServer float64
		servers           int
		want              float64
		wantErr           string
	}{
		{"no clamp keeps target", 50_000, 0, 0, 50_000, ""},
		{"clamp below target wins", 50_000, 10_000, 3, 30_000, ""},
		{"target below clamp wins", 5_000, 10_000, 3, 5_000, ""},
		{"unthrottled is clamped", 0, 10_000, 2, 20_000, ""},
		{"unthrottled without clamp stays unthrottled", 0, 0, 0, 0, ""},
		{"clamp needs servers", 1000, 10_000, 0, 0, "live region servers"},
		{"negative target", -1, 0, 0, 0, "target rate"},
		{"NaN target", math.NaN(), 0, 0, 0, "target rate"},
		{"negative clamp", 1, -3, 1, 0, "per-server rate clamp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ClampRate(tt.target, tt.perServer, tt.servers)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ClampRate(%v, %v, %d) error = %v, want one mentioning %q", tt.target, tt.perServer, tt.servers, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ClampRate(%v, %v, %d) = %v, %v; want %v", tt.target, tt.perServer, tt.servers, got, err, tt.want)
			}
		})
	}
}

func props(kv ...string) workload.Properties {
	p := workload.NewProperties()
	p.Set("recordcount", "1000", "test")
	p.Set("operationcount", "1000", "test")
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1], "test")
	}
	return p
}

func TestFromProperties(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    workload.Properties
		want Durability
		err  string
	}{
		{"defaults", props("columnfamily", "family"), UseDefault, ""},
		{"durability named", props("columnfamily", "family", "durability", " SKIP_WAL"), SkipWAL, ""},
		{"unknown durability", props("columnfamily", "family", "durability", "sync"), "", "durability=sync"},
		{"bad workload", props("columnfamily", "family", "fieldcount", "0"), "", "fieldcount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := FromProperties(tc.p)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("FromProperties = %v, want an error naming %q", err, tc.err)
				}
				return
			}
			if err != nil || s.Durability != tc.want || s.Family != "family" || s.Workload.RecordCount != 1000 {
				t.Fatalf("FromProperties = %+v, %v; want family, %s, 1000 rows", s, err, tc.want)
			}
			if err := s.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestSpecValidate(t *testing.T) {
	good, err := FromProperties(props("columnfamily", "family"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		bad  func(*Spec)
		want string
	}{
		{"no family", func(s *Spec) { s.Family = "" }, "column family"},
		{"unknown durability", func(s *Spec) { s.Durability = "sometimes" }, "durability=sometimes"},
		{"bad workload", func(s *Spec) { s.Workload.FieldCount = 0 }, "fieldcount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := good
			s.Name = "workloada"
			tc.bad(&s)
			if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "workloada") {
				t.Errorf("Validate = %v, want an error naming workloada and %q", err, tc.want)
			}
		})
	}
}

// A load host's task carries the spec as JSON: it must come back whole.
func TestSpecJSONRoundTrip(t *testing.T) {
	s, err := FromProperties(props("columnfamily", "cf", "durability", "ASYNC_WAL", "requestdistribution", "zipfian"))
	if err != nil {
		t.Fatal(err)
	}
	s.Name, s.Seed = "workloada", 42
	s.Schedule = loadgen.Schedule{TargetRate: 5000, Rate: 2000, Workers: 8, Warmup: time.Second, Duration: 30 * time.Second, MaxOps: 9}
	s.Insert = &loadgen.Inserts{Batch: 10, StopOnFailure: true}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Spec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s) {
		t.Errorf("after JSON:\n%+v\nwant\n%+v", back, s)
	}
	for _, key := range []string{`"target_rate":5000`, `"rate":2000`, `"threads":8`, `"measure":30000000000`, `"operationcount":9`, `"seed":42`, `"columnfamily":"cf"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("the spec's JSON lacks %s: %s", key, b)
		}
	}
}
