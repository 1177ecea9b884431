package cluster

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStopCutShortWhenTheStartContextEnds: a process that ignores SIGTERM
// (as a JVM busy with its shutdown hooks does for seconds) is stopped with a
// 30 s grace, gracefully, or, once the cluster is hurried (its start
// context ended: a signal), SIGKILLed InterruptGrace after the hurry.
func TestStopCutShortWhenTheStartContextEnds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hurry   bool
		atLeast time.Duration
		atMost  time.Duration
	}{
		// The upper bounds leave a busy 2-core VM 3 s to reap a killed
		// process: what they tell apart is the grace, 30 s when not cut.
		{"hurried before Stop", true, InterruptGrace - 100*time.Millisecond, InterruptGrace + 3*time.Second},
		{"hurried during Stop", true, InterruptGrace - 100*time.Millisecond, InterruptGrace + 3*time.Second},
		{"not hurried", false, 2 * time.Second, 2*time.Second + 3*time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wd := t.TempDir()
			c := &localCluster{version: "test", workDir: wd, done: make(chan struct{}), firstExit: make(chan struct{}),
				hurried: make(chan struct{}), grace: 30 * time.Second, log: discardLogger(), cleanup: func() {}}
			if !tc.hurry {
				c.grace = 2 * time.Second
			}
			j, err := c.startJVM("sh", []string{"-c", "trap '' TERM; exec sleep 60"}, "region server 1", filepath.Join(wd, "rs.log"), "")
			if err != nil {
				t.Fatal(err)
			}
			c.main = j
			c.seal()
			c.ready.Store(true)
			// The trap is set once sh has exec'd sleep, which ignores SIGTERM as it inherited.
			waitExecd(t, j.pgid, "sleep")
			start := time.Now()
			hurried := make(chan time.Time, 1)
			switch tc.name {
			case "hurried before Stop":
				c.hurry()
			case "hurried during Stop":
				go func() {
					for !c.stopping.Load() {
						time.Sleep(time.Millisecond)
					}
					hurried <- time.Now()
					c.hurry()
				}()
			}
			if err := c.Stop(t.Context()); err != nil {
				t.Fatal(err)
			}
			if tc.name == "hurried during Stop" {
				start = <-hurried
			}
			took := time.Since(start)
			if took < tc.atLeast || took > tc.atMost {
				t.Errorf("Stop took %v, want %v to %v", took.Round(time.Millisecond), tc.atLeast, tc.atMost)
			}
			if pgidAlive(j.pgid) {
				t.Errorf("process group %d is left after Stop", j.pgid)
			}
			if c.Died() != nil {
				t.Errorf("a stopped process was reported dead: %v", c.Died())
			}
			if _, err := os.Stat(wd); err != nil {
				t.Errorf("work dir: %v", err)
			}
		})
	}
}

// TestStopKeepsTheLogOfAClusterThatDied: the error that reports a JVM's
// death names its log, so Stop of a dead cluster keeps the logs and config
// and drops only the data; a cluster stopped alive is removed whole.
func TestStopKeepsTheLogOfAClusterThatDied(t *testing.T) {
	for _, tc := range []struct {
		name     string
		script   string
		keepsLog bool
	}{
		{"died unasked", "sleep 0.5; exit 1", true},
		{"stopped alive", "exec sleep 60", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wd := t.TempDir()
			for _, sub := range []string{"logs", "conf", "hbase", "zk", "tmp"} {
				if err := os.MkdirAll(filepath.Join(wd, sub), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			cleaned := false
			c := &localCluster{version: "test", workDir: wd, done: make(chan struct{}), firstExit: make(chan struct{}),
				hurried: make(chan struct{}), grace: 2 * time.Second, log: discardLogger(), cleanup: func() { cleaned = true }}
			j, err := c.startJVM("sh", []string{"-c", tc.script}, "region server 1", filepath.Join(wd, "logs", "rs.log"), "")
			if err != nil {
				t.Fatal(err)
			}
			c.main = j
			c.seal()
			c.ready.Store(true)
			if tc.keepsLog {
				select {
				case <-c.done:
				case <-time.After(10 * time.Second):
					t.Fatal("the JVM's exit was not noticed in 10 s")
				}
			}
			if err := c.Stop(t.Context()); err != nil {
				t.Fatal(err)
			}
			if (c.Died() != nil) != tc.keepsLog {
				t.Fatalf("Died() = %v", c.Died())
			}
			if cleaned == tc.keepsLog {
				t.Errorf("whole work dir removed = %v, want %v", cleaned, !tc.keepsLog)
			}
			if !tc.keepsLog {
				return
			}
			for _, sub := range []string{"logs", "conf"} {
				if _, err := os.Stat(filepath.Join(wd, sub)); err != nil {
					t.Errorf("%s of a dead cluster not kept: %v", sub, err)
				}
			}
			for _, sub := range []string{"hbase", "zk", "tmp"} {
				if _, err := os.Stat(filepath.Join(wd, sub)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s of a dead cluster kept (stat: %v)", sub, err)
				}
			}
		})
	}
}

// waitExecd waits until process pid runs the program named comm (its exec
// is done), for at most 10 s.
func waitExecd(t *testing.T, pid int, comm string) {
	t.Helper()
	p := filepath.Join("/proc", strconv.Itoa(pid), "comm")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(p)
		if err == nil && strings.TrimSpace(string(b)) == comm {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d does not run %s after 10 s (%s: %q, %v)", pid, comm, p, b, err)
		}
	}
}
