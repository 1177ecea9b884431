package results

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// damagedStore is a store with two good entries (2.6.1 and 2.5.10) and one
// damaged entry of each kind under other targets.
func damagedStore(t *testing.T) (*Store, map[string]string) {
	t.Helper()
	s, _ := Open(t.TempDir())
	for _, v := range []string{"2.6.1", "2.5.10"} {
		m := testManifest()
		m.Version = v
		got, err := s.Ensure(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AppendTrial(KeyOf(got), testTrial("t1", 0), strings.NewReader("#[Histogram log format version 1.3]\n")); err != nil {
			t.Fatal(err)
		}
	}
	good, _ := EncodeManifest(func() *Manifest { m := testManifest(); m.Schema = SchemaVersion; return m }())
	future := testManifest()
	future.Schema = SchemaVersion + 1
	futureB, _ := EncodeManifest(future)
	mk := func(target string) string {
		dir := filepath.Join(s.Root(), target, "smoke-0123456789ab")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(dir, manifestFile)
	}
	why := map[string]string{}
	write := func(target string, b []byte, reason string) {
		if err := os.WriteFile(mk(target), b, 0o644); err != nil {
			t.Fatal(err)
		}
		why[target] = reason
	}
	write("truncated", good[:len(good)/2], "not a readable manifest")
	write("future", futureB, "schema 2")
	write("moved", good, "not of the directory it lies in")
	if err := syscall.Mkfifo(mk("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	why["fifo"] = "not a regular file"
	p := mk("loop")
	if err := os.Symlink(p, p); err != nil {
		t.Fatal(err)
	}
	why["loop"] = "a symbolic link where a manifest belongs"
	return s, why
}

func TestDamagedEntriesHideNoGoodOnes(t *testing.T) {
	s, why := damagedStore(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		entries, err := s.List()
		var de *DamagedError
		if len(entries) != 2 || !errors.As(err, &de) || len(de.Entries) != len(why) {
			t.Errorf("List = %d entries, %v", len(entries), err)
			return
		}
		for _, d := range de.Entries {
			if !strings.Contains(d.Err.Error(), why[d.Target]) {
				t.Errorf("%s: %v, want %q", d, d.Err, why[d.Target])
			}
		}
		for _, v := range []string{"2.6.1", "2.5.10"} {
			if m, err := s.Resolve(v, ""); err != nil || len(m.Trials) != 1 {
				t.Errorf("Resolve(%s) = %v", v, err)
			}
			if m, err := s.FindTrials(v, "smoke", "0123456789abcdef"); err != nil || len(m.Trials) != 1 {
				t.Errorf("FindTrials(%s) = %v", v, err)
			}
		}
		for target := range why {
			if _, err := s.Resolve(target, ""); err == nil || !strings.Contains(err.Error(), why[target]) {
				t.Errorf("Resolve(%s) = %v, want the damage named", target, err)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reading a store with a FIFO manifest hung")
	}
}

func TestCheckNamesEveryEntry(t *testing.T) {
	s, why := damagedStore(t)
	// A damaged log makes its entry damaged too.
	if err := os.WriteFile(filepath.Join(s.Root(), "2.5.10", "smoke-0123456789ab", "trials", "t1.hlog"), []byte("lag"), 0o644); err != nil {
		t.Fatal(err)
	}
	sts, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, st := range sts {
		if st.Err != nil {
			got[st.Name] = st.Err.Error()
		} else {
			got[st.Name] = "good"
		}
	}
	want := map[string]string{"2.6.1/smoke-0123456789ab": "good", "2.5.10/smoke-0123456789ab": "checksum does not match"}
	for target, w := range why {
		want[target+"/smoke-0123456789ab"] = w
	}
	if len(got) != len(want) {
		t.Fatalf("Check = %v", got)
	}
	for name, w := range want {
		if !strings.Contains(got[name], w) {
			t.Errorf("%s: %q, want %q", name, got[name], w)
		}
	}
}

func TestRemove(t *testing.T) {
	s, why := damagedStore(t)
	for target := range why {
		if _, err := s.Remove(target + "/smoke-0123456789ab"); err != nil {
			t.Errorf("remove damaged %s: %v", target, err)
		}
		if _, err := os.Lstat(filepath.Join(s.Root(), target)); !os.IsNotExist(err) {
			t.Errorf("%s left behind: %v", target, err)
		}
	}
	if _, err := s.Remove("2.6.1/smoke-0123456789ab"); err != nil {
		t.Fatal(err)
	}
	entries, err := s.List()
	if err != nil || len(entries) != 1 || entries[0].Target != "2.5.10" {
		t.Fatalf("after removal: %+v, %v", entries, err)
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(s.Root(), "link")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"2.6.1/smoke-0123456789ab", "../x/y", "2.5.10", "2.5.10/smoke/x", "link/x", ".lock/x", "2.5.10/trials"} {
		if _, err := s.Remove(name); err == nil {
			t.Errorf("Remove(%q) accepted", name)
		}
	}
	if _, err := os.Stat(outside); err != nil {
		t.Fatal(err)
	}
}

func TestLockWaitEndsWithContext(t *testing.T) {
	s, _ := Open(t.TempDir())
	m, _ := s.Ensure(testManifest())
	unlock, err := s.lock()
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	// flock locks belong to the open file, so a second open in this process waits like another process.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = s.WithContext(ctx).AppendSummaries(KeyOf(m), []Pending{{Trial: testTrial("s1", 0)}})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("lock wait took %v after its context ended", d)
	}
}

func TestAppendSummariesIsIdempotent(t *testing.T) {
	s, _ := Open(t.TempDir())
	m, _ := s.Ensure(testManifest())
	k := KeyOf(m)
	var ps []Pending
	for i := range 2000 {
		ps = append(ps, Pending{Trial: testTrial(fmt.Sprintf("s%d", i), 0)})
	}
	ps[7].Hlog = []byte("log")
	stored, skipped, err := s.AppendSummaries(k, ps[:1500])
	if err != nil || len(stored) != 1500 || len(skipped) != 0 {
		t.Fatalf("first = %d, %d, %v", len(stored), len(skipped), err)
	}
	// A resumed import stores only the rest.
	stored, skipped, err = s.AppendSummaries(k, ps)
	if err != nil || len(stored) != 500 || len(skipped) != 1500 {
		t.Fatalf("resumed = %d, %d, %v", len(stored), len(skipped), err)
	}
	got, err := s.Load(k)
	if err != nil || len(got.Summaries) != 2000 {
		t.Fatalf("stored %d, %v", len(got.Summaries), err)
	}
	if b, err := s.ReadHlog(k, got.Summaries[7]); err != nil || string(b) != "log" {
		t.Fatalf("hlog = %q, %v", b, err)
	}
}

func TestWorkloadHistogramsSaysWhatIsLost(t *testing.T) {
	s, _ := Open(t.TempDir())
	m, _ := s.Ensure(testManifest())
	k := KeyOf(m)
	var buf bytes.Buffer
	w := hdrhistogram.NewHistogramLogWriter(&buf)
	_ = w.OutputLogFormatVersion()
	h := hdrhistogram.New(1, 1000, 3)
	_ = h.RecordValue(5)
	h.SetTag("READ.service")
	_ = w.OutputIntervalHistogram(h)
	if _, err := s.AppendTrial(k, testTrial("t1", 0), &buf); err != nil {
		t.Fatal(err)
	}
	// A manifest directory copied out of the store reads its logs beside it.
	out := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(out, os.DirFS(s.Dir(k))); err != nil {
		t.Fatal(err)
	}
	other, _ := Open(t.TempDir())
	cm, err := other.Resolve(out, "")
	if err != nil {
		t.Fatal(err)
	}
	hs, err := other.WorkloadHistograms(cm)
	if err != nil || hs["workloada"]["READ.service"] == nil {
		t.Fatalf("outside the store: %v, %v", hs, err)
	}
	if err := os.Remove(filepath.Join(out, "trials", "t1.hlog")); err != nil {
		t.Fatal(err)
	}
	hs, err = other.WorkloadHistograms(cm)
	if err == nil || !strings.Contains(err.Error(), "workload workloada") || len(hs) != 0 {
		t.Fatalf("missing log: %v, %v", hs, err)
	}
}

func TestReadOnlyOpenCreatesNothing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "none")
	s, err := OpenReadOnly(root)
	if err != nil {
		t.Fatal(err)
	}
	if entries, err := s.List(); err != nil || len(entries) != 0 {
		t.Fatalf("List = %v, %v", entries, err)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("store created: %v", err)
	}
	f := filepath.Join(t.TempDir(), "file")
	_ = os.WriteFile(f, nil, 0o644)
	if _, err := OpenReadOnly(f); err == nil {
		t.Fatal("a file accepted as a store")
	}
}

func TestSuggestedCommandsQuoteUserInput(t *testing.T) {
	s, _ := Open(t.TempDir())
	_, err := s.Resolve("2.6.1; rm -rf ~", "")
	if err == nil || !strings.Contains(err.Error(), `--version '2.6.1; rm -rf ~'`) {
		t.Fatalf("err = %v", err)
	}
	m, _ := s.Ensure(testManifest())
	_ = m
	_, err = s.Resolve("2.6.1", "other")
	if err == nil || !strings.Contains(err.Error(), "has results of suite smoke") {
		t.Fatalf("other suite: %v", err)
	}
}

// TestResolveTakesAManifestFileAndNamesOtherFiles: `compare --baseline
// DIR/manifest.json` (the file, not its directory) said "nothing stored for
// ".../manifest.json": run `regress run --version .../manifest.json`", a
// command that cannot work. The manifest file is now read as its directory
// is; another file is named as a file.
func TestResolveTakesAManifestFileAndNamesOtherFiles(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Ensure(testManifest())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendTrial(KeyOf(m), testTrial("t1", 0), strings.NewReader("#[Histogram log format version 1.3]\n")); err != nil {
		t.Fatal(err)
	}
	dir := s.Dir(KeyOf(m))
	got, err := s.Resolve(filepath.Join(dir, manifestFile), "")
	if err != nil || len(got.Trials) != 1 || got.Dir != dir {
		t.Fatalf("Resolve(manifest file) = %+v, %v; want its entry with 1 trial, read from %s", got, err, dir)
	}
	other := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(other, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.Resolve(other, "")
	if err == nil || !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "is a regular file, not a directory holding manifest.json") || strings.Contains(err.Error(), "regress run --version") {
		t.Errorf("Resolve(a file) = %v; want it named as a file, with no `regress run --version FILE` advice", err)
	}
}

// TestManifestWithOneIDOrLogTwiceIsDamaged: a manifest edited and re-signed
// so that two trials share an id, or name one .hlog, read as good to
// `results check` and `compare` (issue 29's second probe round); the store
// never writes either, and the two results would be read mixed. It is
// damaged.
func TestManifestWithOneIDOrLogTwiceIsDamaged(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(m *Manifest)
		want string
	}{
		{"two trials, one id", func(m *Manifest) { m.Trials[1].ID = m.Trials[0].ID }, `trial id "t1" appears twice`},
		{"a trial and a summary, one id", func(m *Manifest) { m.Summaries = append(m.Summaries, m.Trials[0]); m.Summaries[0].HlogFile = "" }, `trial id "t1" appears twice`},
		{"two trials, one log", func(m *Manifest) { m.Trials[1].HlogFile = m.Trials[0].HlogFile }, `trials "t1" and "t2" name one log`},
	} {
		m := testManifest()
		m.Schema = SchemaVersion
		m.Trials = []Trial{testTrial("t1", 0), testTrial("t2", 1)}
		m.Trials[0].HlogFile, m.Trials[1].HlogFile = "trials/t1.hlog", "trials/t2.hlog"
		b, err := EncodeManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeManifest(b); err != nil {
			t.Fatalf("%s: the manifest before the edit: %v", tc.name, err)
		}
		tc.edit(m)
		if b, err = EncodeManifest(m); err != nil {
			t.Fatal(err)
		}
		_, err = DecodeManifest(b)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a damaged manifest saying %q", tc.name, err, tc.want)
		}
	}
}

