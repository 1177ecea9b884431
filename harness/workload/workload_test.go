package workload

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const scenarioDir = "../../scenarios"

func loadScenario(t testing.TB, name string, overrides ...string) *Workload {
	t.Helper()
	p, err := LoadPropertiesFile(filepath.Join(scenarioDir, name))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range overrides {
		if err := p.ParseOverride(o); err != nil {
			t.Fatal(err)
		}
	}
	w, err := New(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return w
}

func props(kv ...string) Properties {
	p := NewProperties()
	p.Set("recordcount", "1000", "test")
	p.Set("operationcount", "1000", "test")
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1], "test")
	}
	return p
}

func TestEveryScenarioFileParsesAndValidates(t *testing.T) {
	entries, err := os.ReadDir(scenarioDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".go") { // suites/ holds YAML suites; the Go files build them into the binary
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			w := loadScenario(t, e.Name())
			// A worker must be able to run every operation of the mix.
			k := w.NewWorker(1)
			db := newMemDB()
			for range 200 {
				k.DoTransaction(context.Background(), db, nil)
			}
		})
	}
	if n < 10 {
		t.Errorf("found %d scenario files, want workloada-f and the presets", n)
	}
}

// The shipped workloads, as YCSB's own files define them.
var coreWorkloads = []struct {
	name  string
	mix   [NumOps]float64
	dist  string
	check func(c Config) bool
}{
	{"workloada", [NumOps]float64{Read: 0.5, Update: 0.5}, "zipfian", nil},
	{"workloadb", [NumOps]float64{Read: 0.95, Update: 0.05}, "zipfian", nil},
	{"workloadc", [NumOps]float64{Read: 1}, "zipfian", nil},
	{"workloadd", [NumOps]float64{Read: 0.95, Insert: 0.05}, "latest", nil},
	{"workloade", [NumOps]float64{Scan: 0.95, Insert: 0.05}, "zipfian", func(c Config) bool {
		return c.MaxScanLength == 100 && c.ScanLengthDistribution == "uniform"
	}},
	{"workloadf", [NumOps]float64{Read: 0.5, ReadModifyWrite: 0.5}, "zipfian", nil},
}

func TestCoreWorkloadFilesMatchYCSB(t *testing.T) {
	for _, cw := range coreWorkloads {
		c := loadScenario(t, cw.name).Config()
		if c.Proportions != cw.mix || c.RequestDistribution != cw.dist || c.RecordCount != 1000 || c.OperationCount != 1000 || !c.ReadAllFields {
			t.Errorf("%s: mix %v dist %s records %d ops %d readall %v; want mix %v dist %s, 1000 records and operations, readallfields",
				cw.name, c.Proportions, c.RequestDistribution, c.RecordCount, c.OperationCount, c.ReadAllFields, cw.mix, cw.dist)
		}
		if cw.check != nil && !cw.check(c) {
			t.Errorf("%s: scan settings %d/%s", cw.name, c.MaxScanLength, c.ScanLengthDistribution)
		}
	}
}

func TestOperationMixWithinOnePoint(t *testing.T) {
	const draws = 100000
	for _, cw := range coreWorkloads {
		k := loadScenario(t, cw.name).NewWorker(seed)
		var counts [NumOps]int
		for range draws {
			counts[k.NextOp()]++
		}
		for op := range NumOps {
			got := float64(counts[op]) / draws
			if math.Abs(got-cw.mix[op]) > 0.01 {
				t.Errorf("%s: %s is %.2f%% of %d draws, want %.0f%% within 1 point", cw.name, op, 100*got, draws, 100*cw.mix[op])
			}
		}
	}
}

func TestOpTypeNamesAreYCSBs(t *testing.T) {
	want := []string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"}
	for op := range NumOps {
		if op.String() != want[op] {
			t.Errorf("Op(%d) = %s, want %s", op, op, want[op])
		}
	}
}

