package probe

import (
	"context"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/profile"
)

// servletLead is how long before the measurement window /prof is asked to
// start: the servlet starts async-profiler's launcher, which attaches to
// the JVM, so sampling begins a little after the request; the run lasts
// the window and the lead, rounded up to whole seconds (the servlet takes
// no fraction), so it covers the window.
const servletLead = time.Second

// profileServlets has every info server of infos profile its JVM's CPU
// through /prof over [from, to] (asked servletLead before from, for the
// window and the lead), then reads each output once the run has ended:
// the polls fall after the profile, never in it. The trial this runs
// beside is the profiled pair's, which nothing counts.
func (pr *Profiler) profileServlets(ctx context.Context, p *windowProfile, w string, infos []string, from, to time.Time) {
	if !sleepUntil(ctx, from.Add(-servletLead)) {
		return
	}
	d := to.Sub(from) + servletLead
	stacks := make([]profile.Folded, len(infos))
	errs := make([]error, len(infos))
	var wg sync.WaitGroup
	for i, info := range infos {
		wg.Go(func() {
			run, err := profile.StartServlet(ctx, info, d, pr.Servlet)
			if err == nil {
				stacks[i], err = run.Collect(ctx)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	pr.profileErrs(p.t, w, "/prof", errs)
	for i, f := range stacks {
		if errs[i] == nil {
			p.remote = append(p.remote, f)
		}
	}
}
