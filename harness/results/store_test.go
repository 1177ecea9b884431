package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func testManifest() *Manifest {
	return &Manifest{
		Version:  "2.6.1",
		Provider: "local",
		Settings: map[string]string{"hbase.regionserver.handler.count": "30"},
		Environment: Environment{CPUModel: "Test CPU <x86>", Cores: 2, MemoryBytes: 8 << 30,
			OS: "Linux", JDK: `openjdk version "17.0.9"`},
		Suite: SuiteInfo{Name: "smoke", Fingerprint: "0123456789abcdef", DataSpec: "rows=1000"},
	}
}

func testTrial(id string, pair int) Trial {
	return Trial{ID: id, RunID: "run1", Workload: "workloada", Pair: pair, Order: pair % 2,
		Start:          time.Date(2026, 11, 30, 18, 0, pair, 123456789, time.FixedZone("x", 3600)),
		DurationMillis: 30000, TargetOpsPerSec: 1000, AchievedOpsPerSec: 999.5,
		Ops: map[string]OpStats{"READ": {Count: 15000, Errors: 1, Statuses: map[string]int64{"OK": 14999, "ERROR": 1},
			Intended: Latency{P50Micros: 410.5, P95Micros: 900, P99Micros: 1500, P999Micros: 4000, MaxMicros: 9000, MeanMicros: 470.25},
			Service:  Latency{P50Micros: 400, P99Micros: 1400}}}}
}

func TestStoreLayoutAndRoundTrip(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Ensure(testManifest())
	if err != nil {
		t.Fatal(err)
	}
	k := KeyOf(m)
	want := filepath.Join(s.Root(), "2.6.1", "smoke-0123456789ab")
	if s.Dir(k) != want {
		t.Fatalf("dir = %s, want %s", s.Dir(k), want)
	}
	stored, err := s.AppendTrial(k, testTrial("t1", 0), strings.NewReader("#[Histogram log format version 1.3]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if stored.HlogFile != "trials/t1.hlog" || len(stored.HlogSHA256) != 64 {
		t.Fatalf("hlog not recorded: %+v", stored)
	}
	if _, err := os.Stat(filepath.Join(want, "trials", "t1.hlog")); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(k)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Trials) != 1 || got.Schema != SchemaVersion || got.Source != "regress" {
		t.Fatalf("loaded %+v", got)
	}
	if !got.Trials[0].Start.Equal(testTrial("t1", 0).Start) || got.Trials[0].Ops["READ"].Intended.P999Micros != 4000 {
		t.Fatalf("trial did not round-trip: %+v", got.Trials[0])
	}
	b, err := s.ReadHlog(k, got.Trials[0])
	if err != nil || !bytes.HasPrefix(b, []byte("#[Histogram")) {
		t.Fatalf("ReadHlog = %q, %v", b, err)
	}
	// Ensure on an existing entry returns what is stored, not the caller's copy.
	again, err := s.Ensure(testManifest())
	if err != nil || len(again.Trials) != 1 {
		t.Fatalf("Ensure on existing entry: %v, %d trials", err, len(again.Trials))
	}
}

func TestAppendNeverRewritesStoredTrials(t *testing.T) {
	s, _ := Open(t.TempDir())
	m, _ := s.Ensure(testManifest())
	k := KeyOf(m)
	if _, err := s.AppendTrial(k, testTrial("t1", 0), nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Dir(k), manifestFile)
	first, _ := os.ReadFile(path)
	if _, err := s.AppendTrial(k, testTrial("t2", 1), nil); err != nil {
		t.Fatal(err)
	}
	var a, b struct {
		Manifest struct {
			Trials []json.RawMessage `json:"trials"`
		} `json:"manifest"`
	}
	second, _ := os.ReadFile(path)
	if err := json.Unmarshal(first, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(second, &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Manifest.Trials) != 2 || !bytes.Equal(a.Manifest.Trials[0], b.Manifest.Trials[0]) {
		t.Fatalf("stored trial changed:\n%s\n%s", a.Manifest.Trials[0], b.Manifest.Trials[0])
	}
	if _, err := s.AppendTrial(k, testTrial("t1", 5), nil); err == nil || !strings.Contains(err.Error(), "already stored") {
		t.Fatalf("duplicate id: err = %v", err)
	}
}

func TestAppendToMissingEntry(t *testing.T) {
	s, _ := Open(t.TempDir())
	_, err := s.AppendTrial(Key{"2.5.0", "smoke", "abc"}, testTrial("t1", 0), nil)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func TestReadersRefuseDamage(t *testing.T) {
	good, err := EncodeManifest(func() *Manifest { m := testManifest(); m.Schema = SchemaVersion; return m }())
	if err != nil {
		t.Fatal(err)
	}
	future := testManifest()
	future.Schema = SchemaVersion + 1
	futureB, _ := EncodeManifest(future)
	for _, tc := range []struct {
		name string
		body []byte
		want error
		text string
	}{
		{"edited value", bytes.Replace(good, []byte(`"2.6.1"`), []byte(`"2.6.2"`), 1), ErrCorrupt, "checksum mismatch"},
		{"truncated", good[:len(good)/2], ErrCorrupt, "restore"},
		{"future schema", futureB, ErrSchema, "schema 2"},
		{"not a manifest", []byte(`{"trials":[]}`), ErrCorrupt, "not a regress manifest"},
		{"empty", nil, ErrCorrupt, "not a readable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeManifest(tc.body)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("err = %v, want %v containing %q", err, tc.want, tc.text)
			}
		})
	}
	// Whitespace is not content: a reindented file still verifies.
	var buf bytes.Buffer
	if err := json.Indent(&buf, good, "", "\t"); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeManifest(buf.Bytes()); err != nil {
		t.Fatalf("reindented manifest refused: %v", err)
	}
}

