package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/profile"
	"github.com/regress-hbase/regress/harness/results"
)

// jfrStartLead is how long before the measurement window jcmd JFR.start is
// run: jcmd is a JVM of its own that takes 0.5-0.9 s to attach (measured),
// so its own CPU lands in the warm-up and the recording is live when the
// window opens.
const jfrStartLead = time.Second

// profilePair is the pair index of the profiled pair: one extra pair of
// each workload, run after the last counted pair and stored only as its
// profiles, so no trial the verdict counts ever runs beside a recorder.
// Starting JFR on a JVM that never ran it stalled the handlers for seconds
// on this machine (5.5 times the CPU per operation, p95 in seconds) and the
// next pair still paid (docs/profiles.md); after the last counted pair
// nothing is left to pay.
const profilePair = -2

// profiled reports whether this trial is recorded: --profile (or the
// suite's run.profile) asks for it and it is the profiled pair. On load
// hosts the recording follows the start the hosts agreed, on this
// process's clock, as the servers' readings do.
func (r *Runner) profiled(pair int) bool {
	return r.Profile && pair == profilePair
}

// profilePairs runs the profiled pair of every workload after the counted
// ones, the same way a counted pair runs (a duet or back to back in random
// order), when the run profiles. Its trials are stored nowhere; a failed
// one is a note, never the run's failure: the verdict's trials are stored.
func (r *Runner) profilePairs(ctx context.Context, sides ...*side) {
	if !r.Profile || ctx.Err() != nil {
		return
	}
	began := time.Now()
	r.planned = r.started + len(sides)*len(r.Suite.Workloads)
	r.emit(Event{Phase: "trial", Message: "profiling: one more pair per workload, recorded (JFR here, the info servers' /prof elsewhere) and not counted"})
	for _, w := range r.Suite.Workloads {
		var err error
		if r.duet() && len(sides) == 2 {
			_, err = r.duetTrial(ctx, sides[0], sides[1], w, profilePair)
		} else {
			order := slices.Clone(sides)
			if len(order) == 2 && r.rng().IntN(2) == 1 {
				order[0], order[1] = order[1], order[0]
			}
			for i, s := range order {
				if _, err = r.trial(ctx, s, w, profilePair, i, false); err != nil {
					break
				}
			}
		}
		if err != nil {
			r.logger().Warn("profiled pair failed; the counted trials stand", "workload", w, "err", err)
			r.profileNote(fmt.Sprintf("%s: profiled pair failed: %v", w, err))
			if ctx.Err() != nil {
				return
			}
		}
	}
	r.logger().Info("profiled pairs done (not counted)", "workloads", len(r.Suite.Workloads), "took", time.Since(began).Round(time.Second))
}

// profileID names the stored profiles of workload w's trial of pair.
func (r *Runner) profileID(w string, pair int) string {
	if pair == profilePair {
		return fmt.Sprintf("%s-%s-profile", r.RunID, filepath.Base(w))
	}
	return r.trialID(w, pair)
}

// ownReadFrames mark the stacks of regress's own readings of a region
// server: its agent's frames, the info server's /jmx servlet that answers
// them (nothing else reads /jmx of a cluster regress started), the info
// server's HTTP threads around it (its request log and selector, outside
// the servlet's frames: on a real cluster a monitor's scrapes, no more the
// release's work), jcmd's JFR commands that start and dump the recording,
// and on a server profiled through /prof, the profiler servlets that start
// the run and serve its output, or through JMX, the connection serving the
// recorder. Before the request log and JFR commands were marked, the
// README's run of 2026-12-04 stored their stacks: 0.02% of a window's allocation.
var ownReadFrames = []string{"regress.agent.", "JMXJsonServlet", "eclipse.jetty.", "jdk.jfr.internal.dcmd.",
	"hbase.http.ProfileServlet", "hbase.http.ProfileOutputServlet", "javax.management.remote.rmi.RMIConnectionImpl"}

// profileMeta is what a measured profiled trial's profiles stand for; nil when m is.
func (m *measured) profileMeta(r *Runner, w string) *results.ProfileMeta {
	if m == nil || m.res == nil {
		return nil
	}
	var t results.Trial
	results.FillTrial(&t, m.res)
	var ops int64
	for _, o := range t.Ops {
		ops += o.Count
	}
	return &results.ProfileMeta{RunID: r.RunID, Workload: filepath.Base(w), Ops: ops, Start: t.Start,
		DurationMillis: t.DurationMillis, CPUPerOpMicros: m.cpuPerOp()}
}

