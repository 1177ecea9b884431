package hbase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testClient connects to the package's test cluster, or skips under -short.
func testClient(t testing.TB) *Client {
	t.Helper()
	if testing.Short() {
		t.Skip("talks to a real HBase; skipped under -short")
	}
	if zkAddr == "" {
		t.Fatalf("no test cluster: %v", errCluster)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := Connect(ctx, zkAddr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

var tableSeq atomic.Int64

// newTable creates a uniquely named table with family "f" and drops it after the test.
func newTable(t testing.TB, c *Client, splits [][]byte) string {
	t.Helper()
	name := fmt.Sprintf("regress_%s_%d_%d", sanitize(t.Name()), time.Now().UnixNano()%1e6, tableSeq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.CreateTable(ctx, TableSpec{Name: name, Families: []FamilySpec{{Name: "f", Versions: 1}}, SplitKeys: splits}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropTable(t, c, name) })
	return name
}

func dropTable(t testing.TB, c *Client, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if st, err := c.TableState(ctx, name); err == nil && st == "ENABLED" {
		if err := c.DisableTable(ctx, name); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	}
	if err := c.DeleteTable(ctx, name); err != nil {
		var nf *TableNotFoundError
		if !errors.As(err, &nf) {
			t.Errorf("cleanup: %v", err)
		}
	}
}

func sanitize(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			b[i] = '_'
		}
	}
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}

func rowKey(i int) []byte { return fmt.Appendf(nil, "row%06d", i) }
func rowValue(i int) []byte {
	return fmt.Appendf(nil, "value-%d-%s", i, bytes.Repeat([]byte{'x'}, i%17))
}

// splitKeys gives n-1 keys cutting row000000..row(total) into n regions.
func splitKeys(n, total int) [][]byte {
	var ks [][]byte
	for i := 1; i < n; i++ {
		ks = append(ks, rowKey(i*total/n))
	}
	return ks
}

func putRows(t testing.TB, c *Client, table string, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const batch = 500
	for i := 0; i < n; i += batch {
		var ms []Mutation
		for j := i; j < min(i+batch, n); j++ {
			ms = append(ms, Mutation{Row: rowKey(j), Family: []byte("f"), Cols: []Column{{Qualifier: []byte("q"), Value: rowValue(j)}, {Qualifier: []byte("n"), Value: fmt.Appendf(nil, "%d", j)}}})
		}
		if err := c.PutBatch(ctx, table, ms, UseDefault); err != nil {
			t.Fatal(err)
		}
	}
}

// checkRows asserts rows is exactly rows [from, to) as written by putRows.
func checkRows(t testing.TB, rows []Result, from, to int) {
	t.Helper()
	if len(rows) != to-from {
		t.Fatalf("got %d rows, want %d", len(rows), to-from)
	}
	for k, r := range rows {
		i := from + k
		if len(r.Cells) != 2 {
			t.Fatalf("row %d: %d cells, want 2", i, len(r.Cells))
		}
		// The server returns qualifiers in order: n, q.
		n, q := r.Cells[0], r.Cells[1]
		if !bytes.Equal(n.Row, rowKey(i)) || string(n.Qualifier) != "n" || string(n.Value) != fmt.Sprint(i) ||
			string(q.Qualifier) != "q" || !bytes.Equal(q.Value, rowValue(i)) || string(q.Family) != "f" {
			t.Fatalf("row %d = %q/%q=%q, %q=%q", i, n.Row, n.Qualifier, n.Value, q.Qualifier, q.Value)
		}
	}
}

func TestTableLifecycle(t *testing.T) {
	c := testClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	name := fmt.Sprintf("regress_lifecycle_%d", time.Now().UnixNano()%1e9)
	yes := true
	spec := TableSpec{Name: name, Families: []FamilySpec{{Name: "f", Compression: "NONE", Versions: 2, BloomFilter: "ROW", DataBlockEncoding: "FAST_DIFF", BlockCache: &yes}}, SplitKeys: [][]byte{[]byte("m")}}
	if err := c.CreateTable(ctx, spec); err != nil {
		t.Fatal(err)
	}
	var te *TableExistsError
	if err := c.CreateTable(ctx, spec); !errors.As(err, &te) || te.Table != name {
		t.Fatalf("second create: want TableExistsError for %q, got %v", name, err)
	}
	if ok, err := c.TableExists(ctx, name); err != nil || !ok {
		t.Fatalf("exists = %v, %v", ok, err)
	}
	tables, err := c.ListTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tb := range tables {
		found = found || tb == name
	}
	if !found {
		t.Fatalf("ListTables %v lacks %q", tables, name)
	}
	regions, err := c.TableRegions(ctx, name)
	if err != nil || len(regions) != 2 || string(regions[1].StartKey) != "m" {
		t.Fatalf("regions = %+v, %v", regions, err)
	}
	if err := c.Put(ctx, name, []byte("a"), []byte("f"), []Column{{Qualifier: []byte("q"), Value: []byte("1")}}, SyncWAL); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, name, []byte("z"), []byte("f"), []Column{{Qualifier: []byte("q"), Value: []byte("2")}, {Qualifier: []byte("r"), Value: []byte("3")}}, SkipWAL); err != nil {
		t.Fatal(err)
	}
	r, err := c.Get(ctx, name, []byte("z"), []byte("f"), [][]byte{[]byte("r")})
	if err != nil || len(r.Cells) != 1 || string(r.Cells[0].Value) != "3" || r.Cells[0].Timestamp == 0 {
		t.Fatalf("get z/r = %+v, %v", r, err)
	}
	if err := c.Delete(ctx, name, []byte("z")); err != nil {
		t.Fatal(err)
	}
	if r, err := c.Get(ctx, name, []byte("z"), []byte("f"), nil); err != nil || len(r.Cells) != 0 {
		t.Fatalf("get deleted row = %+v, %v", r, err)
	}
	if err := c.DisableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if st, err := c.TableState(ctx, name); err != nil || st != "DISABLED" {
		t.Fatalf("state = %q, %v", st, err)
	}
	// A read of a disabled table fails with a typed error, not after minutes of retries.
	gctx, gcancel := context.WithTimeout(ctx, 20*time.Second)
	_, err = c.Get(gctx, name, []byte("a"), []byte("f"), nil)
	gcancel()
	var notEnabled *TableStateError
	if !errors.As(err, &notEnabled) || notEnabled.Want != "ENABLED" {
		t.Fatalf("get on a disabled table: want TableStateError, got %v", err)
	}
	if err := c.EnableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if r, err := c.Get(ctx, name, []byte("a"), []byte("f"), nil); err != nil || len(r.Cells) != 1 || string(r.Cells[0].Value) != "1" {
		t.Fatalf("get after re-enable = %+v, %v", r, err)
	}
	var tse *TableStateError
	if err := c.DeleteTable(ctx, name); !errors.As(err, &tse) {
		t.Fatalf("deleting an enabled table: want TableStateError, got %v", err)
	}
	if err := c.DisableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.TableExists(ctx, name); err != nil || ok {
		t.Fatalf("exists after delete = %v, %v", ok, err)
	}
}

