package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/proctest"
	"github.com/regress-hbase/regress/harness/results"
)

// The fault tests run the built regress (this test binary as main) against
// real HBase with a tiny suite (one workload, 1000 rows, 3 pairs of 10 s
// trials) and break something mid-run: a region server killed, the server
// stopped for 10 s, the store's disk full, a core burnt by another process,
// a signal. Each checks the exit code and message the docs promise, that
// what was stored before is intact, and that no JVM or work dir is left.

var faultSuite = filepath.Join("testdata", "faults.yaml")

// liveRun is a regress process started by a fault test.
type liveRun struct {
	t     *testing.T
	cmd   *exec.Cmd
	out   *syncBuffer
	store string
	tmp   string // the run's TMPDIR
	done  chan struct{}
	code  int
	ended time.Time
}

// startFaultRun starts `regress args...` with the fault suite and store.
func startFaultRun(t *testing.T, store string, args ...string) *liveRun {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a real HBase; skipped under -short")
	}
	args = append(args, "--suite", faultSuite, "--scenarios", scenariosDir, "--store", store)
	// The run's own temp dir: a trial's interval log is written there as
	// its window runs (see waitMeasuring), and its clusters' work dirs.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cmd, out := startMain(t, args...)
	lr := &liveRun{t: t, cmd: cmd, out: out, store: store, tmp: tmp, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		lr.ended = time.Now()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			lr.code = ee.ExitCode()
		} else if err != nil {
			lr.code = -1
		}
		close(lr.done)
	}()
	t.Cleanup(func() {
		select {
		case <-lr.done:
		default:
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-lr.done
		}
		for _, d := range lr.workDirs() {
			for _, p := range proctest.ProcessesIn(d) {
				if pid, err := strconv.Atoi(p); err == nil {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		}
		if t.Failed() {
			t.Logf("regress output:\n%s", out.String())
		} else {
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			t.Logf("regress output's last lines:\n%s", strings.Join(lines[max(0, len(lines)-12):], "\n"))
		}
	})
	return lr
}

// wait waits for the run to end (failing after limit) and returns its exit code.
func (lr *liveRun) wait(limit time.Duration) int {
	lr.t.Helper()
	select {
	case <-lr.done:
		return lr.code
	case <-time.After(limit):
		lr.t.Fatalf("regress still runs after %v:\n%s", limit, lr.out.String())
	}
	return -1
}

// waitLine waits until the output has n lines matching re and returns the
// last one's submatches.
func (lr *liveRun) waitLine(re *regexp.Regexp, n int, limit time.Duration) []string {
	lr.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ms := re.FindAllStringSubmatch(lr.out.String(), -1)
		if len(ms) >= n {
			return ms[n-1]
		}
		select {
		case <-lr.done:
			lr.t.Fatalf("regress exited %d before printing %q %d times:\n%s", lr.code, re, n, lr.out.String())
		default:
		}
		if time.Now().After(deadline) {
			lr.t.Fatalf("regress printed %q %d times in %v, want %d:\n%s", re, len(ms), limit, n, lr.out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var (
	readyRE   = regexp.MustCompile(`msg="cluster ready".* log=(\S+)`)
	runningRE = regexp.MustCompile(`msg="trial running"`)
	rsPIDRE   = regexp.MustCompile(`HBase JVM started.* role="region server 2" pid=(\d+)`)
)

// midMeasure waits for the nth trial to start its load and then for the
// middle of its measurement window (the suite's 3 s warm-up, 10 s window):
// the first interval its log holds, which the load generator writes a tick
// (1 s) into the window. The first trial waits for its cluster's start,
// which took 2 min 42 s with two region servers on a loaded 2-core machine.
func (lr *liveRun) midMeasure(n int) {
	lr.t.Helper()
	lr.waitLine(runningRE, n, 10*time.Minute)
	lr.waitMeasuring(time.Minute)
}

// waitMeasuring waits until a running trial's interval log
// (regress-trial-*.hlog in the run's TMPDIR, removed once the trial is
// stored) holds an interval histogram.
func (lr *liveRun) waitMeasuring(limit time.Duration) {
	lr.t.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		logs, _ := filepath.Glob(filepath.Join(lr.tmp, "regress-trial-*.hlog"))
		for _, p := range logs {
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), ",HIST") {
				return
			}
		}
		select {
		case <-lr.done:
			lr.t.Fatalf("regress exited %d before a trial's window logged an interval:\n%s", lr.code, lr.out.String())
		default:
		}
		if time.Now().After(deadline) {
			lr.t.Fatalf("no trial's window logged an interval in %v:\n%s", limit, lr.out.String())
		}
	}
}

// workDirs are the work dirs of the clusters the run said were ready.
func (lr *liveRun) workDirs() []string {
	var dirs []string
	for _, m := range readyRE.FindAllStringSubmatch(lr.out.String(), -1) {
		d := filepath.Dir(filepath.Dir(strings.Trim(m[1], `"`)))
		if strings.HasPrefix(filepath.Base(d), "regress-hbase-") {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// storedTrials counts the trials in the store's entries (0 while it has none).
func storedTrials(t *testing.T, store string) int {
	t.Helper()
	st, err := results.OpenReadOnly(store)
	if err != nil {
		return 0
	}
	es, err := st.List()
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range es {
		n += e.Trials
	}
	return n
}

// waitStored waits until the store holds n trials.
func (lr *liveRun) waitStored(n int, limit time.Duration) {
	lr.t.Helper()
	deadline := time.Now().Add(limit)
	for storedTrials(lr.t, lr.store) < n {
		select {
		case <-lr.done:
			lr.t.Fatalf("regress exited %d before storing %d trials:\n%s", lr.code, n, lr.out.String())
		default:
		}
		if time.Now().After(deadline) {
			lr.t.Fatalf("the store holds %d trials after %v, want %d:\n%s", storedTrials(lr.t, lr.store), limit, n, lr.out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkAfter checks what every fault must leave: a store whose every entry
// is good and holds at least want trials, no temporary or unnamed file in
// it, and no process or work dir of the run's clusters.
func (lr *liveRun) checkAfter(want int) {
	t := lr.t
	t.Helper()
	st, err := results.OpenReadOnly(lr.store)
	if err != nil {
		t.Fatal(err)
	}
	sts, err := st.Check()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range sts {
		if s.Err != nil {
			t.Errorf("store entry %s damaged: %v", s.Name, s.Err)
			continue
		}
		n += s.Entry.Trials
	}
	if n < want {
		t.Errorf("the store holds %d trials, want the %d stored before the fault", n, want)
	}
	_ = filepath.WalkDir(lr.store, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temporary file %s left in the store", p)
		}
		return nil
	})
	dirs := lr.workDirs()
	if len(dirs) == 0 {
		t.Errorf("found no cluster work dir in the output")
	}
	// A cluster whose JVM died keeps the logs its error names (and its
	// config), never its data; any other is removed whole.
	died := strings.Contains(lr.out.String(), "HBase JVM died")
	for _, d := range dirs {
		if ps := proctest.ProcessesIn(d); len(ps) > 0 {
			t.Errorf("processes %v of cluster %s are left running", ps, d)
		}
		if !died {
			if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("work dir %s is left behind (%v)", d, err)
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "logs")); err != nil {
			t.Errorf("the dead cluster's logs, which its error names, are gone: %v", err)
		}
		for _, sub := range []string{"hbase", "zk", "tmp"} {
			if _, err := os.Stat(filepath.Join(d, sub)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the dead cluster's %s is left behind (%v)", sub, err)
			}
		}
		os.RemoveAll(d)
	}
}

// TestFaultRegionServerKilled: SIGKILL one of two region servers during the
// second trial. The run stops (exit 3) naming the dead server, its pid and
// signal; the first trial stays stored; no JVM is left.
func TestFaultRegionServerKilled(t *testing.T) {
	lr := startFaultRun(t, t.TempDir(), "run", "--version", clustertest.Version(), "--region-servers", "2", "--rs-heap", "512m")
	pid, _ := strconv.Atoi(lr.waitLine(rsPIDRE, 1, 5*time.Minute)[1])
	lr.waitStored(1, 10*time.Minute)
	lr.midMeasure(2)
	stored := storedTrials(t, lr.store)
	killed := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill region server 2 (pid %d): %v", pid, err)
	}
	code := lr.wait(2 * time.Minute)
	took := lr.ended.Sub(killed)
	t.Logf("exit %d %v after the kill", code, took.Round(time.Millisecond))
	// The death is reported once the cluster's other JVMs are reaped, the
	// trial stops at once, and nothing waits on the dead cluster.
	if took > 10*time.Second {
		t.Errorf("regress exited %v after the region server's death, want within 10s", took.Round(time.Millisecond))
	}
	out := lr.out.String()
	for _, want := range []string{"region server 2 JVM (pid " + strconv.Itoa(pid) + ") was killed by signal 9", "The run stopped because that cluster died",
		fmt.Sprintf("this run stored %d trials before it stopped", stored)} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code != exitRunFailed {
		t.Errorf("exit %d, want %d", code, exitRunFailed)
	}
	lr.checkAfter(stored)
}

// TestFaultServerStopped: SIGSTOP the standalone HBase JVM for 10 s in the
// middle of the second trial's measurement, then SIGCONT. The operations in
// flight wait (their RPC timeout is 60 s) and finish when it resumes, so the
// trial misses its rate; `regress run` requires the rate and fails (exit 3)
// saying the cluster stalled and how long one operation took. The first
// trial stays stored; no JVM is left.
func TestFaultServerStopped(t *testing.T) {
	lr := startFaultRun(t, t.TempDir(), "run", "--version", clustertest.Version())
	lr.waitStored(1, 10*time.Minute)
	lr.midMeasure(2)
	dirs := lr.workDirs()
	if len(dirs) != 1 {
		t.Fatalf("work dirs %v, want one", dirs)
	}
	pids := proctest.ProcessesIn(dirs[0])
	if len(pids) != 1 {
		t.Fatalf("processes %v in %s, want the one HBase JVM", pids, dirs[0])
	}
	pid, _ := strconv.Atoi(pids[0])
	stored := storedTrials(t, lr.store)
	if err := syscall.Kill(-pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Second)
	if err := syscall.Kill(-pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	resumed := time.Now()
	code := lr.wait(3 * time.Minute)
	t.Logf("exit %d %v after SIGCONT", code, lr.ended.Sub(resumed).Round(time.Millisecond))
	out := lr.out.String()
	for _, want := range []string{"the cluster stalled: one READ took ", "TARGET NOT HELD", fmt.Sprintf("this run stored %d trials", stored)} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`one READ took ([0-9.]+)s`).FindStringSubmatch(out); m != nil {
		if s, _ := strconv.ParseFloat(m[1], 64); s < 5 || s > 15 {
			t.Errorf("the longest READ took %ss, want about the 10 s the server was stopped", m[1])
		}
	}
	if code != exitRunFailed {
		t.Errorf("exit %d, want %d", code, exitRunFailed)
	}
	lr.checkAfter(stored)
}

// mountTmpfs mounts a tmpfs of size on a fresh directory and unmounts it when
// the test ends; a machine where that fails fails the test, saying why.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("this test needs a small tmpfs for the store's full disk and could not mount one on %s (%v: %s): run it as root, or where mount -t tmpfs is allowed",
			dir, err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fill writes to path until the disk has no space left.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling %s: %v", path, err)
			}
			break
		}
	}
	_ = f.Sync()
}