func TestReadHlogDetectsDamage(t *testing.T) {
	s, _ := Open(t.TempDir())
	m, _ := s.Ensure(testManifest())
	k := KeyOf(m)
	tr, err := s.AppendTrial(k, testTrial("t1", 0), strings.NewReader("data"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir(k), "trials", "t1.hlog"), []byte("dat4"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadHlog(k, tr); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("err = %v, want ErrCorrupt", err)
	}
	tr.HlogFile = "../../../etc/passwd"
	if _, err := s.ReadHlog(k, tr); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("escaping path: err = %v", err)
	}
}

func TestUnsafeNamesRefused(t *testing.T) {
	s, _ := Open(t.TempDir())
	for _, m := range []*Manifest{
		{Version: "../etc", Suite: SuiteInfo{Name: "smoke", Fingerprint: "ab"}},
		{Version: "2.6.1", Suite: SuiteInfo{Name: "a/b", Fingerprint: "ab"}},
		{Version: "", Suite: SuiteInfo{Name: "smoke", Fingerprint: "ab"}},
		// Issue 29's second probe round: a 300-byte label reached the file
		// system, which said "file name too long" through "read manifest".
		{Version: strings.Repeat("a", MaxNameLen+1), Suite: SuiteInfo{Name: "smoke", Fingerprint: "ab"}},
		{Version: "2.6.1", Suite: SuiteInfo{Name: strings.Repeat("s", 250), Fingerprint: "ab"}},
	} {
		if _, err := s.Ensure(m); err == nil || strings.Contains(err.Error(), "too long") {
			t.Errorf("Ensure(%+v): %v; want the name refused by the store's own rule", m, err)
		}
	}
	if err := ValidateTarget(strings.Repeat("a", 300)); err == nil || !strings.Contains(err.Error(), "is 300 bytes long") {
		t.Errorf("ValidateTarget(300 bytes): %v, want its length refused", err)
	}
	if err := ValidateTarget(strings.Repeat("a", MaxNameLen)); err != nil {
		t.Errorf("ValidateTarget(%d bytes): %v, want it accepted", MaxNameLen, err)
	}
	m, _ := s.Ensure(testManifest())
	if _, err := s.AppendTrial(KeyOf(m), testTrial("../x", 0), nil); err == nil {
		t.Error("unsafe trial id accepted")
	}
}

func TestConcurrentAppendsAllLand(t *testing.T) {
	s, _ := Open(t.TempDir())
	m, _ := s.Ensure(testManifest())
	k := KeyOf(m)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.AppendTrial(k, testTrial(fmt.Sprintf("t%d", i), i), strings.NewReader("x"))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Load(k)
	if err != nil || len(got.Trials) != 8 {
		t.Fatalf("after concurrent appends: %v, %d trials", err, len(got.Trials))
	}
}