func TestMissingTableIsTypedAndQuick(t *testing.T) {
	c := testClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.Get(ctx, "regress_no_such_table", []byte("r"), []byte("f"), nil)
	var nf *TableNotFoundError
	if !errors.As(err, &nf) || nf.Table != "regress_no_such_table" {
		t.Fatalf("want TableNotFoundError, got %T %v", err, err)
	}
	if ctx.Err() != nil {
		t.Fatal("the error came only after the deadline")
	}
	if err := c.Put(ctx, "regress_no_such_table", []byte("r"), []byte("f"), []Column{{Qualifier: []byte("q"), Value: []byte("v")}}, UseDefault); !errors.As(err, &nf) {
		t.Fatalf("put: want TableNotFoundError, got %v", err)
	}
	if _, err := c.TableState(ctx, "regress_no_such_table"); !errors.As(err, &nf) {
		t.Fatalf("state: want TableNotFoundError, got %v", err)
	}
}

func TestTenThousandRowsAcrossRegions(t *testing.T) {
	c := testClient(t)
	const n = 10000
	table := newTable(t, c, splitKeys(10, n))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	regions, err := c.TableRegions(ctx, table)
	if err != nil || len(regions) < 8 {
		t.Fatalf("want at least 8 regions, got %d (%v)", len(regions), err)
	}
	putRows(t, c, table, n)

	// Every row by Get, from many goroutines at once.
	var wg sync.WaitGroup
	const workers = 256
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += workers {
				r, err := c.Get(ctx, table, rowKey(i), []byte("f"), nil)
				if err != nil {
					errs <- err
					return
				}
				if len(r.Cells) != 2 || !bytes.Equal(r.Cells[1].Value, rowValue(i)) {
					errs <- fmt.Errorf("row %d = %+v", i, r)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	rows, err := c.Scan(ctx, table, ScanOptions{Caching: 333})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, 0, n)

	rows, err = c.Scan(ctx, table, ScanOptions{StartRow: rowKey(1234), StopRow: rowKey(8765), Family: []byte("f")})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, 1234, 8765)

	rows, err = c.Scan(ctx, table, ScanOptions{StartRow: rowKey(990), Limit: 1500, Caching: 100})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, 990, 2490)

	rows, err = c.Scan(ctx, table, ScanOptions{StartRow: rowKey(5), Family: []byte("f"), Qualifiers: [][]byte{[]byte("q")}, Limit: 3})
	if err != nil || len(rows) != 3 || len(rows[0].Cells) != 1 || !bytes.Equal(rows[2].Cells[0].Value, rowValue(7)) {
		t.Fatalf("qualifier scan = %+v, %v", rows, err)
	}
}

