package runner

import (
	"context"
	"encoding/json"
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
	"github.com/regress-hbase/regress/harness/results"
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

// profilePair is the pair index of the profiled pair: one extra pair of
// each workload, run after the last counted pair and stored only as its
// profiles, so no trial the verdict counts ever runs beside a recorder.
// Starting JFR on a JVM that never ran it stalled the handlers for seconds
// on this machine (5.5 times the CPU per operation, p95 in seconds) and the
// next pair still paid (docs/profiles.md); after the last counted pair
// nothing is left to pay.
const profilePair = -2

// profiled reports whether this trial is recorded: --profile (or the
// suite's run.profile) asks for it, it is the profiled pair, and the run's
// own process drives the load (the window's edges are then this process's
// clock).
func (r *Runner) profiled(pair int) bool {
	return r.Profile && pair == profilePair && r.LoadHosts == nil
}

// profilePairs runs the profiled pair of every workload after the counted
// ones, the same way a counted pair runs (a duet or back to back in random
// order), when the run profiles. Its trials are stored nowhere; a failed
// one is a note, never the run's failure: the verdict's trials are stored.
func (r *Runner) profilePairs(ctx context.Context, sides ...*side) {
	if !r.Profile || r.LoadHosts != nil || ctx.Err() != nil {
		return
	}
	began := time.Now()
	r.planned = r.started + len(sides)*len(r.Suite.Workloads)
	r.emit(Event{Phase: "trial", Message: "profiling: one more pair per workload, recorded with JFR and not counted"})
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

// ProfileMeta says what one side's stored profiles of a profiled trial
// stand for, beside them in profiles/<id>.json: the operations the trial
// served while recording divide the stacks (the trial itself is not stored).
type ProfileMeta struct {
	ID       string `json:"id"`
	RunID    string `json:"run_id"`
	Workload string `json:"workload"`
	// Ops counts the operations the trial served in its measurement window.
	Ops int64 `json:"ops"`
	// Start is the measurement window's start; DurationMillis its length.
	Start          time.Time `json:"start"`
	DurationMillis int64     `json:"duration_ms"`
	// CPUPerOpMicros is the trial's server CPU per operation with the
	// recorder on, for reference (0 when not read): what profiling costs a trial.
	CPUPerOpMicros float64 `json:"cpu_per_op_us,omitempty"`
	// OwnReadCPUSamples and OwnReadAllocBytes are what the stored stacks
	// leave out: regress's own readings at the window's edges (ownReadFrames).
	OwnReadCPUSamples int64 `json:"own_read_cpu_samples,omitempty"`
	OwnReadAllocBytes int64 `json:"own_read_alloc_bytes,omitempty"`
}

// ownReadFrames mark the stacks of regress's own readings of a region
// server: its agent's frames, and the info server's /jmx servlet that
// answers them (nothing else reads /jmx of a cluster regress started).
var ownReadFrames = []string{"regress.agent.", "JMXJsonServlet"}

// profileMeta is what a measured profiled trial's profiles stand for; nil when m is.
func (m *measured) profileMeta(r *Runner, w string) *ProfileMeta {
	if m == nil || m.res == nil {
		return nil
	}
	var t results.Trial
	results.FillTrial(&t, m.res)
	var ops int64
	for _, o := range t.Ops {
		ops += o.Count
	}
	return &ProfileMeta{RunID: r.RunID, Workload: filepath.Base(w), Ops: ops, Start: t.Start,
		DurationMillis: t.DurationMillis, CPUPerOpMicros: m.cpuPerOp()}
}

// ProfileMetaFile is where a profiled trial's ProfileMeta lies in a store entry dir.
func ProfileMetaFile(entryDir, id string) string {
	return filepath.Join(entryDir, ProfilesDir, id+".json")
}

// ReadProfileMetas reads every ProfileMeta in a store entry dir; none when
// it holds no profiles. A file that is not one is named in the error, and
// the others are still returned.
func ReadProfileMetas(entryDir string) ([]ProfileMeta, error) {
	paths, err := filepath.Glob(filepath.Join(entryDir, ProfilesDir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []ProfileMeta
	var errs []error
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var pm ProfileMeta
		if err := json.Unmarshal(b, &pm); err != nil || pm.ID == "" {
			errs = append(errs, fmt.Errorf("%s: not a profile's description (%v)", p, err))
			continue
		}
		out = append(out, pm)
	}
	return out, errors.Join(errs...)
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

// keep waits for the recordings to stop, then, when the trial went well
// (stored), folds them and stores the side's summed CPU and allocation
// stacks as id (ProfileFile) with meta beside them (ProfileMetaFile); it
// always removes the recordings. Folding runs the JDK's jfr tool for a few
// seconds a recording, between trials, never inside a measurement window.
func (p *windowProfile) keep(ctx context.Context, r *Runner, w, id string, meta *ProfileMeta, stored bool) {
	if p == nil {
		return
	}
	<-p.done
	defer os.RemoveAll(p.dir)
	if !stored || len(p.jfrs) == 0 || meta == nil || meta.Ops <= 0 {
		return
	}
	var cpu, alloc, allocN []profile.Folded
	for _, jfr := range p.jfrs {
		prof, err := profile.Parse(ctx, p.jdk.Jfr, jfr)
		if err != nil {
			r.profileErrs(p.s, w, "read", []error{err})
			continue
		}
		cpu, alloc, allocN = append(cpu, prof.CPU), append(alloc, prof.Alloc), append(allocN, prof.AllocSamples)
	}
	if len(cpu) == 0 {
		return
	}
	dir := r.Store.Dir(p.s.key)
	if err := os.MkdirAll(filepath.Join(dir, ProfilesDir), 0o755); err != nil {
		r.profileErrs(p.s, w, "store", []error{err})
		return
	}
	// The window's two edge readings (regress's agent through /jmx) are
	// in the recording on both sides alike; they are regress's work, not
	// the release's, so their stacks go (counted in the meta).
	cpuKept, cpuOwn := profile.Merge(cpu...).Without(ownReadFrames...)
	allocKept, allocOwn := profile.Merge(alloc...).Without(ownReadFrames...)
	allocNKept, _ := profile.Merge(allocN...).Without(ownReadFrames...)
	if meta != nil {
		meta.OwnReadCPUSamples, meta.OwnReadAllocBytes = cpuOwn, allocOwn
	}
	for _, f := range []struct {
		kind  profile.Kind
		stack profile.Folded
	}{{profile.CPU, cpuKept}, {profile.Alloc, allocKept}, {profile.AllocSamples, allocNKept}} {
		path := ProfileFile(dir, id, f.kind)
		if err := atomicfile.Write(path, 0o644, func(wr io.Writer) error { _, err := f.stack.WriteTo(wr); return err }); err != nil {
			r.profileErrs(p.s, w, "store", []error{err})
			return
		}
	}
	meta.ID = id
	b, err := json.MarshalIndent(meta, "", "  ")
	if err == nil {
		err = atomicfile.Write(ProfileMetaFile(dir, id), 0o644, func(wr io.Writer) error { _, err := wr.Write(append(b, '\n')); return err })
	}
	if err != nil {
		r.profileErrs(p.s, w, "store", []error{err})
		return
	}
	r.logger().Info("profile stored", "target", p.s.t.Name, "workload", w, "profile", id, "recordings", len(cpu), "ops", meta.Ops)
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