// windowProfile is one side's profiles over one trial's measurement window:
// JFR recordings of the region servers this machine runs, and the
// collapsed stacks of those elsewhere, profiled by their info servers' /prof.
type windowProfile struct {
	s    *side
	done chan struct{}
	dir  string   // temp dir the JVMs dump into
	jfrs []string // dumped recordings
	jdk  profile.JDK
	// remote are the CPU stacks /prof gave, a server each.
	remote []profile.Folded
	// jmx are the recorders over JMX, jmxJfrs the recordings they streamed.
	jmx     *jmxPrep
	jmxJfrs []string
}

// jmxJDK is the JDK whose jfr tool reads the recordings streamed over JMX.
func (p *windowProfile) jmxJDK() profile.JDK {
	if p.jmx == nil {
		return profile.JDK{}
	}
	return p.jmx.jdk
}

// servletLead is how long before the measurement window /prof is asked to
// start: the servlet starts async-profiler's launcher, which attaches to
// the JVM, so sampling begins a little after the request; the run lasts
// the window and the lead, rounded up to whole seconds (the servlet takes
// no fraction), so it covers the window.
const servletLead = time.Second

// startProfile profiles s's region servers over the measurement window at
// pins, in the background; nil when the trial is not profiled. A server
// this machine runs is recorded with JFR (JFR.start shortly before the
// window opens, JFR.dump and JFR.stop when it closes), one elsewhere by
// its info server's /prof (async-profiler's CPU samples over the window,
// read once it has ended). Profiling never fails a trial: what goes wrong
// is logged and noted.
func (r *Runner) startProfile(ctx context.Context, s *side, w string, pair int, at timing, jmx *jmxPrep) *windowProfile {
	if !r.profiled(pair) || at.Start.IsZero() {
		jmx.cancel()
		return nil
	}
	var pids []int
	var infos []string
	for _, sv := range s.t.Servers {
		switch {
		case sv.PID > 0:
			pids = append(pids, sv.PID)
		case sv.JMXRemote != "": // recorded over JMX (jmx), or noted why not
		case sv.InfoURL() != "":
			infos = append(infos, sv.InfoURL())
		}
	}
	if len(pids) == 0 && len(infos) == 0 && jmx == nil {
		why := "its region servers run elsewhere and their info servers are not read"
		if n := s.t.ServersNote; n != "" {
			why += " (" + n + ")"
		}
		r.profileNote(fmt.Sprintf("%s: no profile: %s", s.t.Name, why))
		return nil
	}
	dir, err := os.MkdirTemp("", "regress-jfr-*")
	if err != nil {
		r.profileNote(fmt.Sprintf("%s: no profile of %s: %v", s.t.Name, w, err))
		jmx.cancel()
		return nil
	}
	p := &windowProfile{s: s, done: make(chan struct{}), dir: dir, jmx: jmx}
	from := at.Start.Add(r.Suite.Run.Warmup)
	to := from.Add(r.Suite.Run.Measure)
	go func() {
		defer close(p.done)
		var wg sync.WaitGroup
		if len(pids) > 0 {
			wg.Go(func() { r.recordJFR(ctx, p, w, pids, from, to) })
		}
		if len(infos) > 0 {
			wg.Go(func() { r.profileServlets(ctx, p, w, infos, from, to) })
		}
		if jmx != nil {
			wg.Go(func() { r.recordOverJMX(ctx, p, w, from, to) })
		}
		wg.Wait()
	}()
	return p
}

// recordJFR records the JVMs pids over [from, to] into p's dir.
func (r *Runner) recordJFR(ctx context.Context, p *windowProfile, w string, pids []int, from, to time.Time) {
	s := p.s
	if !sleepUntil(ctx, from.Add(-jfrStartLead)) {
		return
	}
	recs := make([]*profile.Recording, len(pids))
	errs := make([]error, len(pids))
	var wg sync.WaitGroup
	for i, pid := range pids {
		wg.Go(func() { recs[i], errs[i] = profile.Start(ctx, pid, profile.Options{}) })
	}
	wg.Wait()
	r.profileErrs(s, w, "start", errs)
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
	r.profileErrs(s, w, "stop", stopErrs)
}

// jmxPrep is a profiled trial's recorders over JMX (--*-jmx-port), started
// ahead of its idle watch so that their JVM and connection are up before
// the window: the recording itself starts jmxStartLead before it.
type jmxPrep struct {
	runs []*profile.JMXRun
	outs []string
	dir  string
	jdk  profile.JDK
}

