package cluster

import (
	"os"
	"path/filepath"
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
		{"hurried before Stop", true, InterruptGrace - 100*time.Millisecond, InterruptGrace + 700*time.Millisecond},
		{"hurried during Stop", true, InterruptGrace - 100*time.Millisecond, InterruptGrace + 1200*time.Millisecond},
		{"not hurried", false, 2 * time.Second, 2*time.Second + 700*time.Millisecond},
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
			time.Sleep(100 * time.Millisecond) // the trap is set and sleep runs, ignoring SIGTERM as it inherited
			start := time.Now()
			switch tc.name {
			case "hurried before Stop":
				c.hurry()
			case "hurried during Stop":
				time.AfterFunc(500*time.Millisecond, c.hurry)
				start = start.Add(500 * time.Millisecond)
			}
			if err := c.Stop(t.Context()); err != nil {
				t.Fatal(err)
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