func TestListAndFind(t *testing.T) {
	s, _ := Open(t.TempDir())
	a, _ := s.Ensure(testManifest())
	_, _ = s.AppendTrial(KeyOf(a), testTrial("t1", 0), nil)
	b := testManifest()
	b.Version, b.Label, b.Source = "2.5.10", "", "ycsb-import"
	bm, _ := s.Ensure(b)
	_, _ = s.AppendSummary(KeyOf(bm), testTrial("s1", 0), nil)
	entries, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].Target != "2.5.10" || entries[0].Summaries != 1 || entries[0].Source != "ycsb-import" ||
		entries[1].Trials != 1 || entries[1].Updated.IsZero() {
		t.Fatalf("List = %#v", entries)
	}
	// A damaged entry is reported but does not hide the others.
	if err := os.WriteFile(filepath.Join(entries[0].Dir, manifestFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := s.Find("2.6.1", "smoke")
	if len(found) != 1 || err != nil {
		t.Fatalf("Find = %+v, %v", found, err)
	}
	found, err = s.Find("2.5.10", "")
	if len(found) != 0 || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Find of the damaged target = %+v, %v", found, err)
	}
}

func TestEnvironmentParsers(t *testing.T) {
	if got := cpuModel([]byte("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n")); got != "Intel(R) Xeon(R) CPU @ 2.20GHz" {
		t.Errorf("cpuModel = %q", got)
	}
	if got := memTotal([]byte("MemTotal:        8135280 kB\nMemFree: 1 kB\n")); got != 8135280*1024 {
		t.Errorf("memTotal = %d", got)
	}
	if got := osReleasePretty([]byte("NAME=\"Debian\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n")); got != "Debian GNU/Linux 12 (bookworm)" {
		t.Errorf("osReleasePretty = %q", got)
	}
	e := CurrentEnvironment(JDK{Version: "17.0.15", Major: 17, Java: "/usr/bin/java"})
	if e.Cores < 1 || e.OS == "" || e.JDK != "JDK 17.0.15 (/usr/bin/java)" || e.JDKParts == nil || e.JDKParts.Major != 17 {
		t.Errorf("CurrentEnvironment = %+v", e)
	}
	if d := e.Diff(e); len(d) != 0 {
		t.Errorf("self diff = %v", d)
	}
	o := e
	o.Cores++
	if d := e.Diff(o); len(d) != 1 || !strings.HasPrefix(d[0], "cores ") {
		t.Errorf("diff = %v", d)
	}
}

func FuzzDecodeManifest(f *testing.F) {
	m := testManifest()
	m.Schema = SchemaVersion
	m.Trials = []Trial{testTrial("t1", 0)}
	good, _ := EncodeManifest(m)
	f.Add(good)
	f.Add([]byte(`{"format":"regress-manifest","sha256":"00","manifest":{}}`))
	f.Add([]byte(`{"format":"regress-manifest","manifest":null}`))
	// Extreme figures, signed: what an edited manifest holds.
	for _, v := range []float64{1e308, -1e308, 1e16, -1} {
		x := testManifest()
		x.Schema = SchemaVersion
		tr := testTrial("t1", 0)
		op := tr.Ops["READ"]
		op.Intended.P99Micros = v
		tr.Ops["READ"] = op
		x.Trials = []Trial{tr}
		b, _ := EncodeManifest(x)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := DecodeManifest(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSchema) {
				t.Fatalf("error wraps neither ErrCorrupt nor ErrSchema: %v", err)
			}
			return
		}
		// Whatever decodes holds figures the statistics can take.
		if err := checkFigures(got); err != nil {
			t.Fatalf("a manifest with %v decoded", err)
		}
		// Whatever decodes must encode and decode to the same manifest.
		again, err := EncodeManifest(got)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeManifest(again); err != nil {
			t.Fatalf("re-encoded manifest refused: %v", err)
		}
	})
}

func TestHistogramsMergeByTagAcrossTrials(t *testing.T) {
	s, _ := Open(t.TempDir())
	m, _ := s.Ensure(testManifest())
	k := KeyOf(m)
	var trials []Trial
	for i, v := range []int64{100, 300} {
		var buf bytes.Buffer
		w := hdrhistogram.NewHistogramLogWriter(&buf)
		_ = w.OutputLogFormatVersion()
		_ = w.OutputLegend()
		for _, tag := range []string{"READ.intended", "READ.service"} {
			h := hdrhistogram.New(1, 3_600_000_000, 3)
			for range 10 {
				_ = h.RecordValue(v)
			}
			h.SetTag(tag)
			h.SetStartTimeMs(1000)
			h.SetEndTimeMs(2000)
			if err := w.OutputIntervalHistogram(h); err != nil {
				t.Fatal(err)
			}
		}
		tr, err := s.AppendTrial(k, testTrial(fmt.Sprintf("t%d", i), i), &buf)
		if err != nil {
			t.Fatal(err)
		}
		trials = append(trials, tr)
	}
	hs, err := s.Histograms(k, trials)
	if err != nil {
		t.Fatal(err)
	}
	r := hs["READ.intended"]
	if len(hs) != 2 || r == nil || r.TotalCount() != 20 || r.Max() < 299 || r.Min() > 100 {
		t.Fatalf("merged = %v", hs)
	}
}