// TestCheckNamesALabelHoldingTwoVersions: a store written before the store
// refused it across suites holds one label with results of two versions
// (import-ycsb --label same, then --version 2.6.1 --label same --suite
// other); `results check` called both entries good. Each is now named, with
// the other version's entries.
func TestCheckNamesALabelHoldingTwoVersions(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	put := func(version, suite string) {
		t.Helper()
		m := testManifest()
		m.Schema, m.Version, m.Label, m.Suite = SchemaVersion, version, "same", SuiteInfo{Name: suite, Fingerprint: "0123456789abcdef"}
		m.Trials = []Trial{testTrial("t1", 0)}
		b, err := EncodeManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		dir := s.Dir(KeyOf(m))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, manifestFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("2.6.0", "smoke")
	put("2.6.1", "other")
	put("2.6.0-hadoop3", "quick") // the same release's build: no third version
	sts, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, st := range sts {
		if st.Err != nil {
			got[st.Name] = st.Err.Error()
		} else {
			got[st.Name] = "good"
		}
	}
	want := map[string]string{
		"same/smoke-0123456789ab": "same names results of HBase 2.6.0 here and of 2.6.1 in same/other-0123456789ab",
		"same/quick-0123456789ab": "same names results of HBase 2.6.0-hadoop3 here and of 2.6.1 in same/other-0123456789ab",
		"same/other-0123456789ab": "same names results of HBase 2.6.1 here and of 2.6.0 in same/quick-0123456789ab, same/smoke-0123456789ab",
	}
	for name, w := range want {
		if !strings.Contains(got[name], w) {
			t.Errorf("%s: %q, want %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("check = %v, want exactly %v", got, want)
	}
}
