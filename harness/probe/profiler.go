package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/profile"
	"github.com/regress-hbase/regress/harness/results"
)

// Profiler is the profiler probe, one a run: on the profiled pair the
// region servers' profile over the window (JFR by pid here, JFR over JMX,
// or the info servers' /prof) and nothing else, the side's stacks stored
// once the trial is. It holds the run's notes on profiles not recorded and
// its JFR-over-JMX recorder, compiled once.
type Profiler struct {
	// Log receives what goes wrong; nil is slog's default.
	Log *slog.Logger
	// Servlet tunes the /prof requests of servers elsewhere; tests shorten its waits.
	Servlet profile.ServletOptions
	// JMXStartLead is how long before the window a recording over JMX
	// starts; 0 means DefaultJMXStartLead. Tests on a loaded machine give
	// it more.
	JMXStartLead time.Duration

	mu    sync.Mutex
	notes []string
	// jmxRec records JFR over JMX (--*-jmx-port), compiled once a run.
	jmxOnce sync.Once
	jmxRec  *profile.JMXRecorder
	jmxErr  error
}

// Hooks records t's servers over its window when t is the profiled pair's
// and stores the stacks once it is stored; none on a counted trial.
func (pr *Profiler) Hooks(t Trial) (Hooks, bool) {
	if !t.Profiled {
		return Hooks{}, false
	}
	var prof *windowProfile
	var jmx *jmxPrep
	h := Hooks{
		Window: func(ctx context.Context, start time.Time) { prof = pr.startProfile(ctx, t, start, jmx) },
		Stored: func(ctx context.Context, m *Measured, stored bool) Outcome {
			if prof == nil {
				jmx.cancel() // prepared, never started
			}
			if m == nil {
				return prof.keep(ctx, pr, t.Workload, "", nil, false)
			}
			return prof.keep(ctx, pr, t.Workload, t.ProfileID, profileMeta(t, m), stored)
		},
	}
	// Recorders over JMX start their JVM and connection ahead of the
	// idle watch; the recording itself starts with the window.
	if hasJMXRemote(t.Servers) {
		h.Before = func(ctx context.Context) { jmx = pr.prepareJMX(ctx, t) }
	}
	return h, true
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
func profileMeta(tr Trial, m *Measured) *results.ProfileMeta {
	if m == nil || m.Result == nil {
		return nil
	}
	var t results.Trial
	results.FillTrial(&t, m.Result)
	var ops int64
	for _, o := range t.Ops {
		ops += o.Count
	}
	return &results.ProfileMeta{RunID: tr.RunID, Workload: filepath.Base(tr.Workload), Ops: ops, Start: t.Start,
		DurationMillis: t.DurationMillis, CPUPerOpMicros: m.CPUPerOpMicros}
}

// windowProfile is one side's profiles over one trial's measurement window:
// JFR recordings of the region servers this machine runs, and the
// collapsed stacks of those elsewhere, profiled by their info servers' /prof.
type windowProfile struct {
	t    Trial
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

// startProfile profiles s's region servers over the measurement window at
// pins, in the background; nil when the trial is not profiled. A server
// this machine runs is recorded with JFR (JFR.start shortly before the
// window opens, JFR.dump and JFR.stop when it closes), one elsewhere by
// its info server's /prof (async-profiler's CPU samples over the window,
// read once it has ended). Profiling never fails a trial: what goes wrong
// is logged and noted.
func (pr *Profiler) startProfile(ctx context.Context, t Trial, start time.Time, jmx *jmxPrep) *windowProfile {
	w := t.Workload
	if !t.Profiled || start.IsZero() {
		jmx.cancel()
		return nil
	}
	var pids []int
	var infos []string
	for _, sv := range t.Servers {
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
		if n := t.ServersNote; n != "" {
			why += " (" + n + ")"
		}
		pr.Note(fmt.Sprintf("%s: no profile: %s", t.Target, why))
		return nil
	}
	dir, err := os.MkdirTemp("", "regress-jfr-*")
	if err != nil {
		pr.Note(fmt.Sprintf("%s: no profile of %s: %v", t.Target, w, err))
		jmx.cancel()
		return nil
	}
	p := &windowProfile{t: t, done: make(chan struct{}), dir: dir, jmx: jmx}
	from := start.Add(t.Warmup)
	to := from.Add(t.Measure)
	go func() {
		defer close(p.done)
		var wg sync.WaitGroup
		if len(pids) > 0 {
			wg.Go(func() { pr.recordJFR(ctx, p, w, pids, from, to) })
		}
		if len(infos) > 0 {
			wg.Go(func() { pr.profileServlets(ctx, p, w, infos, from, to) })
		}
		if jmx != nil {
			wg.Go(func() { pr.recordOverJMX(ctx, p, w, from, to) })
		}
		wg.Wait()
	}()
	return p
}

// storedKinds are the kinds of stacks keep stores, in the order it writes
// them; each is one of results.ProfileKinds.
var storedKinds = []profile.Kind{profile.CPU, profile.Alloc, profile.AllocSamples, profile.Wait, profile.WaitCount}

// keep waits for the profiles to end, then, when the trial went well
// (stored), folds the recordings and stores the side's summed CPU and
// allocation stacks as id in the side's store directory
// (results.WriteProfile) with meta beside them
// (results.WriteProfileMeta); it always removes the recordings. Folding runs the
// JDK's jfr tool for a few seconds a recording, between trials, never
// inside a measurement window. Stacks from /prof are CPU only, so a side
// with any has no allocation stacks: a sum over part of its servers would
// read as allocation that shrank.
func (p *windowProfile) keep(ctx context.Context, pr *Profiler, w, id string, meta *results.ProfileMeta, stored bool) Outcome {
	if p == nil {
		return Outcome{}
	}
	<-p.done
	defer os.RemoveAll(p.dir)
	if p.jmx != nil {
		defer os.RemoveAll(p.jmx.dir)
	}
	if !stored || len(p.jfrs)+len(p.jmxJfrs)+len(p.remote) == 0 || meta == nil || meta.Ops <= 0 {
		return Outcome{}
	}
	var cpu, alloc, allocN, wait, waitN []profile.Folded
	for _, rec := range []struct {
		jfrs []string
		jdk  profile.JDK
	}{{p.jfrs, p.jdk}, {p.jmxJfrs, p.jmxJDK()}} {
		for _, jfr := range rec.jfrs {
			prof, err := profile.Parse(ctx, rec.jdk.Jfr, jfr)
			if err != nil {
				pr.profileErrs(p.t, w, "read", []error{err})
				continue
			}
			cpu, alloc, allocN = append(cpu, prof.CPU), append(alloc, prof.Alloc), append(allocN, prof.AllocSamples)
			wait, waitN = append(wait, prof.Wait), append(waitN, prof.WaitCount)
		}
	}
	recorded := len(cpu)
	cpu = append(cpu, p.remote...)
	if len(cpu) == 0 {
		return Outcome{}
	}
	dir := p.t.Dir
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
			pr.profileErrs(p.t, w, "store", []error{err})
			return Outcome{}
		}
	}
	meta.ID = id
	if err := results.WriteProfileMeta(dir, meta); err != nil {
		pr.profileErrs(p.t, w, "store", []error{err})
		return Outcome{}
	}
	pr.logger().Info("profile stored", "target", p.t.Target, "workload", w, "profile", id, "recordings", recorded, "servlet_profiles", len(p.remote), "ops", meta.Ops)
	return Outcome{ProfileID: id}
}