// TestFaultStoreDiskFull: the store lies on a 2 MiB tmpfs, filled once the
// first trial is stored. The second trial's write fails: exit 3, the
// message says the disk is full and what to do, and the manifest, the
// first trial and its log are intact, with no half or temporary file.
func TestFaultStoreDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real HBase; skipped under -short")
	}
	mnt := mountTmpfs(t, "2m")
	store := filepath.Join(mnt, "store")
	lr := startFaultRun(t, store, "run", "--version", clustertest.Version())
	lr.waitStored(1, 10*time.Minute)
	fill(t, filepath.Join(mnt, "filler"))
	code := lr.wait(3 * time.Minute)
	out := lr.out.String()
	for _, want := range []string{"the store's disk is full", "no space left on device", "free space on the disk holding " + store,
		"the manifest and the trials stored before are intact", "this run stored 1 trials"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code != exitRunFailed {
		t.Errorf("exit %d, want %d", code, exitRunFailed)
	}
	lr.checkAfter(1)
	if n := storedTrials(t, store); n != 1 {
		t.Errorf("the store holds %d trials, want the 1 stored before the disk filled", n)
	}
	// Every .hlog in the store is one the manifest names: no half-stored trial.
	logs, _ := filepath.Glob(filepath.Join(store, "*", "*", "trials", "*"))
	if len(logs) != 1 {
		t.Errorf("trial files %v, want the first trial's log alone", logs)
	}
}

