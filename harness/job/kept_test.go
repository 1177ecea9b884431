package job

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/fault"
)

func TestFailedRunSaysWhatItKept(t *testing.T) {
	interrupted, cancel := context.WithCancel(context.Background())
	cancel()
	died, kill := context.WithCancelCause(context.Background())
	kill(&cluster.DiedError{Side: "run", Version: "2.6.1", Role: "region server 2", PID: 42, Exit: "was killed by signal 9 (killed)"})
	cause := errors.New("workload workloadc: connection refused")
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		stored int
		want   []string
	}{
		{"interrupted after two trials", interrupted, 2, []string{"interrupted: workload workloadc", "the trial in progress was not stored", "this run stored 2 trials before it stopped; they are kept in /s"}},
		{"interrupted before any trial", interrupted, 0, []string{"interrupted", "this run stored no trial before it stopped; the store /s is as it was"}},
		{"a region server died", died, 1, []string{"region server 2 JVM (pid 42) was killed by signal 9", "The run stopped because that cluster died", "this run stored 1 trials"}},
		{"the run itself failed", context.Background(), 3, []string{"connection refused", "this run stored 3 trials"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Kept(RunFailure(tc.ctx, cause), tc.stored, "/s")
			var re *fault.RunError
			if !errors.As(err, &re) {
				t.Errorf("%v is not a failed run (exit 3)", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
	if Kept(nil, 3, "/s") != nil {
		t.Error("Kept(nil) is not nil")
	}
}
