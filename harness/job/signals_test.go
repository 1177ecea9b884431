package job

import (
	"bytes"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/fault"
)

// TestWatchSignals: a command holding no cluster exits StopGrace after the
// first signal; one that does waits for its teardown, and a second signal
// ends it at once; either way the context is cancelled first and the exit is 3.
func TestWatchSignals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		quick   bool
		signals int
		format  string
		want    string
	}{
		{"no cluster held", true, 1, "text", "regress: terminated: stopped before the command finished"},
		{"second signal", false, 2, "json", `"level":"ERROR","msg":"second terminated: exiting now`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sigs := make(chan os.Signal, 2)
			ctx, cancel := context.WithCancel(context.Background())
			var stderr bytes.Buffer
			exited := make(chan int, 1)
			start := time.Now()
			for range tc.signals {
				sigs <- syscall.SIGTERM
			}
			go WatchSignals(sigs, cancel, func() bool { return tc.quick }, &stderr, tc.format, func(code int) { exited <- code })
			select {
			case code := <-exited:
				if code != fault.ExitRunFailed || ctx.Err() == nil || !strings.Contains(stderr.String(), tc.want) {
					t.Errorf("exit %d, context %v, stderr %q; want exit 3 after cancelling, saying %q", code, ctx.Err(), stderr.String(), tc.want)
				}
				if tc.quick && time.Since(start) < StopGrace {
					t.Errorf("exited after %v, before StopGrace %v", time.Since(start), StopGrace)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the process did not end")
			}
		})
	}
}
