package binding

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadspec"
	"github.com/regress-hbase/regress/harness/workload"
)

func TestDurabilityNamesMapOntoTheClient(t *testing.T) {
	for in, want := range map[loadspec.Durability]hbase.Durability{"": hbase.UseDefault, loadspec.UseDefault: hbase.UseDefault,
		loadspec.SkipWAL: hbase.SkipWAL, loadspec.AsyncWAL: hbase.AsyncWAL, loadspec.SyncWAL: hbase.SyncWAL, loadspec.FsyncWAL: hbase.FsyncWAL} {
		if got, err := hbaseDurability(in); err != nil || got != want {
			t.Errorf("hbaseDurability(%q) = %v, %v; want %v", in, got, err, want)
		}
		if _, err := loadspec.ParseDurability(string(in)); err != nil {
			t.Errorf("loadspec does not know %q, which the binding maps: %v", in, err)
		}
	}
	if _, err := hbaseDurability("sync"); err == nil {
		t.Error("hbaseDurability(sync) accepted a value HBase does not know")
	}
}

// writes is a Client that keeps what was written where: enough to see which
// table, family and durability the built workers use, not HBase's behaviour.
type writes struct {
	mu   sync.Mutex
	rows map[string]hbase.Durability // table/family/row -> durability
}

func (w *writes) put(table string, row, family []byte, d hbase.Durability) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rows[table+"/"+string(family)+"/"+string(row)] = d
}

func (w *writes) Get(context.Context, string, []byte, []byte, [][]byte) (*hbase.Result, error) {
	return &hbase.Result{}, nil
}

func (w *writes) Put(_ context.Context, table string, row, family []byte, _ []hbase.Column, d hbase.Durability) error {
	w.put(table, row, family, d)
	return nil
}

func (w *writes) Delete(context.Context, string, []byte) error { return nil }

func (w *writes) Scan(context.Context, string, hbase.ScanOptions) ([]hbase.Result, error) {
	return nil, nil
}

func (w *writes) PutBatch(_ context.Context, table string, ms []hbase.Mutation, d hbase.Durability) error {
	for _, m := range ms {
		w.put(table, m.Row, m.Family, d)
	}
	return nil
}

func spec(t *testing.T, kv ...string) loadspec.Spec {
	t.Helper()
	p := workload.NewProperties()
	for _, kv := range [][2]string{{"recordcount", "100"}, {"operationcount", "100"}, {"table", "t1"}, {"columnfamily", "cf"}, {"durability", "SKIP_WAL"}} {
		p.Set(kv[0], kv[1], "test")
	}
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1], "test")
	}
	s, err := loadspec.FromProperties(p)
	if err != nil {
		t.Fatal(err)
	}
	s.Name, s.Seed = "test", 1
	return s
}

func TestNewRunBuildsTheLoadPath(t *testing.T) {
	tests := []struct {
		name   string
		spec   func(*testing.T) loadspec.Spec
		rows   int // rows written, each in t1/cf with SKIP_WAL
		counts map[workload.Op]int64
	}{
		{"load phase inserts every row once", func(t *testing.T) loadspec.Spec {
			s := spec(t)
			s.Schedule = loadgen.Schedule{Workers: 3, MaxOps: loadgen.LoadSlots(100, 7)}
			s.Insert = &loadgen.Inserts{Batch: 7, StopOnFailure: true}
			return s
		}, 100, map[workload.Op]int64{workload.Insert: 100}},
		{"run phase runs the mix", func(t *testing.T) loadspec.Spec {
			s := spec(t, "readproportion", "0", "updateproportion", "1")
			s.Schedule = loadgen.Schedule{Workers: 2, MaxOps: 50}
			return s
		}, -1, map[workload.Op]int64{workload.Update: 50}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &writes{rows: map[string]hbase.Durability{}}
			cfg, err := NewRun(c, tc.spec(t), workload.Share{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := loadgen.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			for op, n := range tc.counts {
				if o := res.PerOp[op]; o == nil || o.Status(workload.OK) != n {
					t.Errorf("%v: %+v, want %d OK", op, o, n)
				}
			}
			if tc.rows >= 0 && len(c.rows) != tc.rows {
				t.Errorf("%d rows written, want %d", len(c.rows), tc.rows)
			}
			for k, d := range c.rows {
				if !strings.HasPrefix(k, "t1/cf/") || d != hbase.SkipWAL {
					t.Fatalf("wrote %s with durability %v, want t1/cf/... with SKIP_WAL", k, d)
				}
			}
		})
	}
}

func TestNewRunRefusesWhatCannotRun(t *testing.T) {
	c := &writes{rows: map[string]hbase.Durability{}}
	for _, tc := range []struct {
		name  string
		spec  func(*loadspec.Spec)
		share workload.Share
		want  string
	}{
		{"bad workload", func(s *loadspec.Spec) { s.Workload.RequestDistribution = "gaussian" }, workload.Share{}, "requestdistribution"},
		{"bad durability", func(s *loadspec.Spec) { s.Durability = "WAL" }, workload.Share{}, "durability=WAL"},
		{"no family", func(s *loadspec.Spec) { s.Family = "" }, workload.Share{}, "column family"},
		{"a load phase shared", func(s *loadspec.Spec) { s.Insert = &loadgen.Inserts{Batch: 1} }, workload.Share{Index: 1, Of: 2}, "one process"},
		{"a share beyond the fleet", func(*loadspec.Spec) {}, workload.Share{Index: 2, Of: 2}, "load host 2 of 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := spec(t)
			tc.spec(&s)
			if _, err := NewRun(c, s, tc.share, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewRun = %v, want an error naming %q", err, tc.want)
			}
		})
	}
}

// Load hosts draw apart: host h's workers are seeded h<<32 away from host 0's.
func TestNewRunSeedsEachHostApart(t *testing.T) {
	keys := func(share workload.Share) []string {
		c := &writes{rows: map[string]hbase.Durability{}}
		s := spec(t, "readproportion", "0", "updateproportion", "1")
		s.Schedule = loadgen.Schedule{Workers: 1, MaxOps: 20, Duration: time.Minute}
		cfg, err := NewRun(c, s, share, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := loadgen.Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		var ks []string
		for k := range c.rows {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	a, again, b := keys(workload.Share{}), keys(workload.Share{}), keys(workload.Share{Index: 1, Of: 2})
	if !slices.Equal(a, again) {
		t.Errorf("one seed drew two key sets: %v and %v", a, again)
	}
	if slices.Equal(a, b) {
		t.Errorf("host 1 drew host 0's keys: %v", a)
	}
}
