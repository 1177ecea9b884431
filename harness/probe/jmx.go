package probe

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/profile"
	"github.com/regress-hbase/regress/harness/servercost"
)

// jmxPrep is a profiled trial's recorders over JMX (--*-jmx-port), started
// ahead of its idle watch so that their JVM and connection are up before
// the window: the recording itself starts the Profiler's JMXStartLead before it.
type jmxPrep struct {
	runs []*profile.JMXRun
	outs []string
	dir  string
	jdk  profile.JDK
}

// prepareJMX starts a recorder for each of t's servers read over JMX; nil
// when there are none or none could start (noted).
func (pr *Profiler) prepareJMX(ctx context.Context, t Trial) *jmxPrep {
	w := t.Workload
	var addrs []string
	for _, sv := range t.Servers {
		if sv.PID == 0 && sv.JMXRemote != "" {
			addrs = append(addrs, sv.JMXRemote)
		}
	}
	if len(addrs) == 0 {
		return nil
	}
	rec, err := pr.jmxRecorder(ctx)
	if err != nil {
		pr.profileErrs(t, w, "JFR over JMX", []error{err})
		return nil
	}
	dir, err := os.MkdirTemp("", "regress-jfr-jmx-*")
	if err != nil {
		pr.profileErrs(t, w, "JFR over JMX", []error{err})
		return nil
	}
	j := &jmxPrep{dir: dir, jdk: rec.JDK}
	for i, addr := range addrs {
		out := filepath.Join(dir, fmt.Sprintf("jmx%d.jfr", i))
		run, err := rec.Prepare(ctx, addr, out)
		if err != nil {
			pr.profileErrs(t, w, "JFR over JMX", []error{err})
			continue
		}
		j.runs, j.outs = append(j.runs, run), append(j.outs, out)
	}
	if len(j.runs) == 0 {
		os.RemoveAll(dir)
		return nil
	}
	return j
}

// cancel stops recorders that will not record and removes their files.
func (j *jmxPrep) cancel() {
	if j == nil {
		return
	}
	for _, run := range j.runs {
		run.Cancel()
	}
	os.RemoveAll(j.dir)
}

// recordOverJMX has p's prepared recorders record over [from, to]: each
// starts its recording the Profiler's JMXStartLead before from, stops it at to, and
// streams it into a file here once it has stopped.
func (pr *Profiler) recordOverJMX(ctx context.Context, p *windowProfile, w string, from, to time.Time) {
	j := p.jmx
	errs := make([]error, len(j.runs))
	var wg sync.WaitGroup
	for i, run := range j.runs {
		wg.Go(func() { _, errs[i] = run.Record(ctx, from.Add(-pr.jmxStartLead()), to, from) })
	}
	wg.Wait()
	pr.profileErrs(p.t, w, "JFR over JMX", errs)
	for i, out := range j.outs {
		if errs[i] == nil {
			p.jmxJfrs = append(p.jmxJfrs, out)
		}
	}
}

// DefaultJMXStartLead is how long before the window a recording over JMX starts:
// the FlightRecorder MBean answers in tens of milliseconds once connected.
const DefaultJMXStartLead = 300 * time.Millisecond

// jmxStartLead is the Profiler's lead, or DefaultJMXStartLead.
func (pr *Profiler) jmxStartLead() time.Duration {
	if pr.JMXStartLead > 0 {
		return pr.JMXStartLead
	}
	return DefaultJMXStartLead
}

// jmxRecorder is the run's JFR-over-JMX recorder, compiled once.
func (pr *Profiler) jmxRecorder(ctx context.Context) (*profile.JMXRecorder, error) {
	pr.jmxOnce.Do(func() { pr.jmxRec, pr.jmxErr = profile.NewJMXRecorder(ctx, "") })
	return pr.jmxRec, pr.jmxErr
}

// hasJMXRemote reports whether some of servers are profiled over JMX.
func hasJMXRemote(servers servercost.Servers) bool {
	return slices.ContainsFunc(servers, func(sv servercost.Server) bool { return sv.PID == 0 && sv.JMXRemote != "" })
}
