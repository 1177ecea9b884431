package loadgen

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// memDB is a map store for exercising the generator with a real workload; it
// models no HBase behaviour beyond "a row read or updated must exist".
type memDB struct {
	mu   sync.RWMutex
	rows map[string]int // key -> fields stored
}

func (m *memDB) has(key string) workload.Status {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if _, ok := m.rows[key]; ok {
		return workload.OK
	}
	return workload.NotFound
}

func (m *memDB) Read(_ context.Context, _, key string, _ []string) workload.Status { return m.has(key) }
func (m *memDB) Scan(_ context.Context, _, key string, n int, _ []string) workload.Status {
	if n <= 0 {
		return workload.Error
	}
	return m.has(key)
}
func (m *memDB) Update(_ context.Context, _, key string, v []workload.Field) workload.Status {
	if len(v) == 0 {
		return workload.Error
	}
	return m.has(key)
}
func (m *memDB) Insert(_ context.Context, _, key string, v []workload.Field) workload.Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rows[key] = len(v)
	return workload.OK
}
func (m *memDB) Delete(_ context.Context, _, key string) workload.Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.rows, key)
	return workload.OK
}

// TestRealWorkloadsAgainstMapStore loads each of YCSB's core workloads A-F
// through Load and runs it through Run: every loaded key is found, and the
// operation mix matches the workload's proportions.
func TestRealWorkloadsAgainstMapStore(t *testing.T) {
	for _, name := range []string{"workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf"} {
		t.Run(name, func(t *testing.T) {
			p, err := workload.LoadPropertiesFile(filepath.Join("..", "..", "scenarios", name))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []string{"recordcount=2000", "operationcount=4000"} {
				if err := p.ParseOverride(o); err != nil {
					t.Fatal(err)
				}
			}
			wl, err := workload.New(p)
			if err != nil {
				t.Fatal(err)
			}
			db := &memDB{rows: map[string]int{}}
			newDB := func(int) (workload.DB, error) { return db, nil }
			_, rows := wl.LoadRange()
			lres, err := Run(context.Background(), Config{Schedule: Schedule{Workers: 3, MaxOps: LoadSlots(rows, 50)}, NewWorker: InsertRows(wl, newDB, 1, Inserts{Batch: 50})})
			if err != nil {
				t.Fatal(err)
			}
			if lres.Ops != 40 || len(db.rows) != 2000 || lres.PerOp[workload.Insert].Status(workload.OK) != 2000 {
				t.Fatalf("load: %d batches reported (want 40), %d rows stored, %d OK inserts; want 2000", lres.Ops, len(db.rows), lres.PerOp[workload.Insert].Status(workload.OK))
			}

			res, err := Run(context.Background(), Config{Schedule: Schedule{Workers: 4, MaxOps: wl.Config().OperationCount}, Tick: 50 * time.Millisecond, NewWorker: Transactions(wl, newDB, 100)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Ops != 4000 {
				t.Fatalf("ran %d ops, want 4000", res.Ops)
			}
			var top [workload.NumOps]int64
			for o, r := range res.PerOp {
				if r == nil {
					continue
				}
				if r.Status(workload.OK) != r.Count() {
					t.Errorf("%s: statuses %v, want all OK (loaded keys must be found)", workload.Op(o), r.Statuses)
				}
				top[o] = r.Count()
			}
			// READ-MODIFY-WRITE also records its READ and UPDATE.
			top[workload.Read] -= top[workload.ReadModifyWrite]
			top[workload.Update] -= top[workload.ReadModifyWrite]
			props := wl.Config().Proportions
			for o := range workload.NumOps {
				got := float64(top[o]) / float64(res.Ops)
				if math.Abs(got-props[o]) > 0.02 {
					t.Errorf("%s: %.3f of ops, want %.3f within 2 points", workload.Op(o), got, props[o])
				}
			}
		})
	}
}

// TestAdapterAddsNoAllocations checks the adapter and recorder allocate
// nothing beyond what the workload itself does per operation.
func TestAdapterAddsNoAllocations(t *testing.T) {
	p, err := workload.LoadPropertiesFile(filepath.Join("..", "..", "scenarios", "workloadf"))
	if err != nil {
		t.Fatal(err)
	}
	wl, err := workload.New(p)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := Transactions(wl, func(int) (workload.DB, error) { return nopDB{}, nil }, 1)(0)
	r := newWorkerRecorder(false)
	ctx := context.Background()
	for range 100 { // allocate the histograms
		r.beginSlot(time.Now(), true)
		_ = w.Next(ctx, r)
	}
	k := wl.NewWorker(2)
	bare := testing.AllocsPerRun(1000, func() { k.DoTransaction(ctx, nopDB{}, nil) })
	if a := testing.AllocsPerRun(1000, func() { r.beginSlot(time.Now(), true); _ = w.Next(ctx, r) }); a > bare {
		t.Errorf("%.1f allocations per workload F operation through the adapter and recorder, the workload alone makes %.1f", a, bare)
	}
}

type nopDB struct{}

func (nopDB) Read(context.Context, string, string, []string) workload.Status      { return workload.OK }
func (nopDB) Scan(context.Context, string, string, int, []string) workload.Status { return workload.OK }
func (nopDB) Update(context.Context, string, string, []workload.Field) workload.Status {
	return workload.OK
}
func (nopDB) Insert(context.Context, string, string, []workload.Field) workload.Status {
	return workload.OK
}
func (nopDB) Delete(context.Context, string, string) workload.Status { return workload.OK }

func TestInsertRowsThrottledLoad(t *testing.T) {
	p, err := workload.LoadPropertiesFile(filepath.Join("..", "..", "scenarios", "workloada"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.ParseOverride("recordcount=300"); err != nil {
		t.Fatal(err)
	}
	wl, err := workload.New(p)
	if err != nil {
		t.Fatal(err)
	}
	db := &memDB{rows: map[string]int{}}
	_, rows := wl.LoadRange()
	res, err := Run(context.Background(), Config{Schedule: Schedule{TargetRate: 1000, Workers: 3, MaxOps: rows},
		NewWorker: InsertRows(wl, func(int) (workload.DB, error) { return db, nil }, 7, Inserts{Batch: 1})})
	if err != nil {
		t.Fatal(err)
	}
	if res.PerOp[workload.Insert].Status(workload.OK) != 300 || len(db.rows) != 300 {
		t.Fatalf("%d OK inserts, %d rows stored; want 300 of each", res.PerOp[workload.Insert].Status(workload.OK), len(db.rows))
	}
	for n := int64(0); n < 300; n++ {
		if _, ok := db.rows[wl.KeyForNumber(n)]; !ok {
			t.Fatalf("row %d (%s) not loaded", n, wl.KeyForNumber(n))
		}
	}
}

// failingDB fails every insert of a key in fail.
type failingDB struct {
	*memDB
	fail map[string]bool
}

func (f failingDB) Insert(ctx context.Context, t, key string, v []workload.Field) workload.Status {
	if f.fail[key] {
		return workload.Error
	}
	return f.memDB.Insert(ctx, t, key, v)
}

// TestInsertRowsStopOnFailure: a preload stops at the first failed batch
// with an error naming its rows; without StopOnFailure the failures are
// counted and every other row is still inserted.
func TestInsertRowsStopOnFailure(t *testing.T) {
	p, err := workload.LoadPropertiesFile(filepath.Join("..", "..", "scenarios", "workloada"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.ParseOverride("recordcount=1000"); err != nil {
		t.Fatal(err)
	}
	for _, stop := range []bool{true, false} {
		wl, err := workload.New(p)
		if err != nil {
			t.Fatal(err)
		}
		db := failingDB{&memDB{rows: map[string]int{}}, map[string]bool{wl.KeyForNumber(420): true}}
		res, err := Run(context.Background(), Config{Schedule: Schedule{Workers: 2, MaxOps: LoadSlots(1000, 10)},
			NewWorker: InsertRows(wl, func(int) (workload.DB, error) { return db, nil }, 1, Inserts{Batch: 10, StopOnFailure: stop})})
		if stop {
			if err == nil || !strings.Contains(err.Error(), "insert rows 420..429") {
				t.Errorf("stop on failure: err %v, want one naming rows 420..429", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if ins := res.PerOp[workload.Insert]; ins.Status(workload.OK) != 999 || ins.Status(workload.Error) != 1 || len(db.rows) != 999 {
			t.Errorf("statuses %v, %d rows stored; want 999 OK, 1 ERROR", ins.Statuses, len(db.rows))
		}
	}
}
