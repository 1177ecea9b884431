package runner

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/loadhosts"
)

// TestStartGateAgreesOneInstant: a duet's two sides on load hosts start at
// one instant, the later proposal or StartLead after the last side
// prepared; a side that failed to prepare releases the other with an error
// instead of leaving it waiting.
func TestStartGateAgreesOneInstant(t *testing.T) {
	ctx := context.Background()
	g := newStartGate(2)
	far := time.Now().Add(time.Hour)
	starts := make([]time.Time, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, proposed := range []time.Time{time.Now(), far} {
		wg.Go(func() { starts[i], errs[i] = timing{Start: proposed, gate: g}.agree(ctx, nil) })
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil || !starts[0].Equal(far) || !starts[1].Equal(far) {
		t.Errorf("starts %v, errors %v: want both at the later proposal %v", starts, errs, far)
	}

	g = newStartGate(2)
	before := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := timing{Start: before, gate: g}.agree(ctx, nil)
		done <- err
	}()
	if _, err := (timing{Start: before, gate: g}).agree(ctx, errors.New("host h1 died")); err == nil {
		t.Error("the failed side got no error from the gate")
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the other side was released without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the other side still waits after its partner failed")
	}

	// Alone (an interleaved trial), the start is StartLead from now at the earliest.
	start, err := timing{Start: before}.agree(ctx, nil)
	if err != nil || start.Before(before.Add(loadhosts.StartLead)) {
		t.Errorf("alone: start %v (%v), want at least %v after %v", start, err, loadhosts.StartLead, before)
	}
}
