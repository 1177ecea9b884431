package lifecycle

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/hbase"
)

var client *hbase.Client

// logPath is the test cluster's log: its work dir, where its root dir
// (hbase.rootdir) lies, is found from it.
var logPath string

func TestMain(m *testing.M) {
	clustertest.Main(m, func(c cluster.Cluster) (func(), error) {
		logPath = c.LogPath()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var err error
		if client, err = hbase.Connect(ctx, c.ZKAddr()); err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		return func() { client.Close() }, nil
	})
}

func needCluster(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("talks to a real HBase; skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// preload writes n rows of one column each.
// preload writes rows row0000 to row<n-1> with one cell each; part p of
// parts writes every parts-th row from p, so each part reaches every region
// (as YCSB's hashed keys do).
func preload(n int) func(ctx context.Context, table string, part, parts int) error {
	return func(ctx context.Context, table string, part, parts int) error {
		var ms []hbase.Mutation
		for i := part; i < n; i += parts {
			ms = append(ms, hbase.Mutation{Row: fmt.Appendf(nil, "row%04d", i), Family: []byte("f"),
				Cols: []hbase.Column{{Qualifier: []byte("q"), Value: fmt.Appendf(nil, "v%d", i)}}})
		}
		return client.PutBatch(ctx, table, ms, hbase.UseDefault)
	}
}

func countRows(t *testing.T, ctx context.Context, table string) int {
	t.Helper()
	rs, err := client.Scan(ctx, table, hbase.ScanOptions{Family: []byte("f"), Caching: 500})
	if err != nil {
		t.Fatalf("scan %s: %v", table, err)
	}
	return len(rs)
}

func TestSeedCloneDropAndReuse(t *testing.T) {
	ctx := needCluster(t)
	m := New(client, "t1", nil)
	loads := 0
	spec := SeedSpec{Key: "rows=300 test", Version: "test", Family: hbase.FamilySpec{Name: "f", Compression: "NONE"},
		SplitKeys: [][]byte{[]byte("row0100"), []byte("row0200")},
		Preload: func(ctx context.Context, table string, part, parts int) error {
			loads++
			return preload(300)(ctx, table, part, parts)
		}}
	seed, err := m.EnsureSeed(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.DropSeed(context.Background(), seed) })
	if seed.Reused || loads != 1 || !strings.HasPrefix(seed.Snapshot, Prefix) {
		t.Fatalf("first seed: %+v after %d loads", seed, loads)
	}
	if ok, _ := client.TableExists(ctx, seed.Table); ok {
		t.Errorf("seed table %s still exists; only its snapshot should stay", seed.Table)
	}

	again, err := m.EnsureSeed(ctx, spec)
	if err != nil || !again.Reused || loads != 1 {
		t.Fatalf("second seed should reuse the snapshot without loading: %+v, %d loads, %v", again, loads, err)
	}

	clone, err := m.Clone(ctx, seed)
	if err != nil {
		t.Fatal(err)
	}
	regions, err := client.TableRegions(ctx, clone)
	if err != nil || len(regions) != 3 {
		t.Errorf("clone has %d regions (err %v), want the seed's 3 from 2 split keys", len(regions), err)
	}
	if n := countRows(t, ctx, clone); n != 300 {
		t.Errorf("clone %s has %d rows, want 300", clone, n)
	}
	// A trial writes into its clone; the next clone still starts from the seed.
	if err := client.Put(ctx, clone, []byte("zzz-extra"), []byte("f"), []hbase.Column{{Qualifier: []byte("q"), Value: []byte("x")}}, hbase.UseDefault); err != nil {
		t.Fatal(err)
	}
	clone2, err := m.Clone(ctx, seed)
	if err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, ctx, clone2); n != 300 {
		t.Errorf("second clone has %d rows, want the seed's 300", n)
	}
	// Prewarm reads every row once, across regions and in chunks (an exact
	// multiple of the chunk included).
	for _, chunk := range []int{70, 100, 1000} {
		prewarmChunk = chunk
		if rows, err := Prewarm(ctx, client, clone2); err != nil || rows != 300 {
			t.Errorf("prewarm in chunks of %d read %d rows (err %v), want 300", chunk, rows, err)
		}
	}
	prewarmChunk = 1000
	for _, c := range []string{clone, clone2} {
		if err := m.Drop(ctx, c); err != nil {
			t.Fatal(err)
		}
		if ok, _ := client.TableExists(ctx, c); ok {
			t.Errorf("%s still exists after Drop", c)
		}
	}

	spec.Reseed = true
	if _, err := m.EnsureSeed(ctx, spec); err != nil || loads != 2 {
		t.Fatalf("reseed: %v after %d loads, want a fresh load", err, loads)
	}
}