// TestFaultBusyCore: another process burns a core through a whole run (on
// this 2-core machine, half of it). The tiny suite's 100 ops/s still hold:
// the run completes and stores its trials (exit 0), no false failure.
func TestFaultBusyCore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real HBase; skipped under -short")
	}
	burn := exec.Command("sh", "-c", "while :; do :; done")
	if err := burn.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = burn.Process.Kill(); _ = burn.Wait() })
	lr := startFaultRun(t, t.TempDir(), "run", "--version", clustertest.Version())
	code := lr.wait(15 * time.Minute)
	if code != exitOK || !strings.Contains(lr.out.String(), "stored 3 trials") {
		t.Errorf("exit %d, want 0 and 3 trials stored:\n%s", code, lr.out.String())
	}
	lr.checkAfter(3)
}

// TestSignalStopsARunWithClusters sends SIGINT or SIGTERM to runs that
// started clusters, while a cluster starts and during a trial of a
// comparison of two clusters: each exits 3 within a few seconds (not the
// graceful stop's 30 s) saying what it kept, and leaves no JVM and no work dir.
func TestSignalStopsARunWithClusters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real HBase; skipped under -short")
	}
	v := clustertest.Version()
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		args []string
		// when waits for the moment to send the signal.
		when   func(*liveRun)
		stored int
		want   string
		// twice sends the signal again at once: regress exits without cleaning up.
		twice bool
	}{
		{"run/SIGTERM while HBase starts", syscall.SIGTERM, []string{"run", "--version", v},
			func(lr *liveRun) {
				// Once the JVM runs, a second into its start-up.
				for deadline := time.Now().Add(time.Minute); len(childPIDs(lr.cmd.Process.Pid)) == 0; time.Sleep(50 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("no HBase JVM started within a minute:\n%s", lr.out.String())
					}
				}
				time.Sleep(time.Second)
			}, 0, "interrupted while starting clusters", false},
		{"compare/SIGINT during the second trial", syscall.SIGINT, []string{"--baseline", v, "--candidate", v},
			func(lr *liveRun) { lr.waitStored(1, 10*time.Minute); lr.midMeasure(2) }, 1, "this run stored 1 trials before it stopped", false},
		{"run/second SIGINT during a trial", syscall.SIGINT, []string{"run", "--version", v},
			func(lr *liveRun) { lr.midMeasure(1) }, 0, "second interrupt: exiting now without cleaning up: the JVMs of clusters this run started die with it", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lr := startFaultRun(t, t.TempDir(), tc.args...)
			tc.when(lr)
			jvms := childPIDs(lr.cmd.Process.Pid)
			if len(jvms) == 0 {
				t.Fatalf("regress runs no JVM when signalled:\n%s", lr.out.String())
			}
			sent := time.Now()
			if err := lr.cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			if tc.twice {
				time.Sleep(100 * time.Millisecond)
				_ = lr.cmd.Process.Signal(tc.sig)
			}
			code := lr.wait(time.Minute)
			took := lr.ended.Sub(sent)
			t.Logf("exit %d %v after %v", code, took.Round(time.Millisecond), tc.sig)
			// SIGKILL follows the signal by cluster.InterruptGrace; the
			// kernel then frees the killed JVMs' heaps, which took up to
			// 1.6 s on a busy 2-core VM (CI, 2026-12-02: 2.6 s in all).
			// What this guards against is a wait for the graceful stop (30 s).
			if limit := cluster.InterruptGrace + 5*time.Second; took > limit {
				t.Errorf("exited %v after %v, want within %v", took.Round(time.Millisecond), tc.sig, limit)
			}
			if code != exitRunFailed || !strings.Contains(lr.out.String(), tc.want) {
				t.Errorf("exit %d, want %d saying %q", code, exitRunFailed, tc.want)
			}
			if tc.stored > 0 {
				lr.checkAfter(tc.stored)
			}
			// Killed by the kernel with their parent, the JVMs of a second
			// signal take a moment to go.
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				var left []int
				for _, pid := range jvms {
					if alive(pid) {
						left = append(left, pid)
					}
				}
				if len(left) == 0 {
					break
				}
				if !tc.twice || time.Now().After(deadline) {
					t.Errorf("JVMs %v (children of regress) are left running", left)
					break
				}
			}
			if tc.twice {
				for _, d := range lr.workDirs() {
					_ = os.RemoveAll(d) // what a second signal leaves
				}
			}
		})
	}
}

// childPIDs lists the live processes whose parent is pid (regress's JVMs).
func childPIDs(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, state := procStat(p); ppid == pid && state != "Z" {
			out = append(out, p)
		}
	}
	return out
}

// alive says whether pid runs (a zombie has ended).
func alive(pid int) bool {
	_, state := procStat(pid)
	return state != "" && state != "Z"
}

// procStat reads a process's parent and state from /proc ("" when gone).
func procStat(pid int) (ppid int, state string) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, ""
	}
	// pid (comm) state ppid ...; comm may hold spaces and parentheses.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 2 {
		return 0, ""
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[0]
}
