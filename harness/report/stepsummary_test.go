//go:build unix

package report

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStepSummaryThatIsNoFileIsRefusedAtOnce: GITHUB_STEP_SUMMARY naming a
// FIFO nobody reads hung `regress compare` for ever after its reports were
// written (issue 29's second probe round); a directory or a device is no
// summary either. Each is a warning's error at once, nothing written.
func TestStepSummaryThatIsNoFileIsRefusedAtOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "summary.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatalf("mkfifo %s: %v (the test needs a FIFO in its temp dir, as on Linux)", fifo, err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, "is a named pipe (FIFO), not a regular file"},
		{t.TempDir(), "is a directory, not a regular file"},
		{os.DevNull, "is a character device, not a regular file"},
	} {
		t.Setenv("GITHUB_STEP_SUMMARY", tc.path)
		done := make(chan error, 1)
		go func() { done <- AppendStepSummary(fullReport()) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("GITHUB_STEP_SUMMARY=%s: %v, want an error saying it %s", tc.path, err, tc.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("GITHUB_STEP_SUMMARY=%s: still writing after 5 s (blocked on it)", tc.path)
		}
	}
}
