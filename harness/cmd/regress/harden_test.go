package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
)

// damageStore adds a truncated manifest and a FIFO named manifest.json to st.
func damageStore(t *testing.T, st *results.Store) {
	t.Helper()
	for _, target := range []string{"broken", "fifo"} {
		dir := filepath.Join(st.Root(), target, "fixture-fp0123456789")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "manifest.json")
		if target == "fifo" {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		writeFile(t, p, `{"format":"regress-manifest","sha`)
	}
}

func TestDamagedEntryHidesNoGoodOnes(t *testing.T) {
	dir := t.TempDir()
	st, _ := results.Open(filepath.Join(dir, "store"))
	storeSide(t, st, "base", 1.0, 8, 0)
	storeSide(t, st, "cand", 1.0, 8, 1)
	damageStore(t, st)
	done := make(chan struct{})
	go func() {
		defer close(done)
		out, errOut, err := runCLI(t, "results", "list", "--store", st.Root())
		if err != nil || !strings.Contains(out, "base") || !strings.Contains(out, "cand") ||
			!strings.Contains(errOut, "broken/fixture-fp0123456789") || !strings.Contains(errOut, "fifo/fixture-fp0123456789: ") {
			t.Errorf("list: %v\n%s\n%s", err, out, errOut)
		}
		out, _, err = runCLI(t, "compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--out", filepath.Join(dir, "r"))
		if err != nil || !strings.Contains(out, "PASS") {
			t.Errorf("compare of good entries: %v\n%s", err, out)
		}
		out, _, err = runCLI(t, "results", "check", "--store", st.Root())
		if code(err) != exitUsage || !strings.Contains(out, "DAMAGED  broken/fixture-fp0123456789: ") ||
			!strings.Contains(out, "not a regular file") || !strings.Contains(out, "good     base/fixture-fp0123456789") {
			t.Errorf("check: %v\n%s", err, out)
		}
		for _, name := range []string{"broken/fixture-fp0123456789", "fifo/fixture-fp0123456789"} {
			if out, _, err := runCLI(t, "results", "remove", name, "--store", st.Root()); err != nil || !strings.Contains(out, "removed "+name) {
				t.Errorf("remove %s: %v\n%s", name, err, out)
			}
		}
		if out, _, err := runCLI(t, "results", "check", "--store", st.Root()); err != nil || strings.Contains(out, "DAMAGED") {
			t.Errorf("check after removal: %v\n%s", err, out)
		}
		if _, _, err := runCLI(t, "results", "remove", "base", "--store", st.Root()); code(err) != exitUsage {
			t.Errorf("remove of a bare target: %v, want exit 2", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a FIFO manifest hung the store readers")
	}
}

func TestReadOnlyCommandsCreateNoStore(t *testing.T) {
	root := filepath.Join(t.TempDir(), "nothing-here")
	for _, args := range [][]string{
		{"results", "list", "--store", root},
		{"results", "check", "--store", root},
		{"compare", "--baseline", "a", "--candidate", "b", "--store", root},
		{"plan", "--baseline", "a", "--store", root},
	} {
		_, _, _ = runCLI(t, args...)
		if _, err := os.Stat(root); !os.IsNotExist(err) {
			t.Fatalf("%v created the store: %v", args, err)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	fx := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb", "ycsb-0.17-workloada.txt")
	for _, args := range [][]string{
		{"results", "list", "--store", file},
		{"import-ycsb", fx, "--version", "2.6.1", "--workload", "workloada", "--store", file},
	} {
		if _, _, err := runCLI(t, args...); code(err) != exitUsage {
			t.Errorf("%v: exit %d (%v), want %d", args, code(err), err, exitUsage)
		}
	}
}

func TestUnknownSubcommandsExit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"results", "lisst"}, `did you mean list?`},
		{[]string{"results", "chek"}, `did you mean check?`},
		{[]string{"cluster", "frob"}, `unknown command "frob" for "regress cluster"`},
		{[]string{"ycsb", "frob"}, `unknown command "frob" for "regress ycsb"`},
		{[]string{"ycsb", "lod"}, `did you mean load?`},
		// cobra's own help and completion commands exited 0 on a bogus name.
		{[]string{"completion", "bogus"}, `unknown command "bogus" for "regress completion"`},
		{[]string{"help", "bogus"}, `unknown command "bogus" for "regress"`},
		{[]string{"help", "results", "bogus"}, `unknown command "bogus" for "regress results"`},
	} {
		_, _, err := runCLI(t, tc.args...)
		if code(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: exit %d, %v; want exit 2 with %q", tc.args, code(err), err, tc.want)
		}
	}
	if out, _, err := runCLI(t, "results"); err != nil || !strings.Contains(out, "Available Commands") {
		t.Errorf("results alone: %v\n%s", err, out)
	}
	for _, ok := range [][]string{{"help"}, {"help", "compare"}, {"help", "results", "check"}, {"completion", "bash"}, {"completion", "--help"}} {
		if _, _, err := runCLI(t, ok...); err != nil {
			t.Errorf("%v: %v, want exit 0", ok, err)
		}
	}
}

