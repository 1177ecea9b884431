package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/job"
)

// TestStderrTakesLinesFromGoroutines: a command's stderr takes log lines
// from slog's default and the job's own logger (two handlers, two locks)
// in goroutines at once, as when clusters start and are watched, and the
// writer (a buffer here, as in every in-process test) is written one line
// at a time: under -race, without the command line's one lock, this is
// a data race on the buffer (a history sweep of real HBase hit it).
func TestStderrTakesLinesFromGoroutines(t *testing.T) {
	defer slog.SetDefault(slog.Default())
	root := newRootCmd()
	root.AddCommand(&cobra.Command{Use: "log-from-goroutines", RunE: func(cmd *cobra.Command, _ []string) error {
		own := job.NewLogger(cmd.Context(), cmd.ErrOrStderr(), false)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				for range 50 {
					if i%2 == 0 {
						slog.Info("default", "goroutine", i)
					} else {
						own.Info("own", "goroutine", i)
					}
				}
			})
		}
		wg.Wait()
		return nil
	}})
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"log-from-goroutines"})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
	if len(lines) != 400 {
		t.Fatalf("%d lines on stderr, want 400", len(lines))
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "time=") || !strings.Contains(l, "goroutine=") {
			t.Fatalf("a line broken by another: %q", l)
		}
	}
}
