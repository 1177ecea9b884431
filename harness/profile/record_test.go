package profile

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// burner spins in Burner.spin and allocates in Burner.fill until killed.
const burner = `public class Burner {
  static volatile long sink;
  static long spin(long n) { long x = 1; for (long i = 0; i < n; i++) { x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29; } return x; }
  static byte[] fill(int n) { return new byte[n]; }
  public static void main(String[] a) throws Exception {
    System.out.println("ready");
    System.out.flush();
    long end = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < end) { sink += spin(200_000); sink += fill(16 << 10).length; }
  }
}
`

// testJDKs lists the full JDKs (javac, jcmd, jfr) on this machine: java's on
// PATH and those under /usr/lib/jvm, once each.
func testJDKs(t *testing.T) []JDK {
	t.Helper()
	var homes []string
	if p, err := exec.LookPath("javac"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			homes = append(homes, filepath.Dir(filepath.Dir(real)))
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/jvm/*")
	for _, d := range dirs {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			homes = append(homes, real)
		}
	}
	var out []JDK
	seen := map[string]bool{}
	for _, h := range homes {
		j := JDKFromHome(h)
		if seen[h] || j.Jcmd == "" || j.Jfr == "" || !executable(filepath.Join(h, "bin", "javac")) {
			continue
		}
		seen[h] = true
		out = append(out, j)
	}
	if len(out) == 0 {
		if testing.Short() {
			t.Skip("no full JDK (javac, jcmd, jfr) on this machine; skipped under -short")
		}
		t.Fatal("no full JDK (javac, jcmd, jfr) on PATH or under /usr/lib/jvm: install one (apt-get install openjdk-17-jdk-headless; .ci/run does) or run with -short")
	}
	return out
}

// startJVM compiles and starts Burner on jdk, returning its pid once it runs; the process is killed at cleanup.
func startJVM(t *testing.T, jdk JDK, jvmArgs ...string) (int, error) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "Burner.java")
	if err := os.WriteFile(src, []byte(burner), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(filepath.Join(jdk.Home, "bin", "javac"), "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v: %s", err, out)
	}
	args := append(append([]string{"-Xmx128m", "-XX:+UseSerialGC"}, jvmArgs...), "-cp", dir, "Burner")
	cmd := exec.Command(filepath.Join(jdk.Home, "bin", "java"), args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		ok := sc.Scan() && sc.Text() == "ready"
		ready <- ok
		for sc.Scan() {
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			return 0, errors.New("java did not start: " + stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("java did not print ready within 30 s")
	}
	return cmd.Process.Pid, nil
}

func TestRecordAndParseRealJVM(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("FindJDK reads /proc")
	}
	jdks := testJDKs(t)
	if testing.Short() {
		jdks = jdks[:1] // java's on PATH; the others add about 8 s each
	}
	for _, jdk := range jdks {
		t.Run(filepath.Base(jdk.Home), func(t *testing.T) {
			pid, err := startJVM(t, jdk)
			if err != nil {
				t.Fatal(err)
			}
			found, err := FindJDK(pid)
			if err != nil || found.Home != jdk.Home || found.Jfr != jdk.Jfr {
				t.Fatalf("FindJDK(%d) = %+v, %v; want the JDK that runs it, %s", pid, found, err, jdk.Home)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			rec, err := Start(ctx, pid, Options{})
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Second)
			path, settings := filepath.Join(t.TempDir(), "rs.jfr"), rec.tmp
			if err := rec.Stop(ctx, path); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(settings); settings == "" || err == nil {
				t.Errorf("the built-in settings file %q was not written or was left behind", settings)
			}
			p, err := Parse(ctx, found.Jfr, path)
			if err != nil {
				t.Fatal(err)
			}
			d, err := Diff(CPU, Side{Ops: 1, Stacks: Folded{}}, Side{Ops: 1, Stacks: p.CPU}, 3)
			if err != nil {
				t.Fatal(err)
			}
			if d.Frames[0].Frame != "Burner.spin" || d.Frames[0].Self.CandShare < 0.5 {
				t.Errorf("top CPU frame = %+v, want Burner.spin with most samples (%d samples in all)", d.Frames[0], p.CPU.Total())
			}
			var filled int64
			for s, w := range p.Alloc {
				if strings.HasSuffix(s, ";Burner.fill") {
					filled += w
				}
			}
			if filled <= 0 || p.AllocEvent == "" {
				t.Errorf("no bytes allocated in Burner.fill (%s): %v", p.AllocEvent, p.Alloc)
			}
			t.Logf("%s: %d CPU samples in 2 s, %d bytes sampled from %s", jdk.Home, p.CPU.Total(), p.Alloc.Total(), p.AllocEvent)

			// A dump the JVM cannot write fails and still stops the recording.
			rec, err = Start(ctx, pid, Options{Settings: "profile"})
			if err != nil {
				t.Fatal(err)
			}
			err = rec.Stop(ctx, "/nonexistent-dir/rs.jfr")
			if err == nil || !strings.Contains(err.Error(), "JFR.dump") {
				t.Errorf("Stop to a missing directory: error = %v, want one naming JFR.dump", err)
			}
			out, _ := exec.Command(found.Jcmd, strconv.Itoa(pid), "JFR.check").CombinedOutput()
			if strings.Contains(string(out), rec.Name) {
				t.Errorf("recording %s still runs after a failed dump: %s", rec.Name, out)
			}
		})
	}
}

// TestStartSaysWhenTheJVMHasNoFlightRecorder: on a JVM started with
// -XX:-FlightRecorder, Start fails with an *UnavailableError naming the
// option. A JDK whose java no longer turns the recorder off (it refuses the
// option, or ignores it as removed) is logged and passed over, asked with
// `java -version` first so that no other failure hides behind it; at least
// one of the tests' JDKs must turn it off (JDK 11 to 25 do), or the check
// held nothing and the test fails saying which JDK to install.
func TestStartSaysWhenTheJVMHasNoFlightRecorder(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("FindJDK reads /proc")
	}
	jdks := testJDKs(t)
	if testing.Short() {
		jdks = jdks[:1] // java's on PATH; the others add about 6 s each
	}
	checked := 0
	for _, jdk := range jdks {
		out, err := exec.Command(filepath.Join(jdk.Home, "bin", "java"), "-XX:-FlightRecorder", "-version").CombinedOutput()
		if why := noFlightRecorderOff(string(out)); why != "" {
			t.Logf("%s: %s; not checked on it", jdk.Home, why)
			continue
		}
		if err != nil {
			t.Fatalf("%s: java -XX:-FlightRecorder -version: %v: %s", jdk.Home, err, out)
		}
		pid, err := startJVM(t, jdk, "-XX:-FlightRecorder")
		if err != nil {
			t.Fatalf("%s: %v", jdk.Home, err)
		}
		_, err = Start(context.Background(), pid, Options{})
		var u *UnavailableError
		if !errors.Is(err, ErrUnavailable) || !errors.As(err, &u) || u.PID != pid || !strings.Contains(err.Error(), "-XX:-FlightRecorder") {
			t.Fatalf("%s: Start on a JVM without JFR: error = %v, want an *UnavailableError naming -XX:-FlightRecorder", jdk.Home, err)
		}
		checked++
	}
	if checked == 0 {
		t.Fatalf("none of the JDKs tried (%d) turns the flight recorder off with -XX:-FlightRecorder, so regress's message for it was not checked: "+
			"install a JDK that does (apt-get install openjdk-17-jdk-headless) and put it first on PATH", len(jdks))
	}
}

// noFlightRecorderOff says why a java's `-XX:-FlightRecorder -version`
// output shows it cannot turn the recorder off, or "" when nothing says so
// (any other failure is the caller's to report).
func noFlightRecorderOff(out string) string {
	switch {
	case strings.Contains(out, "Unrecognized VM option"):
		return "java refuses -XX:-FlightRecorder"
	case strings.Contains(out, "Ignoring option FlightRecorder"):
		return "java ignores -XX:-FlightRecorder (support removed)"
	}
	return ""
}

func TestStartRefusesWhatIsNotAJVM(t *testing.T) {
	for _, tc := range []struct {
		name string
		pid  int
		jdk  *JDK
		want error
		msg  string
	}{
		{"no pid", 0, nil, nil, "not a process"},
		{"a JRE without jcmd", os.Getpid(), &JDK{Home: "/opt/jre"}, ErrUnavailable, "no bin/jcmd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Start(context.Background(), tc.pid, Options{JDK: tc.jdk})
			if err == nil || !strings.Contains(err.Error(), tc.msg) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Errorf("Start error = %v, want one saying %q", err, tc.msg)
			}
		})
	}
	if _, err := Parse(context.Background(), "", "x.jfr"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Parse without a jfr tool: error = %v, want ErrUnavailable", err)
	}
}

func TestSettingsFollowTheJDK(t *testing.T) {
	for _, tc := range []struct {
		major     int
		want, not []string
	}{
		{11, []string{EventExecutionSample, EventNativeSample, EventAllocNewTLAB, EventAllocOutside, "10 ms"}, []string{EventAllocSample}},
		{17, []string{EventExecutionSample, EventNativeSample, EventAllocSample}, []string{EventAllocNewTLAB}},
		{0, []string{EventAllocSample, EventAllocNewTLAB}, nil},
	} {
		s := settingsJFC(tc.major)
		for _, w := range tc.want {
			if !strings.Contains(s, w) {
				t.Errorf("JDK %d settings lack %s", tc.major, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(s, n) {
				t.Errorf("JDK %d settings enable %s", tc.major, n)
			}
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		release string
		want    int
	}{
		{`JAVA_VERSION="17.0.15"`, 17}, {`JAVA_VERSION="1.8.0_392"`, 8}, {`JAVA_VERSION="11"`, 11}, {`IMPLEMENTOR="x"`, 0}, {`JAVA_VERSION=""`, 0},
	} {
		if err := os.WriteFile(filepath.Join(dir, "release"), []byte(tc.release+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := jdkMajor(dir); got != tc.want {
			t.Errorf("jdkMajor(%s) = %d, want %d", tc.release, got, tc.want)
		}
	}
	if got := jdkMajor(filepath.Join(dir, "missing")); got != 0 {
		t.Errorf("jdkMajor of a missing home = %d, want 0", got)
	}
}

func TestParseSaysWhatTheJfrToolSaid(t *testing.T) {
	jdk := testJDKs(t)[0]
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jfr")
	if err := os.WriteFile(bad, []byte("not a recording"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, path, want string }{
		{"missing file", filepath.Join(dir, "missing.jfr"), "no such file"},
		{"not a recording", bad, "jfr print " + bad},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(context.Background(), jdk.Jfr, tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse(%s) error = %v, want one saying %q", tc.path, err, tc.want)
			}
		})
	}
}

// fakeJcmd answers each jcmd command (JFR.start, JFR.dump, JFR.stop) with a fixed reply, as jcmd does: exit 0 and a text.
func fakeJcmd(replies map[string]string, calls *[]string) Runner {
	return func(_ context.Context, name string, args ...string) ([]byte, error) {
		*calls = append(*calls, strings.Join(args[1:], " "))
		return []byte(args[0] + ":\n" + replies[args[1]]), nil
	}
}

func TestJcmdRepliesDecideTheOutcome(t *testing.T) {
	const ok = "Started recording 1."
	for _, tc := range []struct {
		name               string
		start, dump, stop  string
		wantStart, wantEnd string // "" = no error; else a part of the error
		unavailable        bool
	}{
		{name: "all well", start: ok, dump: `Dumped recording "regress", 209.0 kB written to:`, stop: `Stopped recording "regress".`},
		{name: "JFR disabled", start: "Flight Recorder is disabled.", wantStart: "-XX:-FlightRecorder", unavailable: true},
		{name: "no JFR commands", start: "java.lang.IllegalArgumentException: Unknown diagnostic command", wantStart: "JDK 11 or later", unavailable: true},
		{name: "bad settings", start: "Could not parse settings file '/x.jfc'", wantStart: "Could not parse settings file"},
		{name: "dump fails, stop still runs", start: ok, dump: "Dump failed. Could not copy recording data. /x", stop: `Stopped recording "regress".`, wantEnd: "Dump failed"},
		{name: "stop fails", start: ok, dump: `Dumped recording "regress"`, stop: "Could not find regress.", wantEnd: "JFR.stop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls []string
			run := fakeJcmd(map[string]string{"JFR.start": tc.start, "JFR.dump": tc.dump, "JFR.stop": tc.stop}, &calls)
			rec, err := Start(context.Background(), 4242, Options{JDK: &JDK{Home: t.TempDir(), Jcmd: "jcmd"}, Run: run})
			if tc.wantStart != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantStart) || errors.Is(err, ErrUnavailable) != tc.unavailable {
					t.Fatalf("Start error = %v, want one saying %q (unavailable %v)", err, tc.wantStart, tc.unavailable)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			settings := rec.tmp
			err = rec.Stop(context.Background(), "rs.jfr")
			if (tc.wantEnd == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantEnd)) {
				t.Errorf("Stop error = %v, want %q", err, tc.wantEnd)
			}
			if len(calls) != 3 || !strings.HasPrefix(calls[2], "JFR.stop name="+rec.Name) {
				t.Errorf("jcmd calls = %q, want start, dump and stop of %s", calls, rec.Name)
			}
			if abs, _ := filepath.Abs("rs.jfr"); !strings.Contains(calls[1], "filename="+abs) {
				t.Errorf("dump call %q does not name the absolute path %s", calls[1], abs)
			}
			if _, err := os.Stat(settings); err == nil {
				t.Errorf("settings file %s left behind", settings)
			}
		})
	}
}