func TestOrphanedLogOfACrashedAppendIsReplaced(t *testing.T) {
	s, _ := Open(t.TempDir())
	m, _ := s.Ensure(testManifest())
	k := KeyOf(m)
	// A crash between the log write and the manifest write leaves this behind.
	if err := os.WriteFile(filepath.Join(s.Dir(k), "trials", "t1.hlog"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := s.AppendTrial(k, testTrial("t1", 0), strings.NewReader("whole"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := s.ReadHlog(k, tr); err != nil || string(b) != "whole" {
		t.Fatalf("ReadHlog = %q, %v", b, err)
	}
}

func TestEnsureRefusesOtherJarsUnderOneLabel(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Version: "2.6.1", Label: "2.6.1RC0", Provider: "local", Suite: SuiteInfo{Name: "smoke", Fingerprint: "f"},
		JarChecksums: map[string]string{"hbase-server-2.6.1.jar": "aaaa"}}
	if _, err := s.Ensure(m); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ensure(m); err != nil {
		t.Fatalf("same jars again: %v", err)
	}
	rc1 := *m
	rc1.JarChecksums = map[string]string{"hbase-server-2.6.1.jar": "bbbb"}
	if _, err := s.Ensure(&rc1); !errors.Is(err, ErrJarsDiffer) {
		t.Fatalf("other jars under the RC0 label: err = %v, want ErrJarsDiffer", err)
	}
}

func TestEnsureRefusesAnotherVersionUnderOneLabel(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Version: "2.6.0", Label: "same", Provider: "external", Suite: SuiteInfo{Name: "ycsb-import", Fingerprint: "f"}}
	if _, err := s.Ensure(m); err != nil {
		t.Fatal(err)
	}
	other := *m
	other.Version = "2.6.1"
	_, err = s.Ensure(&other)
	if !errors.Is(err, ErrVersionsDiffer) || !strings.Contains(err.Error(), "holds results of HBase 2.6.0, not 2.6.1") ||
		!strings.Contains(err.Error(), "regress results remove same/ycsb-import-f") {
		t.Fatalf("2.6.1 under the label of 2.6.0: err = %v, want ErrVersionsDiffer saying what to do", err)
	}
	// A version's own name taken as another version's label is the same mix.
	plain := &Manifest{Version: "2.6.1", Provider: "local", Suite: SuiteInfo{Name: "smoke", Fingerprint: "f"}}
	if _, err := s.Ensure(plain); err != nil {
		t.Fatal(err)
	}
	mislabelled := &Manifest{Version: "2.6.0", Label: "2.6.1", Provider: "local", Suite: SuiteInfo{Name: "smoke", Fingerprint: "f"}}
	if _, err := s.Ensure(mislabelled); !errors.Is(err, ErrVersionsDiffer) {
		t.Fatalf("2.6.0 labelled 2.6.1: err = %v, want ErrVersionsDiffer", err)
	}
	// Issue 29's second probe round: under another suite (import-ycsb
	// --suite other), or the suite edited between runs (another
	// fingerprint), the label took the other version (exit 0).
	for _, suite := range []SuiteInfo{{Name: "other", Fingerprint: "f"}, {Name: "ycsb-import", Fingerprint: "e"}} {
		o := *m
		o.Version, o.Suite = "2.6.1", suite
		_, err := s.Ensure(&o)
		if !errors.Is(err, ErrVersionsDiffer) || !strings.Contains(err.Error(), "same holds results of HBase 2.6.0 (in same/ycsb-import-f), not 2.6.1") {
			t.Errorf("2.6.1 under label same, suite %+v: err = %v, want ErrVersionsDiffer naming the entry", suite, err)
		}
	}
	// The same release's other build, and the same version, under a new suite are welcome.
	for _, v := range []string{"2.6.0", "2.6.0-hadoop3"} {
		o := *m
		o.Version, o.Suite = v, SuiteInfo{Name: "other-" + v, Fingerprint: "f"}
		if _, err := s.Ensure(&o); err != nil {
			t.Errorf("%s under label same, a new suite: %v, want it stored", v, err)
		}
	}
}