// profileErrs logs what went wrong recording a side and keeps each distinct
// cause as a note for the reports: a JDK without JFR is a note, not a failure.
func (pr *Profiler) profileErrs(t Trial, w, step string, errs []error) {
	for _, err := range errs {
		if err == nil {
			continue
		}
		pr.logger().Warn("profile: "+step+" failed; the run goes on without it", "target", t.Target, "workload", w, "err", err)
		// An info server that cannot profile says why in words alike for
		// every server of a side, so the side has one note.
		if u := (*profile.UnavailableError)(nil); errors.As(err, &u) && u.Info != "" {
			pr.Note(fmt.Sprintf("%s: no profile: its info servers' %s", t.Target, u.Reason))
		} else if errors.Is(err, profile.ErrUnavailable) {
			pr.Note(fmt.Sprintf("%s: no profile: %v", t.Target, err))
		} else {
			pr.Note(fmt.Sprintf("%s: profile of %s not recorded (%s): %v", t.Target, w, step, err))
		}
	}
}

// Note keeps one note on the run's profiles, once.
func (pr *Profiler) Note(n string) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if !slices.Contains(pr.notes, n) {
		pr.notes = append(pr.notes, n)
	}
}

// Notes are the run's notes on profiles not recorded (a JDK without
// JFR, a failed jcmd), each once, for the reports.
func (pr *Profiler) Notes() []string {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return slices.Clone(pr.notes)
}

func (pr *Profiler) logger() *slog.Logger {
	if pr.Log == nil {
		return slog.Default()
	}
	return pr.Log
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
