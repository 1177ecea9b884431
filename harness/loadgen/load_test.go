package loadgen

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// mapStore is an in-memory row store for exercising the generator, not a model of HBase.
type mapStore struct {
	mu   sync.Mutex
	rows map[int64]int // key number -> times inserted
}

func (m *mapStore) loader(failAt int64) func(int) (Loader, error) {
	return func(int) (Loader, error) {
		return LoaderFunc(func(_ context.Context, first, n int64, rec Recorder) error {
			for k := first; k < first+n; k++ {
				if k == failAt {
					return errors.New("region not serving")
				}
				s := time.Now()
				m.mu.Lock()
				m.rows[k]++
				m.mu.Unlock()
				st := workload.OK
				if k%1000 == 999 {
					st = workload.Error // a row the store refused: counted, not fatal
				}
				rec.Record(Insert, s, time.Now(), st)
			}
			return nil
		}), nil
	}
}

func TestLoadInsertsEveryRowOnce(t *testing.T) {
	store := &mapStore{rows: map[int64]int{}}
	var mu sync.Mutex
	var ps []LoadProgress
	var buf bytes.Buffer
	res, err := Load(context.Background(), LoadConfig{
		First: 500, Rows: 10_007, Workers: 4, BatchSize: 64, Tick: 5 * time.Millisecond, Hlog: &buf,
		NewLoader: store.loader(-1),
		Progress:  func(p LoadProgress) { mu.Lock(); ps = append(ps, p); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(store.rows) != 10_007 {
		t.Errorf("%d distinct rows stored, want 10007", len(store.rows))
	}
	for k := int64(500); k < 10_507; k++ {
		if store.rows[k] != 1 {
			t.Fatalf("row %d inserted %d times, want once", k, store.rows[k])
		}
	}
	ins := res.PerOp[Insert]
	if res.Ops != 10_007 || ins.Count() != 10_007 || ins.Status(workload.Error) != 10 || res.StoppedBy != "rows" {
		t.Errorf("rows %d, inserts %d, errors %d, stopped by %q; want 10007, 10007, 10, rows", res.Ops, ins.Count(), ins.Status(workload.Error), res.StoppedBy)
	}
	if len(ps) == 0 || ps[len(ps)-1].Rows != 10_007 || ps[len(ps)-1].Total != 10_007 {
		t.Errorf("progress %+v: want a last report of 10007 of 10007 rows", ps)
	}
	if !strings.Contains(buf.String(), "Tag=INSERT.intended,") {
		t.Errorf("load interval log lacks INSERT histograms")
	}
}

func TestLoadErrorStopsAndSaysWhere(t *testing.T) {
	store := &mapStore{rows: map[int64]int{}}
	res, err := Load(context.Background(), LoadConfig{Rows: 100_000, Workers: 3, BatchSize: 100, NewLoader: store.loader(250)})
	if err == nil || !strings.Contains(err.Error(), "rows 200..299") || !strings.Contains(err.Error(), "region not serving") {
		t.Fatalf("Load error = %v, want the failed batch and the cause", err)
	}
	if res == nil || res.Ops >= 100_000 {
		t.Errorf("load went on after a failed batch: %+v", res)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	store := &mapStore{rows: map[int64]int{}}
	for _, cfg := range []LoadConfig{
		{Rows: 10, NewLoader: store.loader(-1)},
		{Rows: 10, Workers: 1},
		{Rows: -1, Workers: 1, NewLoader: store.loader(-1)},
	} {
		if _, err := Load(context.Background(), cfg); err == nil {
			t.Errorf("Load(%+v) = nil error", cfg)
		}
	}
	res, err := Load(context.Background(), LoadConfig{Rows: 0, Workers: 2, NewLoader: store.loader(-1)})
	if err != nil || res.Ops != 0 {
		t.Errorf("load of 0 rows: %v, %v; want nothing done and no error", res, err)
	}
}
