package suite

import (
	"strings"
	"testing"
)

func TestDataShapeIsTheFamilysAttributesAndStoreFiles(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	s, err := Parse([]byte(`
workloads: [workloada]
data: {recordcount: 1000, fieldlength: 10, data_block_encoding: fast_diff, bloomfilter: rowcol, blocksize: 8192, in_memory: true, storefiles: 3}
cluster: {conf: {hfile.block.cache.size: "0.02"}}
`), dir)
	if err != nil {
		t.Fatal(err)
	}
	f := s.Data.Family()
	if f.DataBlockEncoding != "FAST_DIFF" || f.BloomFilter != "ROWCOL" || f.BlockSize != 8192 || f.InMemory == nil || !*f.InMemory {
		t.Errorf("family %+v does not carry the suite's attributes", f)
	}
	// Three store files: the family's compaction threshold lies above them.
	if got := f.Configuration["hbase.hstore.compactionThreshold"]; got != "4" {
		t.Errorf("compaction threshold %q, want 4", got)
	}
	for _, want := range []string{"1000 rows x 10 fields of 10 B", "3 store files a region", "DATA_BLOCK_ENCODING FAST_DIFF", "BLOOMFILTER ROWCOL", "BLOCKSIZE 8192", "IN_MEMORY true"} {
		if !strings.Contains(s.Data.Shape(), want) {
			t.Errorf("Shape() = %q lacks %q", s.Data.Shape(), want)
		}
	}
	if !strings.Contains(s.SeedKey(), "encoding=FAST_DIFF") || !strings.Contains(s.SeedKey(), "storefiles=3") {
		t.Errorf("seed key %q does not name the shape: another shape would reuse this seed", s.SeedKey())
	}

	// A suite without the shape's fields keeps the seed key and the
	// fingerprint its stored results carry; each field changes both.
	plain, _ := Parse([]byte(minimal), dir)
	if got := plain.SeedKey(); got != "rows=1000 fields=10 fieldlength=100 regions=8 family=family compression=NONE" {
		t.Errorf("a plain suite's seed key changed: %q", got)
	}
	fp, _ := plain.Fingerprint()
	for _, extra := range []string{"data_block_encoding: PREFIX", "bloomfilter: NONE", "blocksize: 4096", "versions: 3", "blockcache: false", "storefiles: 2"} {
		shaped, err := Parse([]byte("workloads: [workloada]\ndata: {recordcount: 1000, "+extra+"}\n"), dir)
		if err != nil {
			t.Fatalf("%s: %v", extra, err)
		}
		if f2, _ := shaped.Fingerprint(); f2 == fp {
			t.Errorf("%s kept the fingerprint", extra)
		}
		if shaped.SeedKey() == plain.SeedKey() {
			t.Errorf("%s kept the seed key", extra)
		}
	}
	withConf, _ := Parse([]byte(minimal+"cluster: {conf: {hfile.block.cache.size: \"0.1\"}}\n"), dir)
	if f2, _ := withConf.Fingerprint(); f2 == fp {
		t.Error("cluster.conf kept the fingerprint")
	}
}

func TestDataShapeRefusesWhatHBaseWould(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	for _, c := range []struct{ data, want string }{
		{"data_block_encoding: ZIP", `DATA_BLOCK_ENCODING "ZIP" is not one of NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1`},
		{"bloomfilter: yes", `BLOOMFILTER "YES" is not one of`},
		{"blocksize: 100", "BLOCKSIZE 100 must lie within 1024 and"},
		{"versions: -1", "VERSIONS -1 must be positive"},
		{"storefiles: 40", "data.storefiles: 40 store files a region: give 1 to 12"},
		{"storefiles: 5, recordcount: 3", "5 store files need at least as many rows"},
	} {
		t.Run(c.data, func(t *testing.T) {
			data := "recordcount: 1000, " + c.data
			if strings.Contains(c.data, "recordcount") {
				data = c.data + ", regions: 1"
			}
			_, err := Parse([]byte("workloads: [workloada]\ndata: {"+data+"}\n"), dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	if _, err := Parse([]byte(minimal+"cluster: {conf: {\"bad key\": x}}\n"), dir); err == nil || !strings.Contains(err.Error(), "cluster.conf") {
		t.Errorf("a conf key with a space: %v", err)
	}
}

func TestPreloadPartsCoverEveryRowOnce(t *testing.T) {
	for _, c := range []struct {
		rows  int64
		parts int
	}{{10, 1}, {10, 3}, {1000, 7}, {3, 3}} {
		var next int64
		for p := range c.parts {
			start, n := PreloadPart(c.rows, p, c.parts)
			if start != next || n <= 0 {
				t.Fatalf("%d rows in %d parts: part %d starts at %d with %d rows, want to start at %d", c.rows, c.parts, p, start, n, next)
			}
			next = start + n
		}
		if next != c.rows {
			t.Errorf("%d rows in %d parts cover %d", c.rows, c.parts, next)
		}
	}
}