// prepareJMX starts a recorder for each of s's servers read over JMX; nil
// when there are none or none could start (noted).
func (r *Runner) prepareJMX(ctx context.Context, s *side, w string) *jmxPrep {
	var addrs []string
	for _, sv := range s.t.Servers {
		if sv.PID == 0 && sv.JMXRemote != "" {
			addrs = append(addrs, sv.JMXRemote)
		}
	}
	if len(addrs) == 0 {
		return nil
	}
	rec, err := r.jmxRecorder(ctx)
	if err != nil {
		r.profileErrs(s, w, "JFR over JMX", []error{err})
		return nil
	}
	dir, err := os.MkdirTemp("", "regress-jfr-jmx-*")
	if err != nil {
		r.profileErrs(s, w, "JFR over JMX", []error{err})
		return nil
	}
	j := &jmxPrep{dir: dir, jdk: rec.JDK}
	for i, addr := range addrs {
		out := filepath.Join(dir, fmt.Sprintf("jmx%d.jfr", i))
		run, err := rec.Prepare(ctx, addr, out)
		if err != nil {
			r.profileErrs(s, w, "JFR over JMX", []error{err})
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
// starts its recording jmxStartLead before from, stops it at to, and
// streams it into a file here once it has stopped.
func (r *Runner) recordOverJMX(ctx context.Context, p *windowProfile, w string, from, to time.Time) {
	j := p.jmx
	errs := make([]error, len(j.runs))
	var wg sync.WaitGroup
	for i, run := range j.runs {
		wg.Go(func() { _, errs[i] = run.Record(ctx, from.Add(-jmxStartLead), to, from) })
	}
	wg.Wait()
	r.profileErrs(p.s, w, "JFR over JMX", errs)
	for i, out := range j.outs {
		if errs[i] == nil {
			p.jmxJfrs = append(p.jmxJfrs, out)
		}
	}
}

// jmxStartLead is how long before the window a recording over JMX starts:
// the FlightRecorder MBean answers in tens of milliseconds once connected.
const jmxStartLead = 300 * time.Millisecond

// jmxRecorder is the run's JFR-over-JMX recorder, compiled once.
func (r *Runner) jmxRecorder(ctx context.Context) (*profile.JMXRecorder, error) {
	r.jmxOnce.Do(func() { r.jmxRec, r.jmxErr = profile.NewJMXRecorder(ctx, "") })
	return r.jmxRec, r.jmxErr
}

// profileServlets has every info server of infos profile its JVM's CPU
// through /prof over [from, to] (asked servletLead before from, for the
// window and the lead), then reads each output once the run has ended:
// the polls fall after the profile, never in it. The trial this runs
// beside is the profiled pair's, which nothing counts.
func (r *Runner) profileServlets(ctx context.Context, p *windowProfile, w string, infos []string, from, to time.Time) {
	if !sleepUntil(ctx, from.Add(-servletLead)) {
		return
	}
	d := to.Sub(from) + servletLead
	stacks := make([]profile.Folded, len(infos))
	errs := make([]error, len(infos))
	var wg sync.WaitGroup
	for i, info := range infos {
		wg.Go(func() {
			run, err := profile.StartServlet(ctx, info, d, r.servlet)
			if err == nil {
				stacks[i], err = run.Collect(ctx)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	r.profileErrs(p.s, w, "/prof", errs)
	for i, f := range stacks {
		if errs[i] == nil {
			p.remote = append(p.remote, f)
		}
	}
}

// storedKinds are the kinds of stacks keep stores, in the order it writes
// them; each is one of results.ProfileKinds.
var storedKinds = []profile.Kind{profile.CPU, profile.Alloc, profile.AllocSamples, profile.Wait, profile.WaitCount}

// keep waits for the profiles to end, then, when the trial went well
// (stored), folds the recordings and stores the side's summed CPU and
// allocation stacks as id (results.WriteProfile) with meta beside them
// (results.WriteProfileMeta); it always removes the recordings. Folding runs the
// JDK's jfr tool for a few seconds a recording, between trials, never
// inside a measurement window. Stacks from /prof are CPU only, so a side
// with any has no allocation stacks: a sum over part of its servers would
// read as allocation that shrank.
func (p *windowProfile) keep(ctx context.Context, r *Runner, w, id string, meta *results.ProfileMeta, stored bool) {
	if p == nil {
		return
	}
	<-p.done
	defer os.RemoveAll(p.dir)
	if p.jmx != nil {
		defer os.RemoveAll(p.jmx.dir)
	}
	if !stored || len(p.jfrs)+len(p.jmxJfrs)+len(p.remote) == 0 || meta == nil || meta.Ops <= 0 {
		return
	}
	var cpu, alloc, allocN, wait, waitN []profile.Folded
	for _, rec := range []struct {
		jfrs []string
		jdk  profile.JDK
	}{{p.jfrs, p.jdk}, {p.jmxJfrs, p.jmxJDK()}} {
		for _, jfr := range rec.jfrs {
			prof, err := profile.Parse(ctx, rec.jdk.Jfr, jfr)
			if err != nil {
				r.profileErrs(p.s, w, "read", []error{err})
				continue
			}
			cpu, alloc, allocN = append(cpu, prof.CPU), append(alloc, prof.Alloc), append(allocN, prof.AllocSamples)
			wait, waitN = append(wait, prof.Wait), append(waitN, prof.WaitCount)
		}
	}
	recorded := len(cpu)
	cpu = append(cpu, p.remote...)
	if len(cpu) == 0 {
		return
	}
	dir := r.Store.Dir(p.s.key)
	// The window's two edge readings (regress's agent through /jmx) are
	// in the recording on both sides alike; they are regress's work, not
	// the release's, so their stacks go (counted in the meta).
	cpuKept, cpuOwn := profile.Merge(cpu...).Without(ownReadFrames...)
	meta.OwnReadCPUSamples = cpuOwn
	files := map[profile.Kind]profile.Folded{profile.CPU: cpuKept}
	if len(p.remote) == 0 {
		var allocOwn int64
		files[profile.Alloc], allocOwn = profile.Merge(alloc...).Without(ownReadFrames...)
		files[profile.AllocSamples], _ = profile.Merge(allocN...).Without(ownReadFrames...)
		meta.OwnReadAllocBytes = allocOwn
		// The request threads' waits: a /jmx read of the agent is no
		// request of the workload's, as for CPU and allocation.
		files[profile.Wait], _ = profile.Merge(wait...).Without(ownReadFrames...)
		files[profile.WaitCount], _ = profile.Merge(waitN...).Without(ownReadFrames...)
	} else {
		meta.Profiler = results.ProfilerServlet
	}
	if len(p.jmxJfrs) > 0 && len(p.remote) == 0 {
		meta.Profiler = results.ProfilerJMX
	}
	for _, kind := range storedKinds {
		stacks, ok := files[kind]
		if !ok {
			continue
		}
		if err := results.WriteProfile(dir, id, string(kind), func(wr io.Writer) error { _, err := stacks.WriteTo(wr); return err }); err != nil {
			r.profileErrs(p.s, w, "store", []error{err})
			return
		}
	}
	meta.ID = id
	if err := results.WriteProfileMeta(dir, meta); err != nil {
		r.profileErrs(p.s, w, "store", []error{err})
		return
	}
	r.logger().Info("profile stored", "target", p.s.t.Name, "workload", w, "profile", id, "recordings", recorded, "servlet_profiles", len(p.remote), "ops", meta.Ops)
}

// profileErrs logs what went wrong recording a side and keeps each distinct
// cause as a note for the reports: a JDK without JFR is a note, not a failure.
func (r *Runner) profileErrs(s *side, w, step string, errs []error) {
	for _, err := range errs {
		if err == nil {
			continue
		}
		r.logger().Warn("profile: "+step+" failed; the run goes on without it", "target", s.t.Name, "workload", w, "err", err)
		// An info server that cannot profile says why in words alike for
		// every server of a side, so the side has one note.
		if u := (*profile.UnavailableError)(nil); errors.As(err, &u) && u.Info != "" {
			r.profileNote(fmt.Sprintf("%s: no profile: its info servers' %s", s.t.Name, u.Reason))
		} else if errors.Is(err, profile.ErrUnavailable) {
			r.profileNote(fmt.Sprintf("%s: no profile: %v", s.t.Name, err))
		} else {
			r.profileNote(fmt.Sprintf("%s: profile of %s not recorded (%s): %v", s.t.Name, w, step, err))
		}
	}
}

// profileNote keeps one note, once.
func (r *Runner) profileNote(n string) {
	r.profileMu.Lock()
	defer r.profileMu.Unlock()
	if !slices.Contains(r.profileNotes, n) {
		r.profileNotes = append(r.profileNotes, n)
	}
}

// ProfileNotes are the run's notes on profiles not recorded (a JDK without
// JFR, a failed jcmd), each once, for the reports.
func (r *Runner) ProfileNotes() []string {
	r.profileMu.Lock()
	defer r.profileMu.Unlock()
	return slices.Clone(r.profileNotes)
}

// sleepUntil waits until t or ctx's end; false when ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-ctx.Done():
		return false
	}
}
