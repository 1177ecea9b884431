package servercost

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseStatCPU(t *testing.T) {
	for _, tc := range []struct {
		line string
		want time.Duration
		err  bool
	}{
		{"1234 (java) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 80 0 100 0 0", 3 * time.Second, false},
		{"99 (my (odd) name) R 1 1 1 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 1 0 0", 100 * time.Millisecond, false},
		{"garbage", 0, true},
		{"1 (x) S 1 2 3", 0, true},
	} {
		got, err := parseStatCPU(tc.line)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("parseStatCPU(%q) = %v, %v; want %v, error %v", tc.line, got, err, tc.want, tc.err)
		}
	}
}

// TestPerfDataOfARealJVM decodes a G1 JVM's hsperfdata file (JDK 17) and
// checks it against what jcmd PerfCounter.print printed for the same JVM.
func TestPerfDataOfARealJVM(t *testing.T) {
	b, err := os.ReadFile("testdata/g1.hsperfdata")
	if err != nil {
		t.Fatal(err)
	}
	p, err := parsePerfData(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(p) < 100 {
		t.Fatalf("%d long counters decoded, want the JVM's hundreds", len(p))
	}
	text, _ := os.ReadFile("testdata/g1.perfcounters.txt")
	for _, name := range []string{"sun.os.hrt.frequency", "sun.gc.generation.0.spaces", "sun.gc.generation.1.spaces", "sun.gc.generation.0.space.0.maxCapacity"} {
		want := ""
		for _, l := range strings.Split(string(text), "\n") {
			if v, ok := strings.CutPrefix(l, name+"="); ok {
				want = v
			}
		}
		if got := p[name]; want == "" || strings.TrimSpace(want) != itoa(got) {
			t.Errorf("%s = %d, jcmd printed %q", name, got, want)
		}
	}
	if used := p.HeapUsed(); used <= 0 || used > 256<<20 {
		t.Errorf("heap used %d bytes, want within the 256 MiB heap", used)
	}
	if n, pause := p.GCs(); n < 1 || pause <= 0 {
		t.Errorf("%d collections in %d ns: the JVM had collected", n, pause)
	}
	for _, bad := range [][]byte{nil, make([]byte, 64), b[:40]} {
		if _, err := parsePerfData(bad); err == nil {
			t.Errorf("a %d-byte bad file decoded without error", len(bad))
		}
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// TestGCFreedOfARealLog sums what every collection of a real G1 log freed:
// a collection counts only with both its before and after blocks.
func TestGCFreedOfARealLog(t *testing.T) {
	// JDK 17 prints a block's first generation on the line after its mark,
	// JDK 11 on the mark's own line; both must give every collection.
	pauseMB := regexp.MustCompile(`Pause Young .* (\d+)M->(\d+)M\(`)
	for _, name := range []string{"testdata/g1-gc.log", "testdata/jdk11-g1-gc.log"} {
		log, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		freed, n := gcFreed(log)
		pauses := pauseMB.FindAllStringSubmatch(string(log), -1)
		if n != len(pauses) || n == 0 {
			t.Errorf("%s: %d collections parsed, the log has %d young pauses", name, n, len(pauses))
		}
		// Each pause's summary line rounds before and after to a MiB.
		var mb int64
		for _, p := range pauses {
			b, _ := strconv.ParseInt(p[1], 10, 64)
			a, _ := strconv.ParseInt(p[2], 10, 64)
			mb += b - a
		}
		if d := float64(freed)/(1<<20) - float64(mb); freed <= 0 || d > float64(n) || d < -float64(n) {
			t.Errorf("%s: freed %.1f MiB, the pause lines say %d MiB (within 1 a pause)", name, float64(freed)/(1<<20), mb)
		}
	}
	// The first block alone: 13236K before, 4340K after in GC(0) of the sample format.
	one := "[1ms][gc,heap] GC(0) Heap before GC invocations=0 (full 0):\n" +
		"[1ms][gc,heap] GC(0)  garbage-first heap   total 262144K, used 13236K [0x00000000f0000000, 0x0000000100000000)\n" +
		"[1ms][gc,heap] GC(0)  Metaspace       used 8420K, committed 8640K, reserved 1114112K\n" +
		"[2ms][gc,heap] GC(0) Heap after GC invocations=1 (full 0):\n" +
		"[2ms][gc,heap] GC(0)  garbage-first heap   total 262144K, used 4340K [0x00000000f0000000, 0x0000000100000000)\n" +
		"[3ms][gc,heap] GC(1) Heap before GC invocations=1 (full 0):\n" +
		"[3ms][gc,heap] GC(1)  garbage-first heap   total 262144K, used 9999K [0x00000000f0000000, 0x0000000100000000)\n"
	if freed, n := gcFreed([]byte(one)); n != 1 || freed != (13236-4340)<<10 {
		t.Errorf("one whole block and one cut off: freed %d in %d, want %d in 1", freed, n, (13236-4340)<<10)
	}
}

func TestScanEvents(t *testing.T) {
	log := `2026-12-01 10:00:00,001 INFO  [MemStoreFlusher.0] regionserver.HRegion: Finished flush of dataSize ~2.3 MB/2400000, heapSize ~2.5 MB
2026-12-01 10:00:01,001 INFO  [RS:0;localhost:16020-shortCompactions-0] regionserver.HStore: Completed compaction of 3 (all) file(s) in family of t,,1.abc. into x(size=1 M)
2026-12-01 10:00:02,001 INFO  [RS:0] regionserver.HStore: Completed major compaction of 1 (all) file(s)
2026-12-01 10:00:03,001 INFO  [PEWorker-1] procedure2.ProcedureExecutor: Finished pid=12, state=SUCCESS; SplitTableRegionProcedure table=t, parent=abc
2026-12-01 10:00:04,001 INFO  [MemStoreFlusher.0] regionserver.HRegion: Finished memstore flush of ~1 MB
2026-12-01 10:00:05,001 INFO  [RpcServer] ipc.RpcServer: nothing of note
`
	got := scanEvents([]byte(log))
	if want := (Events{Flushes: 2, Compactions: 2, Splits: 1}); got != want || !got.Any() {
		t.Errorf("events %+v, want %+v", got, want)
	}
	if (Events{}).Any() {
		t.Error("no events flagged the trial")
	}
}

// TestReadAJVMFromOutside starts a JVM that allocates about 1 MB every 10
// ms with the GC log this package reads, and checks a window's figures: CPU
// spent, bytes allocated within a factor of what the program allocates,
// collections seen, and a missing process refused by name.
func TestReadAJVMFromOutside(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	java, classes := compileAllocator(t)
	// 1000 arrays of 1 KB every 10 ms (100 MB/s) into a 128 MB heap, 64 of them live.
	srv, cmd := startAllocator(t, java, classes, "128m", 64, 1000, 1)
	ss := Servers{srv}
	a, err := ss.Read()
	if err != nil {
		t.Fatal(err)
	}
	// At least 3 s and one collection: on a busy machine the program
	// allocates slower, so the window waits for a collection (at most 60 s).
	var b []Reading
	for start := time.Now(); ; {
		time.Sleep(200 * time.Millisecond)
		if b, err = ss.Read(); err != nil {
			t.Fatal(err)
		}
		if time.Since(start) >= 3*time.Second && b[0].GCs > a[0].GCs || time.Since(start) > 60*time.Second {
			break
		}
	}
	c := Total(ss.Since(a, b))
	if c.CPU <= 0 || c.Window < 3*time.Second {
		t.Errorf("CPU %v over %v", c.CPU, c.Window)
	}
	if !c.AllocKnown {
		t.Fatal("allocation not known with a GC log and counters")
	}
	// The loop allocates about 1 MB (1000 x 1016 bytes with headers) per
	// iteration of at least 10 ms: at most ~100 MB/s, less on a busy machine.
	perSec := float64(c.Allocated) / c.Window.Seconds()
	if perSec < 1e6 || perSec > 150e6 {
		t.Errorf("allocated %.1f MB/s, want 1-150 (the program allocates up to ~100)", perSec/1e6)
	}
	if c.GCs < 1 {
		t.Errorf("%d collections in %v at up to ~100 MB/s into a 128 MB heap", c.GCs, c.Window)
	}
	t.Logf("window %v: CPU %v, allocated %.1f MB (%.1f MB/s), %d GCs, %v paused", c.Window, c.CPU, float64(c.Allocated)/1e6, perSec/1e6, c.GCs, c.GCPause)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if _, err := srv.Read(); err == nil || !strings.Contains(err.Error(), "test JVM") {
		t.Errorf("reading a gone process: %v, want an error naming it", err)
	}
}

func TestRequestThreads(t *testing.T) {
	for comm, want := range map[string]bool{
		"RpcServer.defau": true, "B.defaultRpcSer": true, "PriorityRpcServ": true, "RS-EventLoopGro": true,
		"AsyncFSWAL-0-fi": true, "AsyncFSOutputFl": true, "sync.0": true,
		"C2 CompilerThre": false, "GC Thread#0": false, "G1 Refine#0": false, "MemStoreFlusher": false,
		"RS_OPEN_REGION-": false, "PEWorker-1": false, "HBase-Metrics2-": false, "main": false,
	} {
		if got := requestThread(comm); got != want {
			t.Errorf("requestThread(%q) = %v, want %v", comm, got, want)
		}
	}
	// This test process's own threads serve no HBase requests.
	if got := requestCPU(os.Getpid()); got != 0 {
		t.Errorf("request CPU of a process without request threads: %v", got)
	}
}

// TestThreadCPUReadsThisProcess: after this process burned 50 ms of CPU
// (by its own rusage, so a busy machine only makes it take longer), its
// threads' CPU through schedstat (or stat's ticks) holds at least most of it.
func TestThreadCPUReadsThisProcess(t *testing.T) {
	self := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start, deadline := self(), time.Now().Add(20*time.Second)
	x := 0
	for self()-start < 50*time.Millisecond && time.Now().Before(deadline) {
		x++
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	var sum time.Duration
	for _, tk := range tasks {
		sum += threadCPU("/proc/self/task/" + tk.Name())
	}
	if sum < 40*time.Millisecond {
		t.Errorf("threads of this process spent %v after it burned 50 ms of CPU (%d spins)", sum, x)
	}
	if got := threadCPU("/proc/self/task/999999999"); got != 0 {
		t.Errorf("a thread that does not exist: %v", got)
	}
}

// Readings cut the GC log anywhere, mid-pause too (a pause's "Heap before"
// block is written when it begins, its counters change when it ends): every
// collection must fall in exactly one window, the one where it ended, and
// whole, with the log read from a little before and past the window as
// Server.Since reads it.
func TestGCFreedCountsEachCollectionInTheWindowItEnded(t *testing.T) {
	log, err := os.ReadFile("testdata/g1-gc.log")
	if err != nil {
		t.Fatal(err)
	}
	wantFreed, wantN := gcFreed(log)
	s := string(log)
	var mids []int // a cut inside each pause: after its before block, before its after block
	for i := 0; ; {
		j := strings.Index(s[i:], "Heap before GC")
		if j < 0 {
			break
		}
		k := strings.Index(s[i+j:], "Heap after GC")
		mark := strings.LastIndexByte(s[:i+j+k], '\n') + 1 // the after mark's line
		mids = append(mids, mark-10)
		i += j + k
	}
	if len(mids) != wantN {
		t.Fatalf("found %d pauses to cut, the log has %d collections", len(mids), wantN)
	}
	for name, cuts := range map[string][]int{
		"mid-pause": mids,
		"every 997 b": func() (c []int) {
			for o := 997; o < len(log); o += 997 {
				c = append(c, o)
			}
			return c
		}(),
	} {
		bounds := append(append([]int{0}, cuts...), len(log))
		var freed int64
		var n int
		for w := 1; w < len(bounds); w++ {
			a, b := bounds[w-1], bounds[w]
			from := max(0, a-gcLogSlack)
			end := min(len(log), b+gcLogSlack)
			f, c := gcFreedIn(log[from:end], a-from, b-from)
			freed, n = freed+f, n+c
			// Window 1 ends inside the first pause and holds no end; every
			// later one runs from inside a pause to inside the next and
			// holds the end of the first only.
			if want := min(w-1, 1); name == "mid-pause" && c != want {
				t.Errorf("%s window %d [%d, %d): %d collections, want %d", name, w, a, b, c, want)
			}
		}
		if n != wantN || freed != wantFreed {
			t.Errorf("%s: windows hold %d collections freeing %d, the log %d freeing %d", name, n, freed, wantN, wantFreed)
		}
	}
}

// TestAllocationKnownAcrossPauses reads a JVM that collects several times a
// second every ~40 ms, so many readings fall inside a pause: the window
// figures must stay known and add up to the whole. Before collections were
// given to the window they ended in, 14 of 399 such windows came out unknown
// (negative) here, the rest summing to 4.9 GB of 5.1; under JDK 11, whose GC
// log prints a block's heap use on its mark line, every window with a
// collection did. It runs on the JDK on PATH and, when REGRESS_JDK11_HOME
// is set (make test-matrix sets it), on that one too.
func TestAllocationKnownAcrossPauses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a JVM for ~15 s; skipped under -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	java, classes := compileAllocator(t)
	jdks := map[string]string{"JDK on PATH": java}
	if h := os.Getenv("REGRESS_JDK11_HOME"); h != "" {
		jdks["REGRESS_JDK11_HOME"] = filepath.Join(h, "bin", "java")
	}
	for name, java := range jdks {
		t.Run(name, func(t *testing.T) { allocationAcrossPauses(t, java, classes) })
	}
}

// allocationAcrossPauses runs the allocator on java and reads it 300 times.
func allocationAcrossPauses(t *testing.T, java, classes string) {
	// 4000 arrays of 1 KB every 10 ms into a 64 MB heap, 4 MB of them live.
	srv, _ := startAllocator(t, java, classes, "64m", 4096, 4000, 3)
	var rs []Reading
	for range 300 {
		r, err := srv.Read()
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
		time.Sleep(37 * time.Millisecond)
	}
	unknown, withGC := 0, 0
	var sum int64
	for i := 1; i < len(rs); i++ {
		c := srv.Since(rs[i-1], rs[i])
		if rs[i].GCs > rs[i-1].GCs {
			withGC++
		}
		if !c.AllocKnown {
			unknown++
			continue
		}
		sum += c.Allocated
	}
	whole := srv.Since(rs[0], rs[len(rs)-1])
	t.Logf("%d windows, %d with a collection, %d unknown; windows sum to %.1f MB, the whole to %.1f MB",
		len(rs)-1, withGC, unknown, float64(sum)/1e6, float64(whole.Allocated)/1e6)
	if withGC < 20 {
		t.Fatalf("only %d windows held a collection: the JVM did not churn", withGC)
	}
	// A reading at the very instant a pause ends can still split it (the
	// counters and the log change microseconds apart): 1 window in 1,000
	// or so was; 2% allows for that and still fails the 4% of before.
	if unknown > (len(rs)-1)/50 || !whole.AllocKnown {
		t.Errorf("%d of %d windows have no allocation figure (whole known: %v)", unknown, len(rs)-1, whole.AllocKnown)
	}
	if unknown == 0 && sum != whole.Allocated {
		t.Errorf("the windows sum to %d bytes, the whole window to %d: a collection was counted twice or not at all", sum, whole.Allocated)
	}
}

// compileAllocator compiles a Java program that allocates 1 KB arrays in
// rounds, keeping a ring of them live, for JDK 11 and later; it returns the
// java on PATH and the classes' directory.
func compileAllocator(t *testing.T) (java, classes string) {
	t.Helper()
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatal("java is needed (the JDK that runs HBase): ", err)
	}
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Fatal("javac is needed (a JDK, not a runtime): ", err)
	}
	classes = t.TempDir()
	src := filepath.Join(classes, "Alloc.java")
	// args: how many arrays stay live, how many a round allocates; a round every 10 ms.
	prog := `public class Alloc { public static void main(String[] a) throws Exception {
  int live = Integer.parseInt(a[0]), round = Integer.parseInt(a[1]);
  byte[][] keep = new byte[live][]; long n = 0;
  while (true) { for (int i = 0; i < round; i++) { keep[(int)(n++ % live)] = new byte[1000]; } Thread.sleep(10); } } }`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(javac, "--release", "11", "-d", classes, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	return java, classes
}

// startAllocator runs the allocator on java with a G1 heap of heap and
// the GC log on, killed at the test's end, and waits for gcs collections.
func startAllocator(t *testing.T, java, classes, heap string, live, round, gcs int) (Server, *exec.Cmd) {
	t.Helper()
	gcLog := filepath.Join(t.TempDir(), "gc.log")
	args := append(GCLogOptions(11, gcLog), "-Xmx"+heap, "-XX:+UseG1GC", "-cp", classes, "Alloc", strconv.Itoa(live), strconv.Itoa(round))
	cmd := exec.Command(java, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, _ := os.ReadFile(gcLog); strings.Count(string(b), "Pause Young") >= gcs {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the JVM logged fewer than %d collections in 60 s", gcs)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return Server{Name: "test JVM", PID: cmd.Process.Pid, GCLog: gcLog}, cmd
}

// TestThreadsDeltaLosesOnlyWhatAnEndedThreadSpentInTheWindow: a request
// thread that ended between two readings must not take its whole life's
// CPU off the window's sum (the totals' difference went negative, and the
// trial's cpu_per_op fell back to the process's figure).
func TestThreadsDeltaLosesOnlyWhatAnEndedThreadSpentInTheWindow(t *testing.T) {
	a := map[int]time.Duration{1: 10 * time.Second, 2: 5 * time.Second, 3: 40 * time.Second}
	b := map[int]time.Duration{1: 11 * time.Second, 2: 5500 * time.Millisecond, 4: 200 * time.Millisecond}
	if got, want := threadsDelta(a, b), 1700*time.Millisecond; got != want {
		t.Errorf("delta %v, want %v (1 s + 0.5 s + a new thread's 0.2 s; thread 3 ended)", got, want)
	}
	var sa, sb time.Duration
	for _, v := range a {
		sa += v
	}
	for _, v := range b {
		sb += v
	}
	if sb-sa >= 0 {
		t.Fatalf("the case must make the totals' difference negative, got %v", sb-sa)
	}
}