func TestOpNamesAreTheMixsOperationsInOpOrder(t *testing.T) {
	var c Config
	c.Proportions[Scan], c.Proportions[Read] = 0.05, 0.95
	if got, want := c.OpNames(), []string{"READ", "SCAN"}; !slices.Equal(got, want) {
		t.Errorf("OpNames() = %v, want %v", got, want)
	}
	if got := (Config{}).OpNames(); got != nil {
		t.Errorf("an empty mix's OpNames() = %v, want none", got)
	}
}

// memDB is an in-memory DB recording the workload's calls; it stands in for
// a binding so the workload's choices can be checked, not HBase's behaviour.
type memDB struct {
	mu    sync.Mutex
	rows  map[string]map[string]string
	calls []call
	delay time.Duration
}

type call struct {
	op     string
	key    string
	count  int
	fields []string
	values []Field
}

func newMemDB() *memDB { return &memDB{rows: map[string]map[string]string{}} }

func (m *memDB) log(c call) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, c)
}

func copyFields(vs []Field) []Field {
	out := make([]Field, len(vs))
	for i, v := range vs {
		out[i] = Field{v.Name, slices.Clone(v.Value)}
	}
	return out
}

func (m *memDB) Read(_ context.Context, _, key string, fields []string) Status {
	m.log(call{op: "read", key: key, fields: slices.Clone(fields)})
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.rows[key]; !ok {
		return NotFound
	}
	return OK
}

func (m *memDB) Scan(_ context.Context, _, key string, n int, fields []string) Status {
	m.log(call{op: "scan", key: key, count: n, fields: slices.Clone(fields)})
	return OK
}