func TestDropRefusesTablesRegressDidNotCreate(t *testing.T) {
	ctx := needCluster(t)
	m := New(client, "t2", nil)
	if err := m.Drop(ctx, "usertable"); err == nil || !strings.Contains(err.Error(), "not a table regress created") {
		t.Fatalf("Drop(usertable) = %v, want a refusal", err)
	}
}

func TestCleanupStaleTouchesOnlyPrefixedTables(t *testing.T) {
	ctx := needCluster(t)
	fam := []hbase.FamilySpec{{Name: "f"}}
	mine := "user_data_keep"
	leftover := trialPrefix + "crashed_1"
	orphanSeed := seedPrefix + "000000000000"
	for _, name := range []string{mine, leftover, orphanSeed} {
		if err := client.CreateTable(ctx, hbase.TableSpec{Name: name, Families: fam}); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		c := context.Background()
		_ = client.DisableTable(c, mine)
		_ = client.DeleteTable(c, mine)
	})
	dropped, err := New(client, "t3", nil).CleanupStale(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(dropped)
	if !slices.Contains(dropped, leftover) || !slices.Contains(dropped, orphanSeed) {
		t.Errorf("dropped %v, want the crashed trial table and the seed without snapshot", dropped)
	}
	if ok, _ := client.TableExists(ctx, mine); !ok {
		t.Errorf("CleanupStale dropped %s, which regress did not create", mine)
	}
}

// storeFiles counts the files in each region directory of table's family
// under the local cluster's root dir (a clone's are links to the seed's),
// hidden files (checksums) left out.
func storeFiles(t *testing.T, table, family string) []int {
	t.Helper()
	for dir := filepath.Dir(logPath); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		regions, _ := filepath.Glob(filepath.Join(dir, "hbase", "data", "default", table, "*", family))
		if len(regions) == 0 {
			continue
		}
		var out []int
		for _, r := range regions {
			files, err := os.ReadDir(r)
			if err != nil {
				t.Fatal(err)
			}
			// Hadoop's checksummed local file system (0.98's) keeps a
			// ".<name>.crc" beside each file; HBase skips dot files too.
			n := 0
			for _, f := range files {
				if !strings.HasPrefix(f.Name(), ".") {
					n++
				}
			}
			out = append(out, n)
		}
		return out
	}
	t.Fatalf("no region directory of %s under the cluster's work dir (from %s)", table, logPath)
	return nil
}

// A seed of several store files a region keeps them (no major compaction,
// the family's compaction threshold above their count), and its clones read
// through that many files, encoded as the family says.
func TestSeedOfSeveralStoreFiles(t *testing.T) {
	ctx := needCluster(t)
	m := New(client, "t5", nil)
	spec := SeedSpec{Key: "rows=300 storefiles=3 test", Version: "test",
		Family: hbase.FamilySpec{Name: "f", DataBlockEncoding: "FAST_DIFF", BloomFilter: "ROWCOL", BlockSize: 8192,
			Configuration: map[string]string{"hbase.hstore.compactionThreshold": "4"}},
		SplitKeys: [][]byte{[]byte("row0150")}, StoreFiles: 3, Preload: preload(300)}
	seed, err := m.EnsureSeed(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.DropSeed(context.Background(), seed) })
	clone, err := m.Clone(ctx, seed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Drop(context.Background(), clone) })
	if n := countRows(t, ctx, clone); n != 300 {
		t.Errorf("clone has %d rows, want 300", n)
	}
	if got := storeFiles(t, clone, "f"); !slices.Equal(got, []int{3, 3}) {
		t.Errorf("store files per region of the clone: %v, want 3 in each of 2 regions", got)
	}
}

func TestUnloadableCodecIsAClearError(t *testing.T) {
	ctx := needCluster(t)
	m := New(client, "t4", nil)
	_, err := m.EnsureSeed(ctx, SeedSpec{Key: "codec test", Version: "test", Family: hbase.FamilySpec{Name: "f", Compression: "LZO"},
		Preload: preload(1)})
	// LZO is GPL and never ships with HBase, so a stock server cannot load it.
	if err == nil {
		t.Fatal("a seed with LZO compression was created; want a clear codec error")
	}
	if !strings.Contains(err.Error(), "LZO") || !strings.Contains(err.Error(), "NONE always works") {
		t.Errorf("error does not name the codec and what to do: %v", err)
	}
}
