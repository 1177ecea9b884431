package probe

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/profile"
	"github.com/regress-hbase/regress/harness/servercost"
)

// TestPrimeLeavesNoRecordingBehind primes a real JVM (no HBase, about 4 s):
// the server this machine runs is primed, one elsewhere (no pid) is not,
// and afterwards the JVM runs no recording of regress's and the dump is
// gone; the JVM's recorder has run, which is the point.
func TestPrimeLeavesNoRecordingBehind(t *testing.T) {
	java, err := exec.LookPath("java")
	if err != nil {
		if testing.Short() {
			t.Skipf("no java on PATH (%v); skipped under -short", err)
		}
		t.Fatalf("no java on PATH: %v; install a full JDK as .ci/run does", err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cmd := startSpin(t, java, t.TempDir())
	jdk, err := profile.FindJDK(cmd.Process.Pid)
	if err != nil {
		if testing.Short() {
			t.Skipf("no jcmd for the JVM (%v); skipped under -short", err)
		}
		t.Fatal(err)
	}
	pr := &Profiler{}
	ss := servercost.Servers{{Name: "spin", PID: cmd.Process.Pid}, {Name: "elsewhere", JMX: "h:16030"}}
	if n := pr.Prime(context.Background(), ss); n != 1 {
		t.Fatalf("primed %d JVMs, want 1 (the one this machine runs)", n)
	}
	out, err := exec.Command(jdk.Jcmd, strconv.Itoa(cmd.Process.Pid), "JFR.check").CombinedOutput()
	if err != nil {
		t.Fatalf("jcmd JFR.check: %v: %s", err, out)
	}
	if strings.Contains(string(out), "regress-") {
		t.Errorf("a recording of regress's is still running after Prime:\n%s", out)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "regress-*"))
	if len(left) > 0 {
		t.Errorf("Prime left %v behind", left)
	}
}

// TestPrimeWithNothingToPrime: no server this machine runs, or a run
// already stopped, starts no jcmd and primes nothing.
func TestPrimeWithNothingToPrime(t *testing.T) {
	pr := &Profiler{}
	if n := pr.Prime(context.Background(), servercost.Servers{{Name: "elsewhere", JMX: "h:16030"}}); n != 0 {
		t.Errorf("primed %d JVMs of a side that runs elsewhere", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n := pr.Prime(ctx, servercost.Servers{{Name: "here", PID: os.Getpid()}}); n != 0 {
		t.Errorf("primed %d JVMs after the run stopped", n)
	}
}