func TestCompareRefusesAnInvalidSuite(t *testing.T) {
	dir := t.TempDir()
	st, _ := results.Open(filepath.Join(dir, "store"))
	storeSide(t, st, "base", 1.0, 8, 0)
	storeSide(t, st, "cand", 1.0, 8, 1)
	scen := filepath.Join(dir, "scen")
	_ = os.MkdirAll(filepath.Join(scen, "suites"), 0o755)
	writeFile(t, filepath.Join(scen, "workloadc"), "readproportion=1\n")
	writeFile(t, filepath.Join(scen, "suites", "fixture.yaml"), "workloads: [workloadc]\ndata: {recordcount: 1000}\ncompare: {alpha: 200%}\n")
	out, errOut, err := runCLI(t, "compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--scenarios", scen, "--out", filepath.Join(dir, "r"))
	if code(err) != exitUsage || !strings.Contains(err.Error(), "compare.alpha") {
		t.Fatalf("exit %d (%v), want 2 naming compare.alpha\n%s%s", code(err), err, out, errOut)
	}
}

func TestCompareNotesLostPlotsAndReadsLogsBesideTheManifest(t *testing.T) {
	dir := t.TempDir()
	fx := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb")
	store := filepath.Join(dir, "store")
	for _, v := range []string{"2.5.0", "2.6.0"} {
		if _, _, err := runCLI(t, "import-ycsb", filepath.Join(fx, "ycsb-0.17-workloada-READ.hdr"), filepath.Join(fx, "ycsb-0.17-workloada-UPDATE.hdr"),
			"--version", v, "--workload", "workloada", "--store", store); err != nil {
			t.Fatal(err)
		}
	}
	// Both entries copied out of the store: their logs are found beside them.
	st, _ := results.Open(store)
	entries, _ := st.List()
	var dirs []string
	for i, e := range entries {
		d := filepath.Join(dir, fmt.Sprint("copy", i))
		if err := os.CopyFS(d, os.DirFS(e.Dir)); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	args := []string{"compare", "--baseline", dirs[0], "--candidate", dirs[1], "--store", filepath.Join(dir, "empty"), "--out", filepath.Join(dir, "r")}
	_, errOut, err := runCLI(t, args...)
	if err != nil || strings.Contains(errOut, "plots left out") {
		t.Fatalf("outside the store: %v\n%s", err, errOut)
	}
	logs, _ := filepath.Glob(filepath.Join(dirs[1], "trials", "*.hlog"))
	if len(logs) != 1 {
		t.Fatalf("logs %v", logs)
	}
	writeFile(t, logs[0], "damaged")
	args[len(args)-1] = filepath.Join(dir, "r2") // a report folder is never written twice
	_, errOut, err = runCLI(t, args...)
	if err != nil || !strings.Contains(errOut, "latency plots left out") || !strings.Contains(errOut, "checksum does not match") {
		t.Fatalf("damaged log: %v\n%s", err, errOut)
	}
}

// startMain starts this test binary as `regress args...` (see TestMain).
func startMain(t *testing.T, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+strings.Join(args, "\n"))
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, out
}

