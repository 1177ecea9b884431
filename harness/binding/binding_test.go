package binding

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/workload"
)

var client *hbase.Client

func TestMain(m *testing.M) {
	clustertest.Main(m, func(c cluster.Cluster) (func(), error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var err error
		if client, err = hbase.Connect(ctx, c.ZKAddr()); err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		return func() { client.Close() }, nil
	})
}

// table creates a fresh table with family "family" for one test.
func table(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	if testing.Short() {
		t.Skip("talks to a real HBase; skipped under -short")
	}
	if err := client.CreateTable(ctx, hbase.TableSpec{Name: name, Families: []hbase.FamilySpec{{Name: "family"}}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c := context.Background()
		_ = client.DisableTable(c, name)
		_ = client.DeleteTable(c, name)
	})
}

func TestOperationsMapToHBaseWithYCSBStatuses(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	table(t, ctx, "binding_ops")
	db := New(client, "family", hbase.UseDefault, nil)
	row := []workload.Field{{Name: "field0", Value: []byte("a")}, {Name: "field1", Value: []byte("b")}}
	steps := []struct {
		what string
		got  workload.Status
		want workload.Status
	}{
		{"read before insert", db.Read(ctx, "binding_ops", "user1", nil), workload.NotFound},
		{"insert", db.Insert(ctx, "binding_ops", "user1", row), workload.OK},
		{"insert second row", db.Insert(ctx, "binding_ops", "user2", row), workload.OK},
		{"read all fields", db.Read(ctx, "binding_ops", "user1", nil), workload.OK},
		{"read one field", db.Read(ctx, "binding_ops", "user1", []string{"field1"}), workload.OK},
		{"read a field the row lacks", db.Read(ctx, "binding_ops", "user1", []string{"field9"}), workload.NotFound},
		{"update", db.Update(ctx, "binding_ops", "user1", row[:1]), workload.OK},
		{"scan", db.Scan(ctx, "binding_ops", "user1", 2, nil), workload.OK},
		{"delete", db.Delete(ctx, "binding_ops", "user1"), workload.OK},
		{"read after delete", db.Read(ctx, "binding_ops", "user1", nil), workload.NotFound},
		{"read a missing table", db.Read(ctx, "binding_nosuch", "user1", nil), workload.Error},
	}
	for _, s := range steps {
		if s.got != s.want {
			t.Errorf("%s: %v, want %v", s.what, s.got, s.want)
		}
	}
	res, err := client.Get(ctx, "binding_ops", []byte("user2"), []byte("family"), nil)
	if err != nil || len(res.Cells) != 2 || string(res.Cells[1].Value) != "b" {
		t.Errorf("user2 as stored: %+v, %v; want field0=a, field1=b", res, err)
	}
}

// BenchmarkWorkloadC is YCSB workload C (zipfian reads of whole rows) through
// the binding against the local HBase: wall time and client CPU per operation.
func BenchmarkWorkloadC(b *testing.B) {
	ctx := context.Background()
	table(b, ctx, "binding_bench_c")
	p := workload.NewProperties()
	for k, v := range map[string]string{"recordcount": "1000", "operationcount": "1000000", "readproportion": "1",
		"updateproportion": "0", "requestdistribution": "zipfian", "table": "binding_bench_c"} {
		p.Set(k, v, "bench")
	}
	wl, err := workload.New(p)
	if err != nil {
		b.Fatal(err)
	}
	db := New(client, "family", hbase.UseDefault, nil)
	loader := wl.NewWorker(1)
	for n := range int64(1000) {
		if st := loader.LoadRow(ctx, db, n, nil); st != workload.OK {
			b.Fatalf("load row %d: %v", n, st)
		}
	}
	w := wl.NewWorker(2)
	cpu := processCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, st := w.DoTransaction(ctx, db, nil); st != workload.OK {
			b.Fatalf("read: %v", st)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
}

// processCPU is this process's user+system CPU time: the client's cost, since
// HBase runs in another process.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// scanCounter passes calls to the real client and keeps what a scan returned.
type scanCounter struct {
	*hbase.Client
	rows int
}

func (s *scanCounter) Scan(ctx context.Context, table string, o hbase.ScanOptions) ([]hbase.Result, error) {
	res, err := s.Client.Scan(ctx, table, o)
	s.rows = len(res)
	return res, err
}

// TestZeroLengthScanReadsOneRow: minscanlength=0 draws scans of length 0;
// they read one row, as YCSB's HBase binding does, never the whole table.
func TestZeroLengthScanReadsOneRow(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	table(t, ctx, "binding_scan0")
	sc := &scanCounter{Client: client}
	db := New(sc, "family", hbase.UseDefault, nil)
	for _, k := range []string{"user1", "user2", "user3", "user4"} {
		db.QueueInsert(k, []workload.Field{{Name: "field0", Value: []byte(k)}})
	}
	if st := db.InsertQueued(ctx, "binding_scan0"); st != workload.OK {
		t.Fatalf("batched insert: %v", st)
	}
	for _, n := range []int{0, -1, 1, 3} {
		if st := db.Scan(ctx, "binding_scan0", "user1", n, nil); st != workload.OK {
			t.Fatalf("scan of %d: %v", n, st)
		}
		if want := max(n, 1); sc.rows != want {
			t.Errorf("scan of length %d returned %d rows, want %d", n, sc.rows, want)
		}
	}
}

// TestBatchedInsertWritesEveryQueuedRow queues rows with reused buffers, as
// the load phase does, and finds each row as written.
func TestBatchedInsertWritesEveryQueuedRow(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	table(t, ctx, "binding_batch")
	db := New(client, "family", hbase.UseDefault, nil)
	buf := []byte("x")
	for i := range 50 {
		buf[0] = byte('a' + i%26)
		db.QueueInsert(fmt.Sprintf("user%02d", i), []workload.Field{{Name: "field0", Value: buf}})
	}
	if st := db.InsertQueued(ctx, "binding_batch"); st != workload.OK {
		t.Fatalf("batched insert: %v", st)
	}
	for i := range 50 {
		res, err := client.Get(ctx, "binding_batch", fmt.Appendf(nil, "user%02d", i), []byte("family"), nil)
		if err != nil || len(res.Cells) != 1 || res.Cells[0].Value[0] != byte('a'+i%26) {
			t.Fatalf("row %d: %+v, %v", i, res, err)
		}
	}
	if st := db.InsertQueued(ctx, "binding_nosuch"); st != workload.OK {
		t.Errorf("an empty queue: %v, want OK (nothing to write)", st)
	}
}
