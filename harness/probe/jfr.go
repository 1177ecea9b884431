package probe

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/profile"
)

// jfrStartLead is how long before the measurement window jcmd JFR.start is
// run: jcmd is a JVM of its own that takes 0.5-0.9 s to attach (measured),
// so its own CPU lands in the warm-up and the recording is live when the
// window opens.
const jfrStartLead = time.Second

// recordJFR records the JVMs pids over [from, to] into p's dir.
func (pr *Profiler) recordJFR(ctx context.Context, p *windowProfile, w string, pids []int, from, to time.Time) {
	if !sleepUntil(ctx, from.Add(-jfrStartLead)) {
		return
	}
	recs, errs := startJFR(ctx, pids)
	pr.profileErrs(p.t, w, "start", errs)
	var wg sync.WaitGroup
	sleepUntil(ctx, to) // an interrupted run still stops what it started
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	jfrs := make([]string, len(pids))
	stopErrs := make([]error, len(pids))
	for i, rec := range recs {
		if rec == nil {
			continue
		}
		jfrs[i] = filepath.Join(p.dir, fmt.Sprintf("pid%d.jfr", rec.PID))
		wg.Go(func() { stopErrs[i] = rec.Stop(stopCtx, jfrs[i]) })
	}
	wg.Wait()
	for i, rec := range recs {
		if rec != nil && stopErrs[i] == nil {
			p.jfrs = append(p.jfrs, jfrs[i])
			p.jdk = rec.JDK
		}
	}
	pr.profileErrs(p.t, w, "stop", stopErrs)
}

// startJFR starts a JFR recording in each of the JVMs pids at once: a
// recording (nil where it failed) and an error a pid.
func startJFR(ctx context.Context, pids []int) ([]*profile.Recording, []error) {
	recs := make([]*profile.Recording, len(pids))
	errs := make([]error, len(pids))
	var wg sync.WaitGroup
	for i, pid := range pids {
		wg.Go(func() { recs[i], errs[i] = profile.Start(ctx, pid, profile.Options{}) })
	}
	wg.Wait()
	return recs, errs
}
