package results

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// profiledEntry is a store with one good entry (trial t1 of run1) holding
// the stacks of every kind for its profiled pair (run1-workloada-profile,
// with its description) and, as runs before the profiled pair stored them,
// for the trial itself; it returns the store and the entry's directory.
func profiledEntry(t *testing.T) (*Store, string) {
	t.Helper()
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
	stacks := "java.lang.Thread.run;org.apache.hadoop.hbase.ipc.RpcHandler.run 42\n\nThread.run;Object.wait 0\n"
	for _, id := range []string{"run1-workloada-profile", "t1"} {
		for _, kind := range ProfileKinds {
			if err := WriteProfile(dir, id, kind, func(w io.Writer) error { _, err := io.WriteString(w, stacks); return err }); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := WriteProfileMeta(dir, &ProfileMeta{ID: "run1-workloada-profile", RunID: "run1", Workload: "workloada", Ops: 1000}); err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// TestCheckVerifiesProfiles: a good entry with profiles checks clean; a
// damaged stacks file or description makes the entry DAMAGED naming the
// file and what to do; a file of profiles/ or of the entry that is no
// part of it is a leftover.
func TestCheckVerifiesProfiles(t *testing.T) {
	const entry = "2.6.1/smoke-0123456789ab"
	tests := []struct {
		name   string
		file   string // relative to the entry; "" for none
		body   string // written to file; "dir" makes it a directory
		damage string // what the DAMAGED line says; "" when the entry stays good
		left   string // what the LEFTOVER line says; "" for none
	}{
		{name: "good entry with profiles"},
		{name: "stacks without weights", file: "profiles/t1.cpu.folded", body: "a;b;c\n", damage: "t1.cpu.folded line 1"},
		{name: "a negative weight", file: "profiles/run1-workloada-profile.wait-events.folded", body: "a;b 1\na;c -3\n", damage: "line 2: weight \"-3\""},
		{name: "a weight that is no number", file: "profiles/t1.alloc-samples.folded", body: "a;b 1.5\n", damage: "weight \"1.5\""},
		{name: "a description that is no JSON", file: "profiles/run1-workloada-profile.json", body: "{not json", damage: "not a profile's description"},
		{name: "a description of a run not stored here", file: "profiles/run1-workloada-profile.json", body: `{"id":"run1-workloada-profile","run_id":"run9"}`, damage: `run "run9", which stored no trial here`},
		{name: "a description naming another profile", file: "profiles/run1-workloada-profile.json", body: `{"id":"other","run_id":"run1"}`, damage: `names profile "other"`},
		{name: "stacks of no trial and no description", file: "profiles/gone.cpu.folded", body: "a;b 1\n", left: "stacks of no stored trial"},
		{name: "a kind the store does not know", file: "profiles/t1.flame.folded", body: "a;b 1\n", left: "no profile (a profile is ID.KIND.folded"},
		{name: "a stray file among profiles", file: "profiles/notes.txt", body: "hello", left: "no profile"},
		{name: "a directory among profiles", file: "profiles/old", body: "dir", left: "a directory where a profile's file belongs"},
		{name: "an interrupted profile write", file: "profiles/.t1.cpu.folded.tmp-123", body: "a;", left: "temporary file"},
		{name: "a stray file in the entry", file: "README", body: "notes", left: "a regular file that is no part of a store entry"},
		{name: "a stray directory in the entry", file: "flamegraphs", body: "dir", left: "a directory that is no part of a store entry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := profiledEntry(t)
			path := filepath.Join(dir, filepath.FromSlash(tt.file))
			switch {
			case tt.file == "":
			case tt.body == "dir":
				if err := os.MkdirAll(path, 0o755); err != nil {
					t.Fatal(err)
				}
			default:
				if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sts, err := s.Check()
			if err != nil {
				t.Fatal(err)
			}
			var damaged, left []string
			good := false
			for _, st := range sts {
				switch {
				case st.Leftover:
					left = append(left, st.Name+": "+st.Err.Error())
				case st.Err != nil:
					damaged = append(damaged, st.Name+": "+st.Err.Error())
				case st.Name == entry:
					good = true
				}
			}
			if tt.damage == "" && (!good || len(damaged) > 0) {
				t.Errorf("entry not good: damaged %q", damaged)
			}
			if tt.damage != "" {
				if len(damaged) != 1 || !strings.Contains(damaged[0], tt.damage) || !strings.Contains(damaged[0], filepath.Base(tt.file)) || !strings.Contains(damaged[0], "the trials are intact") {
					t.Errorf("damaged %q, want one naming %s and saying %q", damaged, tt.file, tt.damage)
				}
			}
			if tt.left == "" && len(left) > 0 {
				t.Errorf("leftovers %q, want none", left)
			}
			if tt.left != "" && (len(left) != 1 || !strings.HasPrefix(left[0], entry+"/"+tt.file+": ") || !strings.Contains(left[0], tt.left)) {
				t.Errorf("leftovers %q, want %s/%s saying %q", left, entry, tt.file, tt.left)
			}
		})
	}
}

// TestProfileLayout: where a trial's stacks and description lie, and what
// the store refuses to write.
func TestProfileLayout(t *testing.T) {
	if got, want := ProfileFile("/store/2.6.1/quick-abc", "20261202T010000-workloadc-p00", "alloc"), "/store/2.6.1/quick-abc/profiles/20261202T010000-workloadc-p00.alloc.folded"; got != want {
		t.Errorf("ProfileFile = %s, want %s", got, want)
	}
	if got, want := ProfileMetaFile("/store/e", "run-w-profile"), "/store/e/profiles/run-w-profile.json"; got != want {
		t.Errorf("ProfileMetaFile = %s, want %s", got, want)
	}
	for _, name := range []string{"t1.cpu.folded", "t1.alloc.folded", "t1.alloc-samples.folded", "t1.wait.folded", "t1.wait-events.folded", "a.b.wait.folded"} {
		id, kind, ok := profileFileKind(name)
		if !ok || ProfileFile("", id, kind) != filepath.Join(ProfilesDir, name) {
			t.Errorf("%s: id %q kind %q (%v), want the name back", name, id, kind, ok)
		}
	}
	dir := t.TempDir()
	if err := WriteProfile(dir, "t1", "flame", func(io.Writer) error { return nil }); err == nil || !strings.Contains(err.Error(), "wait-events") {
		t.Errorf("an unknown kind written: %v", err)
	}
	if err := WriteProfileMeta(dir, &ProfileMeta{ID: "t1"}); err == nil {
		t.Error("a description of no run written")
	}
	if _, err := os.Stat(filepath.Join(dir, ProfilesDir)); !os.IsNotExist(err) {
		t.Errorf("a refused write left %s: %v", ProfilesDir, err)
	}
}

// TestProfileMetasSkipWhatIsNotOne: a damaged description is named, the
// others still read, and a dir without profiles gives none.
func TestProfileMetasSkipWhatIsNotOne(t *testing.T) {
	dir := t.TempDir()
	if m, err := ReadProfileMetas(dir); err != nil || len(m) != 0 {
		t.Fatalf("no profiles: %v %v", m, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ProfilesDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"a.json": `{"id":"a","run_id":"r","workload":"workloadc","ops":10}`, "b.json": `{not json`, "c.json": `{}`} {
		if err := os.WriteFile(filepath.Join(dir, ProfilesDir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := ReadProfileMetas(dir)
	if len(m) != 1 || m[0].ID != "a" || m[0].Ops != 10 {
		t.Errorf("descriptions %+v, want a's", m)
	}
	if err == nil || !strings.Contains(err.Error(), "b.json") || !strings.Contains(err.Error(), "c.json") {
		t.Errorf("error %v, want b.json and c.json named", err)
	}
}

// TestNewServerStats: cpu_per_op is the request threads' CPU where read,
// else the process's net of the idle background (never below 0);
// alloc_per_op the request threads' where the agent read them, else the
// whole JVMs', background kept; no operations or window: counts only.
func TestNewServerStats(t *testing.T) {
	idle := &IdleRates{CPUMillisPerSec: 15, AllocBytesPerSec: 1 << 19}
	win := WindowCost{Window: 8 * time.Second, CPU: 840 * time.Millisecond, Allocated: 40 << 20, AllocKnown: true, GCs: 2, GCPause: 3 * time.Millisecond, Flushes: 1}
	with := func(f func(*WindowCost)) WindowCost { c := win; f(&c); return c }
	tests := []struct {
		name                string
		c                   WindowCost
		idle                *IdleRates
		ops                 int64
		cpu, process, gross float64
		cpuSource           string
		alloc, processAlloc float64
		allocSource         string
		idleCPU, idleAlloc  float64
	}{
		// 840 ms - 15 ms/s * 8 s = 720 ms over 2400 ops.
		{"process net of idle", win, idle, 2400, 300, 300, 350, CPUFromProcess, float64(40<<20) / 2400, float64(40<<20) / 2400, AllocFromProcess, 15, 1 << 19},
		{"request threads read", with(func(c *WindowCost) {
			c.RequestCPU, c.RequestAllocated, c.RequestAllocKnown = 480*time.Millisecond, 24000, true
		}), idle, 2400,
			200, 300, 350, CPUFromRequestThreads, 10, float64(40<<20) / 2400, AllocFromRequestThreads, 15, 1 << 19},
		{"no idle watch", win, nil, 2400, 350, 350, 350, CPUFromProcess, float64(40<<20) / 2400, float64(40<<20) / 2400, AllocFromProcess, 0, 0},
		{"idle above the window's rate", with(func(c *WindowCost) { c.CPU = time.Millisecond }), idle, 10, 0, 0, 100, CPUFromProcess, float64(40<<20) / 10, float64(40<<20) / 10, AllocFromProcess, 15, 1 << 19},
		{"allocation unknown", with(func(c *WindowCost) { c.AllocKnown, c.RequestAllocKnown, c.RequestAllocated = false, false, 99 }), nil, 2400, 350, 350, 350, CPUFromProcess, 0, 0, "", 0, 0},
		{"no operations", win, idle, 0, 0, 0, 0, "", 0, 0, "", 0, 0},
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := NewServerStats(tt.c, tt.idle, tt.ops, 3)
			if !near(st.CPUPerOpMicros, tt.cpu) || !near(st.ProcessCPUPerOpMicros, tt.process) || !near(st.GrossCPUPerOpMicros, tt.gross) || st.CPUSource != tt.cpuSource {
				t.Errorf("cpu %v (%q), process %v, gross %v; want %v (%q), %v, %v", st.CPUPerOpMicros, st.CPUSource, st.ProcessCPUPerOpMicros, st.GrossCPUPerOpMicros, tt.cpu, tt.cpuSource, tt.process, tt.gross)
			}
			if !near(st.AllocPerOpBytes, tt.alloc) || !near(st.ProcessAllocPerOpBytes, tt.processAlloc) || st.AllocSource != tt.allocSource {
				t.Errorf("alloc %v (%q), process %v; want %v (%q), %v", st.AllocPerOpBytes, st.AllocSource, st.ProcessAllocPerOpBytes, tt.alloc, tt.allocSource, tt.processAlloc)
			}
			if st.IdleCPUMillisPerSec != tt.idleCPU || st.IdleAllocBytesPerSec != tt.idleAlloc {
				t.Errorf("idle %v ms/s, %v B/s; want %v, %v", st.IdleCPUMillisPerSec, st.IdleAllocBytesPerSec, tt.idleCPU, tt.idleAlloc)
			}
			if st.GCs != 2 || st.GCPauseMicros != 3000 || st.Flushes != 1 || st.Servers != 3 || st.WindowMillis != 8000 {
				t.Errorf("counts %+v, want 2 GCs of 3 ms, 1 flush, 3 servers, 8000 ms", st)
			}
		})
	}
}
