package runner

import (
	"context"
	"errors"
	"github.com/regress-hbase/regress/harness/sut"
	"sync/atomic"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/lifecycle"
)

// hungAdmin is a cluster's admin that answers (or, when hung, never answers
// until its context ends); it counts the drops asked of it.
type hungAdmin struct {
	lifecycle.Admin
	hung  bool
	asked atomic.Int32
}

func (a *hungAdmin) TableExists(ctx context.Context, _ string) (bool, error) {
	a.asked.Add(1)
	if a.hung {
		<-ctx.Done()
		return false, ctx.Err()
	}
	return true, nil
}
func (a *hungAdmin) TableState(context.Context, string) (string, error) { return "ENABLED", nil }
func (a *hungAdmin) DisableTable(context.Context, string) error         { return nil }
func (a *hungAdmin) DeleteTable(context.Context, string) error          { return nil }

func TestDropTableAfterAFailureOrASignal(t *testing.T) {
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	failed := errors.New("TARGET NOT HELD")
	for _, tc := range []struct {
		name     string
		ctx      context.Context
		failed   error
		provider string
		hung     bool
		// asked: whether the cluster is asked to drop; within bounds the call.
		asked  bool
		within time.Duration
		err    bool
	}{
		{"a trial that ran drops its table", context.Background(), nil, "local", false, true, time.Second, false},
		{"stopped: a started cluster's table goes with it", stopped, nil, "local", true, false, 500 * time.Millisecond, false},
		{"failed: a healthy started cluster's table is dropped", context.Background(), failed, "local", false, true, time.Second, false},
		{"failed: a stalled started cluster costs at most failedDrop", context.Background(), failed, "local", true, true, failedDrop + 500*time.Millisecond, true},
		{"stopped: an external cluster's table is dropped", stopped, nil, "external", false, true, time.Second, false},
		{"stopped: an external cluster that hangs costs 1 s", stopped, nil, "external", true, true, stoppedDrop + 500*time.Millisecond, true},
		{"failed: an external cluster's table is dropped", context.Background(), failed, "external", false, true, time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &hungAdmin{hung: tc.hung}
			s := &side{t: &sut.Target{Name: "2.6.1", Provider: tc.provider}, mgr: lifecycle.New(a, "t", nil)}
			r := &Runner{}
			start := time.Now()
			err := r.dropTable(tc.ctx, s, lifecycle.Prefix+"trial_t_1", tc.failed)
			if took := time.Since(start); took > tc.within {
				t.Errorf("took %v, want within %v", took.Round(time.Millisecond), tc.within)
			}
			if (a.asked.Load() > 0) != tc.asked {
				t.Errorf("the cluster was asked %d times, want asked: %v", a.asked.Load(), tc.asked)
			}
			if (err != nil) != tc.err {
				t.Errorf("err = %v, want an error: %v", err, tc.err)
			}
		})
	}
}
