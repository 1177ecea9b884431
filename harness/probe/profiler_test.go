package probe

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/profile"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// TestStartProfileNotesServersItCannotRecord: a side with no region server
// this machine runs and no info server to ask (its info servers would not
// answer regress) is not profiled, and says so once in the notes.
func TestStartProfileNotesServersItCannotRecord(t *testing.T) {
	pr := &Profiler{}
	tr := Trial{Target: "2.6.1", ServersNote: "server cost not available: info server h:16030 asks for SPNEGO", Workload: "workloadc", Profiled: true}
	at := time.Now()
	for range 2 {
		if p := pr.startProfile(context.Background(), tr, at, nil); p != nil {
			t.Fatal("started profiling a side with no server to profile")
		}
	}
	if n := pr.Notes(); len(n) != 1 || !strings.Contains(n[0], "2.6.1: no profile") || !strings.Contains(n[0], "SPNEGO") {
		t.Errorf("notes %q, want one saying 2.6.1 has no profile and why", n)
	}
	counted := tr
	counted.Profiled = false
	if p := pr.startProfile(context.Background(), counted, at, nil); p != nil {
		t.Error("recorded a counted pair")
	}
	var none *windowProfile
	none.keep(context.Background(), pr, "workloadc", "id", &results.ProfileMeta{Ops: 1}, true) // a trial not profiled: nothing to do
}

// TestProfileErrorsAreNotesNotFailures: a JDK without JFR is a note of its
// own; another failure names the step; each distinct note once.
func TestProfileErrorsAreNotesNotFailures(t *testing.T) {
	pr := &Profiler{}
	tr := Trial{Target: "cand"}
	unavailable := &profile.UnavailableError{PID: 7, Reason: "the JVM runs with -XX:-FlightRecorder"}
	pr.profileErrs(tr, "workloada", "start", []error{nil, unavailable, unavailable})
	pr.profileErrs(tr, "workloadb", "stop", []error{errors.New("jcmd timed out")})
	notes := pr.Notes()
	if len(notes) != 2 {
		t.Fatalf("notes %q, want two", notes)
	}
	if !strings.Contains(notes[0], "cand: no profile") || !strings.Contains(notes[0], "-XX:-FlightRecorder") {
		t.Errorf("unavailable note %q", notes[0])
	}
	if !strings.Contains(notes[1], "workloadb not recorded (stop): jcmd timed out") {
		t.Errorf("failure note %q", notes[1])
	}
}

// TestKeepDropsTheRecordingsOfATrialNotStored: the JVMs' dumps lie in a
// temp dir, removed whether or not the trial was stored.
func TestKeepDropsTheRecordingsOfATrialNotStored(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, "jfr")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	jfr := filepath.Join(tmp, "pid1.jfr")
	if err := os.WriteFile(jfr, []byte("not a recording"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &windowProfile{t: Trial{Target: "x"}, done: make(chan struct{}), dir: tmp, jfrs: []string{jfr}}
	close(p.done)
	p.keep(context.Background(), &Profiler{}, "workloadc", "", nil, false)
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the recordings' temp dir is still there: %v", err)
	}
}

func TestSleepUntilEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if sleepUntil(ctx, time.Now().Add(time.Hour)) || time.Since(start) > time.Second {
		t.Error("sleepUntil did not end with its context")
	}
	if !sleepUntil(context.Background(), time.Now().Add(-time.Second)) {
		t.Error("sleepUntil of a past instant said the context ended")
	}
}

// spinJava is a program whose one thread runs Spin.spin forever: a JVM to record.
const spinJava = `public class Spin {
    static long spin(long n) { long x = 0; for (long i = 0; i < n; i++) { x += i ^ (x >>> 3); } return x; }
    public static void main(String[] a) throws Exception {
        long s = 0;
        System.out.println("ready");
        while (true) { s += spin(1_000_000); if (s == 42) System.out.println(s); }
    }
}
`