// stopWithin sends sig to cmd and returns its exit code, failing the test
// unless it exits within limit.
func stopWithin(t *testing.T, cmd *exec.Cmd, sig os.Signal, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	start := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if d := time.Since(start); d > limit {
			t.Errorf("stopped %v after %v, want within %v", d, sig, limit)
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		return 0
	case <-time.After(limit + 5*time.Second):
		t.Fatalf("still running %v after %v", limit+5*time.Second, sig)
	}
	return -1
}

func waitFor(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("never printed %q:\n%s", want, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitReader waits until a process opens fifo to read (a writer's open of a
// FIFO returns only then), for at most 20 s, and holds the writer open until
// the test ends, so the reader's read blocks with nothing to read.
func waitReader(t *testing.T, fifo string) {
	t.Helper()
	opened := make(chan *os.File, 1)
	go func() {
		f, _ := os.OpenFile(fifo, os.O_WRONLY, 0)
		opened <- f
	}()
	select {
	case f := <-opened:
		if f == nil {
			t.Fatalf("open %s to write failed", fifo)
		}
		t.Cleanup(func() { f.Close() })
	case <-time.After(20 * time.Second):
		// A reader of our own lets the blocked open return.
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			if f := <-opened; f != nil {
				f.Close()
			}
			r.Close()
		}
		t.Fatalf("nothing opened %s to read within 20 s", fifo)
	}
}

// TestSignalsStopEveryPhase sends SIGINT, SIGTERM, SIGQUIT and SIGHUP to a built regress
// waiting on the store lock and reading a FIFO: each stops within 2 s and
// says what it kept.
func TestSignalsStopEveryPhase(t *testing.T) {
	fx := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb", "ycsb-0.17-workloada.txt")
	// SIGQUIT too: Go's default for it is a goroutine dump and exit 2, the
	// code of bad input (issue 40); SIGHUP's is to end at once, leaving an
	// import's folder behind.
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGHUP} {
		t.Run(sig.String()+"/lock wait", func(t *testing.T) {
			store := t.TempDir()
			lock, err := os.OpenFile(filepath.Join(store, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			defer lock.Close()
			if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
				t.Fatal(err)
			}
			cmd, out := startMain(t, "import-ycsb", fx, "--version", "2.6.1", "--workload", "workloada", "--store", store)
			waitFor(t, out, "waiting for its lock")
			if c := stopWithin(t, cmd, sig, 2*time.Second); c != exitRunFailed || !strings.Contains(out.String(), "nothing was stored") {
				t.Errorf("exit %d, want %d saying nothing was stored:\n%s", c, exitRunFailed, out.String())
			}
			_ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
			if entries, _ := results.OpenReadOnly(store); entries != nil {
				if es, _ := entries.List(); len(es) != 0 && es[0].Summaries != 0 {
					t.Errorf("the interrupted import stored %+v", es)
				}
			}
		})
		t.Run(sig.String()+"/fifo input", func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "out.txt")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd, out := startMain(t, "import-ycsb", fifo, "--version", "2.6.1", "--workload", "workloada", "--store", t.TempDir())
			waitReader(t, fifo)
			if c := stopWithin(t, cmd, sig, 2*time.Second); c != exitRunFailed || !strings.Contains(out.String(), "interrupted") {
				t.Errorf("exit %d, want %d saying it was interrupted:\n%s", c, exitRunFailed, out.String())
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for a child's writes and the test's reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestCheckedBeforeAnyClusterStarts: input that would fail a run late is
// refused at once, with exit 2, before a cluster starts.
func TestCheckedBeforeAnyClusterStarts(t *testing.T) {
	scen := filepath.Join("..", "..", "..", "scenarios")
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	writeFile(t, file, "x")
	badSuite := filepath.Join(dir, "bad.yaml")
	writeFile(t, badSuite, "workloads: [workloadc]\ndata: {recordcount: 1000}\nproperties: {requestdistribution: bell}\n")
	home := filepath.Join(dir, "empty-hbase-home") // a directory: the checks after the home's own run
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--baseline-home", home, "--candidate-home", home, "--scenarios", scen, "--load-hosts", "-5"}, "--load-hosts -5"},
		{[]string{"run", "--home", home, "--scenarios", scen, "--load-hosts", "-5"}, "--load-hosts -5"},
		{[]string{"--baseline-home", home, "--candidate-home", home, "--scenarios", scen, "--out", filepath.Join(file, "r")}, "is not a directory"},
		{[]string{"--baseline-home", home, "--candidate-home", home, "--scenarios", scen, "--out", "/proc/regress-reports"}, "reports cannot be written"},
		{[]string{"--baseline-home", home, "--candidate-home", home, "--scenarios", scen, "--suite", badSuite}, "requestdistribution"},
	} {
		start := time.Now()
		_, _, err := runCLI(t, append(tc.args, "--store", filepath.Join(dir, "store"))...)
		if code(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: exit %d, %v; want exit 2 with %q", tc.args, code(err), err, tc.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%v: took %v to refuse", tc.args, d)
		}
	}
}

// TestZooKeeperQuorumAndUnreachable: a quorum list is taken as one, and a
// worker at an unreachable ZooKeeper gives up after --zk-timeout, or at once
// on a signal.
func TestZooKeeperQuorumAndUnreachable(t *testing.T) {
	quorum := "127.0.0.1:1,127.0.0.1:2"
	_, _, err := runCLI(t, "doctor", "--zk", quorum, "--timeout", "2s")
	if err == nil || strings.Contains(err.Error(), "too many colons") {
		t.Errorf("doctor at a quorum: %v, want the quorum tried, not refused as one address", err)
	}
	start := time.Now()
	_, _, err = runCLI(t, "worker", "--zk", quorum, "--zk-timeout", "1s")
	if code(err) != exitRunFailed || !strings.Contains(err.Error(), "did not answer within 1s") {
		t.Errorf("worker at an unreachable quorum: exit %d, %v", code(err), err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("worker gave up after %v, want about 1s", d)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd, out := startMain(t, "worker", "--zk", quorum)
		waitFor(t, out, "connecting to zookeeper")
		if c := stopWithin(t, cmd, sig, 2*time.Second); c != exitRunFailed || !strings.Contains(out.String(), "interrupted while connecting") {
			t.Errorf("%v: exit %d:\n%s", sig, c, out.String())
		}
	}
}

func TestStoreMessagesNameWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	st, _ := results.Open(filepath.Join(dir, "store"))
	storeSide(t, st, "base", 1.0, 8, 0)
	scen := filepath.Join("..", "..", "..", "scenarios")
	_, _, err := runCLI(t, "plan", "--baseline", "base", "--suite", "smoke", "--store", st.Root(), "--scenarios", scen)
	if code(err) != exitUsage || !strings.Contains(err.Error(), "it has results of suite fixture") {
		t.Errorf("plan under another suite: %v", err)
	}
	_, _, err = runCLI(t, "compare", "--baseline", "2.6.1$(reboot)", "--candidate", "base", "--store", st.Root())
	if code(err) != exitUsage || !strings.Contains(err.Error(), "--version '2.6.1$(reboot)'") {
		t.Errorf("unsafe name echoed unquoted: %v", err)
	}
}
