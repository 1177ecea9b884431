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

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/profile"
)

// ProfilesDir is the folder of a store entry that holds its trials' profiles.
const ProfilesDir = "profiles"

// ProfileFile is where a stored trial's folded stacks of one kind lie in
// the store entry dir: profiles/<trial-id>.<kind>.folded (every region
// server of the side summed).
func ProfileFile(entryDir, trialID string, kind profile.Kind) string {
	return filepath.Join(entryDir, ProfilesDir, trialID+"."+string(kind)+".folded")
}

// jfrStartLead is how long before the measurement window jcmd JFR.start is
// run: jcmd is a JVM of its own that takes 0.5-0.9 s to attach (measured),
// so its own CPU lands in the warm-up and the recording is live when the
// window opens.
const jfrStartLead = time.Second

// profiled reports whether this trial is recorded: --profile (or the
// suite's run.profile) asks for it, it is the first pair of its workload,
// and the run's own process drives the load (the window's edges are then
// this process's clock).
func (r *Runner) profiled(pair int) bool {
	return r.Profile && pair == 0 && r.LoadHosts == nil
}

// windowProfile is one side's JFR recordings over one trial's measurement window.
type windowProfile struct {
	s    *side
	done chan struct{}
	dir  string   // temp dir the JVMs dump into
	jfrs []string // dumped recordings
	jdk  profile.JDK
}

// startProfile records s's region servers over the measurement window at
// pins (JFR.start shortly before it opens, JFR.dump and JFR.stop when it
// closes), in the background; nil when the trial is not profiled.
// Profiling never fails a trial: what goes wrong is logged and noted.
func (r *Runner) startProfile(ctx context.Context, s *side, w string, pair int, at timing) *windowProfile {
	if !r.profiled(pair) || at.Start.IsZero() {
		return nil
	}
	var pids []int
	for _, sv := range s.t.Servers {
		if sv.PID > 0 {
			pids = append(pids, sv.PID)
		}
	}
	if len(pids) == 0 {
		r.profileNote(fmt.Sprintf("%s: no profile: its region servers run elsewhere (JFR is recorded on region servers this machine runs)", s.t.Name))
		return nil
	}
	dir, err := os.MkdirTemp("", "regress-jfr-*")
	if err != nil {
		r.profileNote(fmt.Sprintf("%s: no profile of %s: %v", s.t.Name, w, err))
		return nil
	}
	p := &windowProfile{s: s, done: make(chan struct{}), dir: dir}
	from := at.Start.Add(r.Suite.Run.Warmup)
	to := from.Add(r.Suite.Run.Measure)
	go func() {
		defer close(p.done)
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
			jfrs[i] = filepath.Join(dir, fmt.Sprintf("pid%d.jfr", rec.PID))
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
	}()
	return p
}

// keep waits for the recordings to stop, then, when the trial was stored
// (stored), folds them and stores the side's summed CPU and allocation
// stacks beside the trial (ProfileFile); it always removes the recordings.
// Folding runs the JDK's jfr tool for a few seconds a recording, between
// trials, never inside a measurement window.
func (p *windowProfile) keep(ctx context.Context, r *Runner, w, trialID string, stored bool) {
	if p == nil {
		return
	}
	<-p.done
	defer os.RemoveAll(p.dir)
	if !stored || len(p.jfrs) == 0 {
		return
	}
	var cpu, alloc []profile.Folded
	for _, jfr := range p.jfrs {
		prof, err := profile.Parse(ctx, p.jdk.Jfr, jfr)
		if err != nil {
			r.profileErrs(p.s, w, "read", []error{err})
			continue
		}
		cpu, alloc = append(cpu, prof.CPU), append(alloc, prof.Alloc)
	}
	if len(cpu) == 0 {
		return
	}
	dir := r.Store.Dir(p.s.key)
	if err := os.MkdirAll(filepath.Join(dir, ProfilesDir), 0o755); err != nil {
		r.profileErrs(p.s, w, "store", []error{err})
		return
	}
	for _, f := range []struct {
		kind  profile.Kind
		stack profile.Folded
	}{{profile.CPU, profile.Merge(cpu...)}, {profile.Alloc, profile.Merge(alloc...)}} {
		path := ProfileFile(dir, trialID, f.kind)
		if err := atomicfile.Write(path, 0o644, func(wr io.Writer) error { _, err := f.stack.WriteTo(wr); return err }); err != nil {
			r.profileErrs(p.s, w, "store", []error{err})
			return
		}
	}
	r.logger().Info("profile stored", "target", p.s.t.Name, "workload", w, "trial", trialID, "recordings", len(cpu))
}

// profileErrs logs what went wrong recording a side and keeps each distinct
// cause as a note for the reports: a JDK without JFR is a note, not a failure.
func (r *Runner) profileErrs(s *side, w, step string, errs []error) {
	for _, err := range errs {
		if err == nil {
			continue
		}
		r.logger().Warn("profile: "+step+" failed; the run goes on without it", "target", s.t.Name, "workload", w, "err", err)
		if errors.Is(err, profile.ErrUnavailable) {
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