// startSpin starts spinJava in a JVM of its own (opts before the source)
// and waits until it runs; the JVM is killed when the test ends.
func startSpin(t *testing.T, java, dir string, opts ...string) *exec.Cmd {
	t.Helper()
	src := filepath.Join(dir, "Spin.java")
	if err := os.WriteFile(src, []byte(spinJava), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(java, append(append([]string{"-Xmx64m", "-XX:TieredStopAtLevel=1"}, opts...), src)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("the JVM did not start: %q %v", line, err)
	}
	return cmd
}

// TestProfileRecordsARunningJVM runs the hooks against a real JVM (no
// HBase): JFR started before the window, stopped at its end, folded and
// stored beside the trial, with the JVM's busy method in the CPU stacks.
// It needs a JDK, not HBase (about 6 s), so it runs under -short too.
func TestProfileRecordsARunningJVM(t *testing.T) {
	// Only -short may pass over a missing JDK: CI installs one (.ci/run).
	needJDK := func(what string, err error) {
		t.Helper()
		if testing.Short() {
			t.Skipf("%s (%v); skipped under -short", what, err)
		}
		t.Fatalf("%s: %v; install a full JDK (java, jcmd, jfr: apt-get install openjdk-17-jdk-headless, as .ci/run does) or run with -short", what, err)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		needJDK("no java on PATH", err)
	}
	dir := t.TempDir()
	cmd := startSpin(t, java, dir)
	if _, err := profile.FindJDK(cmd.Process.Pid); err != nil {
		needJDK("no jcmd for the JVM", err)
	}

	store, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	pr := &Profiler{}
	tr := profiledTrial(store, "jvm", servercost.Servers{{Name: "spin", PID: cmd.Process.Pid}}, 1500*time.Millisecond, 3*time.Second)
	ctx := context.Background()
	p := pr.startProfile(ctx, tr, time.Now(), nil)
	if p == nil {
		t.Fatalf("not profiled: notes %q", pr.Notes())
	}
	id := tr.ProfileID
	p.keep(ctx, pr, "workloadc", id, &results.ProfileMeta{RunID: "run", Workload: "workloadc", Ops: 1234}, true)
	if n := pr.Notes(); len(n) > 0 {
		t.Fatalf("notes %q", n)
	}
	metas, err := results.ReadProfileMetas(tr.Dir)
	if err != nil || len(metas) != 1 || metas[0].ID != "run-workloadc-profile" || metas[0].Ops != 1234 || metas[0].RunID != "run" {
		t.Fatalf("profile descriptions %+v (%v), want one of run-workloadc-profile with 1234 ops", metas, err)
	}
	f, err := os.Open(results.ProfileFile(tr.Dir, id, string(profile.CPU)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cpu, err := profile.ReadFolded(f)
	if err != nil {
		t.Fatal(err)
	}
	var spin int64
	for stack, w := range cpu {
		if strings.HasSuffix(stack, "Spin.spin") {
			spin += w
		}
	}
	// 10 ms samples over about 4 s of one busy thread: about 400 on an idle
	// machine, but JFR samples a thread only while it is on a CPU, and a
	// loaded 2-core machine gave it 12; the stacks must still be its.
	if spin < 5 || spin*2 < cpu.Total() {
		t.Errorf("Spin.spin has %d of %d CPU samples, want most of at least 5: %v", spin, cpu.Total(), cpu)
	}
	if _, err := os.Stat(p.dir); !os.IsNotExist(err) {
		t.Errorf("the recordings' temp dir is still there: %v", err)
	}
}

// TestProfileRecordsAJVMOverJMX runs the profiled pair's hooks against a
// real JVM elsewhere in all but address, reached only through its JMX
// remote connector (--*-jmx-port): the recorder starts ahead of the idle
// watch, records JFR over the window through the FlightRecorder MBean and
// streams it here; the stored stacks are the JVM's busy method, with
// allocation too (what /prof cannot give), and without the frames of the
// connection that served the recorder.
func TestProfileRecordsAJVMOverJMX(t *testing.T) {
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatal("no java on PATH: the JFR-over-JMX recorder runs on this machine's JDK")
	}
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	startSpin(t, java, dir, fmt.Sprintf("-Dcom.sun.management.jmxremote.port=%d", port), fmt.Sprintf("-Dcom.sun.management.jmxremote.rmi.port=%d", port),
		"-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false",
		"-Djava.rmi.server.hostname=127.0.0.1")
	store, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	pr := &Profiler{JMXStartLead: 3 * time.Second} // a run leads by 300 ms; a loaded machine under -race took longer to start JFR
	tr := profiledTrial(store, "jvm", servercost.Servers{{Name: "spin", JMXRemote: fmt.Sprintf("127.0.0.1:%d", port)}}, 1500*time.Millisecond, 3*time.Second)
	ctx := context.Background()
	jmx := pr.prepareJMX(ctx, tr) // the before hook, ahead of the idle watch
	if jmx == nil {
		t.Fatalf("no recorder prepared: notes %q", pr.Notes())
	}
	// The idle watch: a second in a run; here until the recorder is
	// connected, which a loaded machine can take longer than a second to
	// get to (the JVM it starts), so the test waits for the event, not a
	// clock (the run itself notes a recorder that missed its window).
	readyCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for _, run := range jmx.runs {
		if err := run.Ready(readyCtx); err != nil {
			t.Fatalf("the recorder never connected: %v", err)
		}
	}
	// Two seconds of lead, where a run gives 200 ms: the recorder must start
	// JFR before the window opens, and a loaded machine (load 19 on 2 cores
	// here) made it 84-609 ms late; what is tested is the recording, not
	// how fast this machine starts it.
	p := pr.startProfile(ctx, tr, time.Now().Add(2*time.Second), jmx)
	if p == nil {
		t.Fatalf("not profiled: notes %q", pr.Notes())
	}
	p.keep(ctx, pr, "workloadc", tr.ProfileID, &results.ProfileMeta{RunID: "run", Workload: "workloadc", Ops: 1234}, true)
	if n := pr.Notes(); len(n) > 0 {
		t.Fatalf("notes %q", n)
	}
	metas, err := results.ReadProfileMetas(tr.Dir)
	if err != nil || len(metas) != 1 || metas[0].Profiler != results.ProfilerJMX {
		t.Fatalf("profile descriptions %+v (%v), want one recorded %s", metas, err, results.ProfilerJMX)
	}
	id := metas[0].ID
	for _, kind := range []profile.Kind{profile.CPU, profile.Alloc} {
		f, err := os.Open(results.ProfileFile(tr.Dir, id, string(kind)))
		if err != nil {
			t.Fatalf("%s stacks: %v", kind, err)
		}
		stacks, err := profile.ReadFolded(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var spin int64
		for stack, w := range stacks {
			if strings.Contains(stack, "RMIConnectionImpl") {
				t.Errorf("%s stacks keep the recorder's connection: %s", kind, stack)
			}
			if strings.HasSuffix(stack, "Spin.spin") {
				spin += w
			}
		}
		if kind == profile.CPU && (spin < 5 || spin*2 < stacks.Total()) {
			t.Errorf("Spin.spin has %d of %d CPU samples, want most of at least 5", spin, stacks.Total())
		}
	}
}

// TestTheStoreKnowsEveryKindKeepWrites: every kind of stacks keep stores
// is one the results store names (and checks); a kind it does not know
// would be refused at the write and named a leftover by `results check`.
func TestTheStoreKnowsEveryKindKeepWrites(t *testing.T) {
	for _, k := range storedKinds {
		if !slices.Contains(results.ProfileKinds, string(k)) {
			t.Errorf("profile kind %q is not among results.ProfileKinds %q", k, results.ProfileKinds)
		}
	}
}

// profiledTrial is the profiled pair's trial of workloadc in run "run" on
// the side named name of servers, stored in store.
func profiledTrial(store *results.Store, name string, servers servercost.Servers, warmup, measure time.Duration) Trial {
	return Trial{Target: name, Servers: servers, Workload: "workloadc", Profiled: true, Warmup: warmup, Measure: measure,
		RunID: "run", ProfileID: "run-workloadc-profile", Dir: store.Dir(results.Key{Target: name, Suite: "s", Fingerprint: "0123456789abcdef"})}
}