func TestSnapshotCloneGivesIdenticalRows(t *testing.T) {
	c := testClient(t)
	const n = 2000
	table := newTable(t, c, splitKeys(4, n))
	putRows(t, c, table, n)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	snap := table + "_snap"
	if err := c.Snapshot(ctx, table, snap); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := c.DeleteSnapshot(context.Background(), snap); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	}()
	snaps, err := c.ListSnapshots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var info *SnapshotInfo
	for i := range snaps {
		if snaps[i].Name == snap {
			info = &snaps[i]
		}
	}
	if info == nil || info.Table != table || time.Since(info.Created) > time.Hour {
		t.Fatalf("ListSnapshots %+v lacks %q of %q", snaps, snap, table)
	}
	// Writes after the snapshot must not show in the clone.
	if err := c.Put(ctx, table, rowKey(n+1), []byte("f"), []Column{{Qualifier: []byte("q"), Value: []byte("late")}}, UseDefault); err != nil {
		t.Fatal(err)
	}
	clone := table + "_clone"
	if err := c.CloneSnapshot(ctx, snap, clone); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropTable(t, c, clone) })
	rows, err := c.Scan(ctx, clone, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, 0, n)
	var te *TableExistsError
	if err := c.CloneSnapshot(ctx, snap, clone); !errors.As(err, &te) {
		t.Fatalf("clone onto an existing table: want TableExistsError, got %v", err)
	}
}

