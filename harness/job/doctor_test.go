package job

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/fault"
)

// muteZK accepts connections and never answers, as a hung ZooKeeper does.
func muteZK(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}

// TestDoctorInterruptedIsNoUsageError: a signal while doctor waits for a
// ZooKeeper that does not answer said "cannot reach HBase; is it running
// ...?" with exit 2, a usage error, as if the address were wrong. It is an
// interruption: a run error saying so (exit 3). Issue 29's second probe round.
func TestDoctorInterruptedIsNoUsageError(t *testing.T) {
	addr := muteZK(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	err := (&Doctor{ZK: addr, ZNode: "/hbase", Timeout: 30 * time.Second}).Run(ctx, io.Discard)
	var ue *fault.UsageError
	var re *fault.RunError
	if errors.As(err, &ue) || !errors.As(err, &re) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("doctor interrupted: %v (usage error %v), want a run error saying it was interrupted", err, ue != nil)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("doctor took %v after the cancel, want it to stop at once", d)
	}
}

// TestCacheDirThatIsNoDirectoryIsBadInput: --cache-dir /dev/null passed the
// flag checks; both sides said "starting HBase" and the run failed with exit
// 3 (a failed run) for what is bad input. It is refused before anything.
func TestCacheDirThatIsNoDirectoryIsBadInput(t *testing.T) {
	o := &Options{Store: t.TempDir(), CacheDir: os.DevNull, ZNode: "/hbase"}
	_, err := o.open(context.Background(), io.Discard)
	var ue *fault.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--cache-dir /dev/null is a character device, not a directory") {
		t.Errorf("open with --cache-dir /dev/null: %v, want a usage error naming it", err)
	}
	o.CacheDir = t.TempDir()
	if se, err := o.open(context.Background(), io.Discard); err != nil {
		t.Errorf("open with a cache directory: %v", err)
	} else {
		se.prog.Close()
	}
}