func (m *memDB) put(op, key string, vs []Field) Status {
	m.log(call{op: op, key: key, values: copyFields(vs)})
	if m.delay > 0 {
		time.Sleep(m.delay)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.rows[key]
	if r == nil {
		r = map[string]string{}
		m.rows[key] = r
	}
	for _, v := range vs {
		r[v.Name] = string(v.Value)
	}
	return OK
}

func (m *memDB) Update(_ context.Context, _, key string, vs []Field) Status {
	return m.put("update", key, vs)
}
func (m *memDB) Insert(_ context.Context, _, key string, vs []Field) Status {
	return m.put("insert", key, vs)
}
func (m *memDB) Delete(context.Context, string, string) Status { return OK }

func load(t testing.TB, w *Workload, db DB) {
	k := w.NewWorker(99)
	start, count := w.LoadRange()
	for n := start; n < start+count; n++ {
		if st := k.LoadRow(context.Background(), db, n, nil); st != OK {
			t.Fatalf("load row %d: %s", n, st)
		}
	}
}

func TestLoadedKeysAreFoundByEveryWorkload(t *testing.T) {
	for _, cw := range coreWorkloads {
		w := loadScenario(t, cw.name)
		db := newMemDB()
		load(t, w, db)
		k := w.NewWorker(seed)
		for range 5000 {
			if _, st := k.DoTransaction(context.Background(), db, nil); st != OK {
				t.Fatalf("%s: an operation returned %s: keys drawn outside the loaded or acknowledged rows", cw.name, st)
			}
		}
	}
}

func TestRunPhaseInsertsFollowRecordCount(t *testing.T) {
	for _, name := range []string{"workloadd", "workloade"} {
		w := loadScenario(t, name)
		db := newMemDB()
		load(t, w, db)
		db.calls = nil
		k := w.NewWorker(seed)
		var inserts []string
		for range 4000 {
			op, _ := k.DoTransaction(context.Background(), db, nil)
			if op == Insert {
				inserts = append(inserts, db.calls[len(db.calls)-1].key)
			}
		}
		if len(inserts) < 100 {
			t.Fatalf("%s: only %d inserts in 4000 operations", name, len(inserts))
		}
		for i, key := range inserts {
			if want := w.KeyForNumber(int64(1000 + i)); key != want {
				t.Fatalf("%s: insert %d wrote %s, want key number %d (%s)", name, i, key, 1000+i, want)
			}
		}
		if got, want := w.InsertCounter().Last(), int64(999+len(inserts)); got != want {
			t.Errorf("%s: acknowledged limit %d after %d inserts, want %d", name, got, len(inserts), want)
		}
	}
}

func TestLatestReadsNewestRowsAndNeverUnacknowledged(t *testing.T) {
	w := loadScenario(t, "workloadd")
	db := newMemDB()
	load(t, w, db)
	db.delay = 50 * time.Microsecond // keep inserts in flight while others read
	var wg sync.WaitGroup
	var mu sync.Mutex
	var missing []string
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := w.NewWorker(int64(i))
			for range 2000 {
				if op, st := k.DoTransaction(context.Background(), db, nil); op == Read && st != OK {
					mu.Lock()
					missing = append(missing, db.calls[len(db.calls)-1].key)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(missing) > 0 {
		t.Errorf("%d reads of rows not yet inserted, e.g. %s", len(missing), missing[0])
	}
	// Skew toward the newest: most reads fall in the last tenth of the key numbers.
	k := w.NewWorker(5)
	last := w.InsertCounter().Last()
	recent := 0
	for range 10000 {
		if k.NextKeyNumber() > last-last/10 {
			recent++
		}
	}
	if recent < 5000 {
		t.Errorf("only %d of 10000 latest draws in the newest tenth of rows", recent)
	}
}

type recorded struct {
	op         Op
	start, end time.Time
	st         Status
	followUp   bool
}

type sliceRecorder []recorded

func (r *sliceRecorder) Record(op Op, start, end time.Time, st Status) {
	*r = append(*r, recorded{op, start, end, st, false})
}

func (r *sliceRecorder) RecordFollowUp(op Op, start, end time.Time, st Status) {
	*r = append(*r, recorded{op, start, end, st, true})
}

// slowDB advances a fake clock by a fixed time per call, so recorded
// timings are exact.
type slowDB struct {
	*memDB
	now          *time.Time
	read, update time.Duration
}

func (d slowDB) Read(ctx context.Context, t, key string, f []string) Status {
	*d.now = d.now.Add(d.read)
	return d.memDB.Read(ctx, t, key, f)
}

func (d slowDB) Update(ctx context.Context, t, key string, v []Field) Status {
	*d.now = d.now.Add(d.update)
	return d.memDB.Update(ctx, t, key, v)
}

// TestReadModifyWriteSubOperationsCarryTheirOwnTimes checks on a fake clock
// that the READ and UPDATE of a read-modify-write each carry their own
// time, the UPDATE as a follow-up (so its intended start is its own start),
// and READ-MODIFY-WRITE spans both.
func TestReadModifyWriteSubOperationsCarryTheirOwnTimes(t *testing.T) {
	w := loadScenario(t, "workloadf")
	db := newMemDB()
	load(t, w, db)
	now := time.Unix(1000, 0)
	k := w.NewWorker(seed)
	k.SetClock(func() time.Time { return now })
	var rec sliceRecorder
	t0 := now
	k.Do(context.Background(), slowDB{db, &now, 3 * time.Millisecond, 5 * time.Millisecond}, ReadModifyWrite, &rec)
	want := []recorded{
		{Read, t0, t0.Add(3 * time.Millisecond), OK, false},
		{Update, t0.Add(3 * time.Millisecond), t0.Add(8 * time.Millisecond), OK, true},
		{ReadModifyWrite, t0, t0.Add(8 * time.Millisecond), OK, false},
	}
	if !slices.Equal(rec, want) {
		t.Errorf("recorded %v\nwant     %v", rec, want)
	}
}

func TestReadModifyWriteRecordsThreeMeasurements(t *testing.T) {
	w := loadScenario(t, "workloadf")
	db := newMemDB()
	load(t, w, db)
	db.calls = nil
	k := w.NewWorker(seed)
	var rec sliceRecorder
	if st := k.Do(context.Background(), db, ReadModifyWrite, &rec); st != OK {
		t.Fatalf("status %s", st)
	}
	if len(rec) != 3 || rec[0].op != Read || rec[1].op != Update || rec[2].op != ReadModifyWrite {
		t.Fatalf("recorded %v, want READ, UPDATE, READ-MODIFY-WRITE", rec)
	}
	if !rec[2].start.Equal(rec[0].start) || !rec[2].end.Equal(rec[1].end) || rec[1].start.Before(rec[0].end) {
		t.Errorf("READ-MODIFY-WRITE must span the read's start to the update's end: %v", rec)
	}
	if len(db.calls) != 2 || db.calls[0].op != "read" || db.calls[1].op != "update" || db.calls[0].key != db.calls[1].key {
		t.Errorf("calls %v: want a read and an update of the same row", db.calls)
	}
	if len(db.calls[1].values) != 1 {
		t.Errorf("update wrote %d fields, want one (writeallfields=false)", len(db.calls[1].values))
	}
}

func TestValuesArePrintableOfConfiguredLength(t *testing.T) {
	w := loadScenario(t, "workloada")
	k := w.NewWorker(seed)
	vals := k.RowValues()
	if len(vals) != 10 {
		t.Fatalf("%d fields, want 10", len(vals))
	}
	for i, f := range vals {
		if f.Name != "field"+string(rune('0'+i)) || len(f.Value) != 100 {
			t.Errorf("field %d: %s with %d bytes, want field%d with 100", i, f.Name, len(f.Value), i)
		}
		for _, c := range f.Value {
			if c < 0x20 || c > 0x7e {
				t.Fatalf("value byte %#x is not printable ASCII", c)
			}
		}
	}
	if string(vals[0].Value) == string(vals[1].Value) {
		t.Error("two fields of a row have the same random value")
	}
}

func TestLTTRowsVaryInColumnsAndSizes(t *testing.T) {
	w := loadScenario(t, "ltt-write")
	db := newMemDB()
	k := w.NewWorker(seed)
	counts := map[int]int{}
	minLen, maxLen, total, n := math.MaxInt, 0, 0, 0
	for range 3000 {
		if op, st := k.DoTransaction(context.Background(), db, nil); op != Insert || st != OK {
			t.Fatalf("ltt-write ran %s (%s), want only inserts", op, st)
		}
		vs := db.calls[len(db.calls)-1].values
		counts[len(vs)]++
		for _, v := range vs {
			minLen, maxLen = min(minLen, len(v.Value)), max(maxLen, len(v.Value))
			total += len(v.Value)
			n++
		}
	}
	for c := 1; c <= 10; c++ {
		if counts[c] < 200 {
			t.Errorf("%d rows with %d columns of 3000, want about 300 (uniform 1..10)", counts[c], c)
		}
	}
	if len(counts) != 10 || minLen < 512 || maxLen > 1536 || math.Abs(float64(total)/float64(n)-1024) > 20 {
		t.Errorf("column counts %v, sizes %d..%d mean %d: want 1..10 columns of 512..1536 bytes averaging 1024", counts, minLen, maxLen, total/n)
	}
}

func TestReadOneFieldAndWriteAllFields(t *testing.T) {
	w, err := New(props("readallfields", "false", "writeallfields", "true", "fieldcount", "4", "readproportion", "0.5", "updateproportion", "0.5"))
	if err != nil {
		t.Fatal(err)
	}
	db := newMemDB()
	k := w.NewWorker(seed)
	for range 200 {
		k.DoTransaction(context.Background(), db, nil)
	}
	for _, c := range db.calls {
		switch c.op {
		case "read":
			if len(c.fields) != 1 || !strings.HasPrefix(c.fields[0], "field") {
				t.Fatalf("read asked for %v, want one field", c.fields)
			}
		case "update":
			if len(c.values) != 4 {
				t.Fatalf("update wrote %d fields, want all 4", len(c.values))
			}
		}
	}
}

func TestWorkersAreReproducible(t *testing.T) {
	run := func() []call {
		w := loadScenario(t, "workloada")
		db := newMemDB()
		k := w.NewWorker(42)
		for range 500 {
			k.DoTransaction(context.Background(), db, nil)
		}
		return db.calls
	}
	a, b := run(), run()
	for i := range a {
		if a[i].op != b[i].op || a[i].key != b[i].key || (len(a[i].values) > 0 && string(a[i].values[0].Value) != string(b[i].values[0].Value)) {
			t.Fatalf("call %d differs between two runs with seed 42: %v vs %v", i, a[i], b[i])
		}
	}
}

func TestRequestDistributionsStayInKeyRange(t *testing.T) {
	for _, dist := range []string{"uniform", "zipfian", "latest", "hotspot", "sequential", "exponential"} {
		w, err := New(props("requestdistribution", dist, "insertstart", "100", "insertcount", "500"))
		if err != nil {
			t.Fatalf("%s: %v", dist, err)
		}
		k := w.NewWorker(seed)
		lo, hi := int64(100), int64(599)
		if dist == "latest" || dist == "exponential" {
			lo, hi = 0, 999 // both measure back from the last insert, as in YCSB
		}
		if dist == "zipfian" {
			hi = 600 // YCSB's scrambled range ends at insertstart+insertcount inclusive
		}
		for range 20000 {
			if n := k.NextKeyNumber(); n < lo || n > hi {
				t.Fatalf("%s drew key number %d outside %d..%d", dist, n, lo, hi)
			}
		}
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		kv   []string
		want string
	}{
		{[]string{"readproportion", "abc"}, "readproportion=abc in test: not a number"},
		{[]string{"readproportion", "0", "updateproportion", "0"}, "at least one must be positive"},
		{[]string{"updateproportion", "-1"}, "must not be negative"},
		{[]string{"requestdistribution", "gaussian"}, "requestdistribution=gaussian in test: must be one of"},
		{[]string{"fieldlengthdistribution", "uniform", "minfieldlength", "200"}, "minfieldlength=200 is above fieldlength=100"},
		{[]string{"insertstart", "900", "insertcount", "200"}, "beyond recordcount=1000"},
		{[]string{"minscanlength", "10", "maxscanlength", "5"}, "minscanlength=10 is above maxscanlength=5"},
		{[]string{"workload", "site.ycsb.workloads.TimeSeriesWorkload"}, "only site.ycsb.workloads.CoreWorkload"},
		{[]string{"requestdistribution", "hotspot", "hotspotdatafraction", "0"}, "hot set has 0 keys"},
		{[]string{"fieldcount", "0"}, "fieldcount=0 in test: must be between 1"},
		{[]string{"minfieldcount", "11"}, "minfieldcount=11 is above fieldcount=10"},
		{[]string{"fieldlengthdistribution", "histogram", "fieldlengthhistogram", "/nonexistent/hist.txt"}, "read fieldlengthhistogram"},
		{[]string{"insertorder", "random"}, "insertorder=random in test: must be one of hashed, ordered"},
		{[]string{"requestdistribution", "zipfian", "insertproportion", "0.5", "operationcount", "100000000"}, "expected new keys, over 100 times insertcount=1000"},
	}
	for _, tc := range tests {
		_, err := New(props(tc.kv...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want it to contain %q", tc.kv, err, tc.want)
		}
	}
	p := NewProperties()
	if _, err := New(p); err == nil || !strings.Contains(err.Error(), "recordcount is not set") || !strings.Contains(err.Error(), "operationcount is not set") {
		t.Errorf("empty properties: %v", err)
	}
}

func TestRecordCountZeroMeansMaxInt(t *testing.T) {
	w, err := New(props("recordcount", "0"))
	if err != nil {
		t.Fatal(err)
	}
	if c := w.Config(); c.RecordCount != math.MaxInt32 || c.InsertCount != math.MaxInt32 {
		t.Errorf("recordcount=0 gave %d rows, insertcount %d; YCSB reads it as 2^31-1", c.RecordCount, c.InsertCount)
	}
}

func TestExpectedNewKeysWidenZipfianKeySpace(t *testing.T) {
	w := loadScenario(t, "workloade", "operationcount=10000")
	if got := w.Config().ExpectedNewKeys; got != 1000 {
		t.Errorf("expectednewkeys = %d, want 10000 * 0.05 * 2 = 1000", got)
	}
}

func TestHistogramFieldLengths(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hist.txt"), []byte("BlockSize\t10\n0\t5\n1\t5\n2\t5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wf := filepath.Join(dir, "w")
	if err := os.WriteFile(wf, []byte("recordcount=10\noperationcount=10\nfieldlengthdistribution=histogram\nfieldlengthhistogram=hist.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPropertiesFile(wf)
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(p) // hist.txt is found beside the property file
	if err != nil {
		t.Fatal(err)
	}
	k := w.NewWorker(seed)
	for range 100 {
		for _, f := range k.RowValues() {
			if l := len(f.Value); l != 10 && l != 20 {
				t.Fatalf("histogram value of %d bytes, want 10 or 20", l)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "hist.txt"), []byte("Block\t10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(p); err == nil || !strings.Contains(err.Error(), "BlockSize") {
		t.Errorf("bad histogram header: %v", err)
	}
}

func TestLoadSharesCoverRangeOnce(t *testing.T) {
	w, err := New(props("recordcount", "2000", "insertstart", "100", "insertcount", "901"))
	if err != nil {
		t.Fatal(err)
	}
	next := int64(100)
	for i := range 7 {
		s, c := w.LoadShare(i, 7)
		if s != next || c < 128 || c > 129 {
			t.Errorf("share %d of 7 = [%d, +%d), want to start at %d with 128 or 129 rows", i, s, c, next)
		}
		next = s + c
	}
	if next != 1001 {
		t.Errorf("shares end at %d, want 1001", next)
	}
}

func TestLoadRowRecordsInsert(t *testing.T) {
	w := loadScenario(t, "workloada")
	db := newMemDB()
	var rec sliceRecorder
	if st := w.NewWorker(1).LoadRow(context.Background(), db, 1, &rec); st != OK {
		t.Fatal(st)
	}
	if len(rec) != 1 || rec[0].op != Insert || db.calls[0].key != "user8517097267634966620" {
		t.Errorf("recorded %v, wrote %s", rec, db.calls[0].key)
	}
}

type nopDB struct{}

func (nopDB) Read(context.Context, string, string, []string) Status      { return OK }
func (nopDB) Scan(context.Context, string, string, int, []string) Status { return OK }
func (nopDB) Update(context.Context, string, string, []Field) Status     { return OK }
func (nopDB) Insert(context.Context, string, string, []Field) Status     { return OK }
func (nopDB) Delete(context.Context, string, string) Status              { return OK }

func TestPerOperationAllocatesOnlyTheKey(t *testing.T) {
	for _, cw := range coreWorkloads {
		k := loadScenario(t, cw.name).NewWorker(seed)
		var rec nopRecorder
		ctx := context.Background()
		for range 1000 { // let buffers reach their working size
			k.DoTransaction(ctx, nopDB{}, rec)
		}
		if a := testing.AllocsPerRun(5000, func() { k.DoTransaction(ctx, nopDB{}, rec) }); a > 1 {
			t.Errorf("%s: %.2f allocations per operation, want at most 1 (the key string)", cw.name, a)
		}
	}
}

func BenchmarkNextOpKeyValue(b *testing.B) {
	for _, cw := range coreWorkloads {
		b.Run(cw.name, func(b *testing.B) {
			k := loadScenario(b, cw.name, "recordcount=1000000").NewWorker(seed)
			ctx := context.Background()
			var rec nopRecorder
			b.ReportAllocs()
			for b.Loop() {
				k.DoTransaction(ctx, nopDB{}, rec)
			}
		})
	}
}

func BenchmarkKeyChoice(b *testing.B) {
	for _, dist := range []string{"uniform", "zipfian", "latest", "hotspot", "exponential"} {
		b.Run(dist, func(b *testing.B) {
			w, err := New(props("recordcount", "1000000", "requestdistribution", dist))
			if err != nil {
				b.Fatal(err)
			}
			k := w.NewWorker(seed)
			buf := make([]byte, 0, 64)
			b.ReportAllocs()
			for b.Loop() {
				buf = k.AppendKey(buf[:0], k.NextKeyNumber())
			}
		})
	}
}

func BenchmarkRowValues1KB(b *testing.B) {
	w := loadScenario(b, "workloada")
	k := w.NewWorker(seed)
	b.ReportAllocs()
	b.SetBytes(1000)
	for b.Loop() {
		k.RowValues()
	}
}