func TestFlushAndMajorCompactionWait(t *testing.T) {
	c := testClient(t)
	const n = 3000
	table := newTable(t, c, splitKeys(3, n))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for round := 0; round < 3; round++ {
		putRows(t, c, table, n)
		if err := c.FlushTable(ctx, table); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.MajorCompactTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	// MajorCompactTable returned, so no region may still be compacting.
	regions, err := c.TableRegions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range regions {
		st, err := c.regionCompactionState(ctx, &r)
		if err != nil || st != "NONE" {
			t.Fatalf("region %q compaction state %q after MajorCompactTable (%v)", r.Name, st, err)
		}
	}
	rows, err := c.Scan(ctx, table, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, 0, n)
}

func TestClusterInfo(t *testing.T) {
	c := testClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v, err := c.ClusterVersion(ctx)
	if err != nil || v == "" || v[0] < '0' || v[0] > '9' {
		t.Fatalf("version = %q, %v", v, err)
	}
	rs, err := c.LiveRegionServers(ctx)
	if err != nil || len(rs) != 1 {
		t.Fatalf("live servers = %v, %v", rs, err)
	}
}

// TestReadsStayCorrectDuringSplit splits regions while readers Get and Scan.
// A move to another server cannot be provoked here: the standalone cluster has
// one region server, and HBase skips a move whose only target is the current
// server. A split takes the parent region offline and opens two daughters,
// which exercises the same stale-location path (NotServingRegionException,
// meta re-lookup, scanner restart).
func TestReadsStayCorrectDuringSplit(t *testing.T) {
	c := testClient(t)
	const n = 4000
	table := newTable(t, c, splitKeys(4, n))
	putRows(t, c, table, n)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// Warm the cache with every region, so readers hold stale locations after the splits.
	for i := 0; i < n; i += n / 4 {
		if _, err := c.Get(ctx, table, rowKey(i), []byte("f"), nil); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	errs := make(chan error, 16)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; ; i = (i + 97) % n {
				select {
				case <-stop:
					return
				default:
				}
				if w == 0 {
					rows, err := c.Scan(ctx, table, ScanOptions{Caching: 200})
					if err != nil {
						errs <- err
						return
					}
					if err := sameRows(rows, n); err != nil {
						errs <- fmt.Errorf("scan during split: %w", err)
						return
					}
					continue
				}
				r, err := c.Get(ctx, table, rowKey(i), []byte("f"), nil)
				if err != nil {
					errs <- err
					return
				}
				if len(r.Cells) != 2 || !bytes.Equal(r.Cells[1].Value, rowValue(i)) {
					errs <- fmt.Errorf("row %d during split = %+v", i, r)
					return
				}
				reads.Add(1)
			}
		}(w)
	}
	// Split every region once. A daughter keeps reference files until the
	// compacted-file discharger runs (minutes), so it cannot split again soon:
	// the table starts with 4 regions and each splits in its middle.
	for _, k := range []int{n / 8, 3 * n / 8, 5 * n / 8, 7 * n / 8} {
		if err := c.SplitRegion(ctx, table, rowKey(k)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	regions, err := c.TableRegions(ctx, table)
	if err != nil || len(regions) != 8 {
		t.Fatalf("after 4 splits: %d regions, want 8 (%v)", len(regions), err)
	}
	rows, err := c.Scan(ctx, table, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, 0, n)
	if c.relocations.Load() == 0 {
		t.Fatal("no read hit a stale region location: the splits did not exercise relocation")
	}
	t.Logf("%d reads during 4 splits, %d stale locations dropped", reads.Load(), c.relocations.Load())
}

func TestCancelLeaksNothing(t *testing.T) {
	c := testClient(t)
	table := newTable(t, c, nil)
	putRows(t, c, table, 100)
	ctx := context.Background()
	if _, err := c.Get(ctx, table, rowKey(1), []byte("f"), nil); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, time.Duration(i%5)*100*time.Microsecond)
			defer cancel()
			r, err := c.Get(cctx, table, rowKey(i%100), []byte("f"), nil)
			if err == nil && (len(r.Cells) != 2 || !bytes.Equal(r.Cells[1].Value, rowValue(i%100))) {
				t.Errorf("row %d = %+v", i%100, r)
			}
			if err != nil && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("get %d: %v", i, err)
			}
			cctx, cancel2 := context.WithCancel(ctx)
			cancel2()
			if _, err := c.Scan(cctx, table, ScanOptions{}); !errors.Is(err, context.Canceled) {
				t.Errorf("scan with a cancelled context: %v", err)
			}
		}(i)
	}
	wg.Wait()
	// The connection still works after all the abandoned calls.
	if r, err := c.Get(ctx, table, rowKey(5), []byte("f"), nil); err != nil || len(r.Cells) != 2 {
		t.Fatalf("get after cancellations = %+v, %v", r, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before+2 {
		t.Fatalf("%d goroutines after cancelled calls, %d before", g, before)
	}
}

// sameRows checks rows are row000000..n-1 in order, naming the first difference.
func sameRows(rows []Result, n int) error {
	for i, r := range rows {
		if i >= n || len(r.Cells) == 0 || !bytes.Equal(r.Cells[0].Row, rowKey(i)) {
			var got []byte
			if len(r.Cells) > 0 {
				got = r.Cells[0].Row
			}
			prev := []byte(nil)
			if i > 0 {
				prev = rows[i-1].Cells[0].Row
			}
			return fmt.Errorf("%d rows, want %d; row %d is %q (after %q), want %q", len(rows), n, i, got, prev, rowKey(i))
		}
	}
	if len(rows) != n {
		return fmt.Errorf("%d rows, want %d", len(rows), n)
	}
	return nil
}

func TestReconnectAfterBrokenConnection(t *testing.T) {
	c := testClient(t)
	table := newTable(t, c, nil)
	putRows(t, c, table, 10)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.Get(ctx, table, rowKey(1), []byte("f"), nil); err != nil {
		t.Fatal(err)
	}
	// Cut every TCP connection under the client, as a server restart or a
	// network fault would.
	c.mu.Lock()
	var broken []*conn
	for _, s := range c.conns {
		if s.c != nil {
			broken = append(broken, s.c)
		}
	}
	c.mu.Unlock()
	if len(broken) == 0 {
		t.Fatal("no connections to break")
	}
	for _, cn := range broken {
		cn.nc.Close()
	}
	for i := 0; i < 10; i++ {
		r, err := c.Get(ctx, table, rowKey(i), []byte("f"), nil)
		if err != nil || len(r.Cells) != 2 || !bytes.Equal(r.Cells[1].Value, rowValue(i)) {
			t.Fatalf("get %d after the connection broke = %+v, %v", i, r, err)
		}
	}
	for _, cn := range broken {
		if cn.alive() {
			t.Fatal("a cut connection still counts as alive")
		}
	}
	if _, err := c.ListTables(ctx); err != nil {
		t.Fatalf("master call after the connection broke: %v", err)
	}
}
