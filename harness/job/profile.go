package job

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/profile"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
)

// profileOn is whether a run records profiles: --profile when given, else the suite's run.profile.
func (o *Options) profileOn(suiteProfile bool) bool {
	if o.Profile != nil {
		return *o.Profile
	}
	return suiteProfile
}

// sideStacks is one side's stored stacks of one workload, pooled over its profiled trials.
type sideStacks struct {
	trials     int
	ops        int64
	cpu, alloc []profile.Folded
	// allocN are the allocation samples behind alloc, a trial's nil where
	// they were not stored (profile.AllocSamples).
	allocN []profile.Folded
	// wait and waitN are the request threads' waits (microseconds) and
	// their events, a trial's nil where they were not stored (profiles
	// recorded before regress asked JFR for waits).
	wait, waitN []profile.Folded
	// servlet counts the trials profiled through the info servers' /prof
	// (results.ProfilerServlet): CPU stacks only, async-profiler's.
	servlet int
	// missed counts the profiled trials that served fewer operations a
	// second than results.HoldThreshold of the side's counted trials of the
	// workload (their median): their stacks per operation are the stall's.
	missed int
}

// profilers says what sampled a workload's two sides: "" when JFR did on
// both (the reports' default words), else each side's profiler.
func profilers(b, c *sideStacks) string {
	name := func(s *sideStacks) string {
		switch {
		case s.servlet == 0:
			return "JFR"
		case s.servlet == s.trials:
			return "async-profiler through /prof"
		}
		return "JFR and async-profiler through /prof"
	}
	bn, cn := name(b), name(c)
	switch {
	case bn == "JFR" && cn == "JFR":
		return ""
	case bn == cn:
		return bn + " on every region server"
	}
	return bn + " on the baseline, " + cn + " on the candidate"
}

// allocSamples is the side's allocation samples pooled, or nil unless every
// trial stored them: bytes of a trial without counts would be tested on
// another trial's samples.
func (s *sideStacks) allocSamples() profile.Folded {
	if slices.ContainsFunc(s.allocN, func(f profile.Folded) bool { return f == nil }) {
		return nil
	}
	return profile.Merge(s.allocN...)
}

// waitCounts is the side's wait events pooled, or nil unless every trial
// stored its waits (profiles recorded before waits were asked for).
func (s *sideStacks) waitCounts() profile.Folded {
	if len(s.waitN) == 0 || slices.ContainsFunc(s.waitN, func(f profile.Folded) bool { return f == nil }) {
		return nil
	}
	return profile.Merge(s.waitN...)
}

// storedStacks reads the folded stacks of m's runs, per workload: those of
// each run's profiled pair (results.ProfileMeta beside them says what they
// stand for; only runs m's trials belong to), and those stored beside a
// trial by runs before the profiled pair was kept out of the count. A
// trial without them is skipped; one that cannot be read is a note.
func storedStacks(m *results.Manifest) (map[string]*sideStacks, []string) {
	out := map[string]*sideStacks{}
	var notes []string
	if m == nil || m.Dir == "" {
		return out, nil
	}
	// Each workload's counted trials' operations a second (their median):
	// what a profiled trial is held to.
	rates := map[string][]float64{}
	for _, t := range m.Trials {
		if t.DurationMillis > 0 {
			rates[t.Workload] = append(rates[t.Workload], float64(trialOps(t))/float64(t.DurationMillis))
		}
	}
	add := func(id, workload string, ops int64, profiler string, held bool) {
		cpu, cerr := readFolded(m.Dir, id, profile.CPU)
		alloc, aerr := readFolded(m.Dir, id, profile.Alloc)
		if errors.Is(cerr, fs.ErrNotExist) && errors.Is(aerr, fs.ErrNotExist) {
			return
		}
		if err := errors.Join(ignoreMissing(cerr), ignoreMissing(aerr)); err != nil {
			notes = append(notes, fmt.Sprintf("profile of trial %s not used: %v", id, err))
			return
		}
		if ops <= 0 {
			return
		}
		// The samples behind alloc: stored since allocation frames carry a
		// P; without them (or unreadable) the side's frames have none.
		allocN, err := readFolded(m.Dir, id, profile.AllocSamples)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			notes = append(notes, fmt.Sprintf("allocation samples of trial %s not used: %v", id, err))
		}
		s := out[workload]
		if s == nil {
			s = &sideStacks{}
			out[workload] = s
		}
		s.trials++
		s.ops += ops
		if profiler == results.ProfilerServlet {
			s.servlet++
		}
		if !held {
			s.missed++
		}
		s.cpu, s.alloc, s.allocN = append(s.cpu, cpu), append(s.alloc, alloc), append(s.allocN, allocN)
		wait, werr := readFolded(m.Dir, id, profile.Wait)
		waitN, nerr := readFolded(m.Dir, id, profile.WaitCount)
		if err := errors.Join(ignoreMissing(werr), ignoreMissing(nerr)); err != nil {
			notes = append(notes, fmt.Sprintf("waits of trial %s not used: %v", id, err))
			wait, waitN = nil, nil
		}
		s.wait, s.waitN = append(s.wait, profile.WaitKindFirst(wait)), append(s.waitN, profile.WaitKindFirst(waitN))
	}
	runs := map[string]bool{}
	for _, t := range m.Trials {
		runs[t.RunID] = true
		add(t.ID, t.Workload, trialOps(t), "", true)
	}
	metas, err := results.ReadProfileMetas(m.Dir)
	if err != nil {
		notes = append(notes, fmt.Sprintf("some profiles not used: %v", err))
	}
	for _, pm := range metas {
		if runs[pm.RunID] {
			held := true
			if r := rates[pm.Workload]; len(r) > 0 && pm.DurationMillis > 0 {
				held = float64(pm.Ops)/float64(pm.DurationMillis) >= results.HoldThreshold*median(r)
			}
			add(pm.ID, pm.Workload, pm.Ops, pm.Profiler, held)
		}
	}
	return out, notes
}

// trialOps is every operation a trial counted, whatever its type.
func trialOps(t results.Trial) int64 {
	var ops int64
	for _, o := range t.Ops {
		ops += o.Count
	}
	return ops
}

// median is the middle of xs (the mean of the middle two), xs unchanged.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// readFolded reads the stacks of one kind stored for profile id in the
// store entry dir.
func readFolded(dir, id string, kind profile.Kind) (profile.Folded, error) {
	f, err := results.OpenProfile(dir, id, string(kind))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := profile.ReadFolded(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return st, nil
}

// Differentials builds each workload's differential profile from the
// folded stacks stored beside both sides' trials: each side's stacks summed
// over its profiled trials (and region servers), divided by the operations
// those trials served. It returns notes for what could not be used; a
// workload profiled on one side only is a note too.
func Differentials(bm, cm *results.Manifest) ([]report.WorkloadProfile, []string) {
	base, bnotes := storedStacks(bm)
	cand, cnotes := storedStacks(cm)
	notes := slices.Concat(bnotes, cnotes)
	var workloads []string
	for w := range base {
		workloads = append(workloads, w)
	}
	for w := range cand {
		if _, ok := base[w]; !ok {
			workloads = append(workloads, w)
		}
	}
	slices.Sort(workloads)
	var out []report.WorkloadProfile
	for _, w := range workloads {
		b, c := base[w], cand[w]
		if b == nil || c == nil {
			missing := "baseline"
			if c == nil {
				missing = "candidate"
			}
			notes = append(notes, fmt.Sprintf("%s: no differential profile: the %s has no stored profile of it (run both sides with --profile)", w, missing))
			continue
		}
		p := report.WorkloadProfile{Workload: w, BaseTrials: b.trials, CandTrials: c.trials, Source: profilers(b, c),
			BaseMissed: b.missed, CandMissed: c.missed}
		if viaServlet, viaJFR := b.servlet+c.servlet > 0, b.servlet < b.trials || c.servlet < c.trials; viaServlet && viaJFR {
			notes = append(notes, fmt.Sprintf("%s: the CPU differential compares %s: async-profiler samples native code and the JVM's own threads (GC, JIT) too, where JFR samples threads running Java code, so frames outside Java read as grown or shrunk; compare the Java frames", w, p.Source))
		}
		for _, k := range []struct {
			kind       profile.Kind
			base, cand []profile.Folded
			bn, cn     profile.Folded // the samples behind allocated bytes
			into       *report.KindProfile
		}{{profile.CPU, b.cpu, c.cpu, nil, nil, &p.CPU}, {profile.Alloc, b.alloc, c.alloc, b.allocSamples(), c.allocSamples(), &p.Alloc},
			{profile.Wait, b.wait, c.wait, b.waitCounts(), c.waitCounts(), &p.Wait}} {
			if k.kind != profile.CPU && (b.servlet > 0 || c.servlet > 0) {
				notes = append(notes, fmt.Sprintf("%s: no %s differential: profiles through the info servers' /prof hold CPU stacks only (the servlet runs one event at a time)", w, k.kind))
				continue
			}
			if k.kind == profile.Wait && (k.bn == nil || k.cn == nil) {
				// Stores from before waits were recorded have none on
				// either side: nothing to say. One side without is a note.
				if k.bn != nil || k.cn != nil {
					notes = append(notes, fmt.Sprintf("%s: no wait differential: one side's profiles were stored before regress recorded the request threads' waits", w))
				}
				continue
			}
			bs := profile.Side{Stacks: profile.Merge(k.base...), Ops: b.ops, Samples: k.bn}
			cs := profile.Side{Stacks: profile.Merge(k.cand...), Ops: c.ops, Samples: k.cn}
			if bs.Stacks.Total() == 0 && cs.Stacks.Total() == 0 {
				notes = append(notes, fmt.Sprintf("%s: no %s differential: neither side's recording holds a %s sample (JFR samples a region server's threads thinly; record a longer window)", w, k.kind, k.kind))
				continue
			}
			d, err := profile.Diff(k.kind, bs, cs, 0)
			if err != nil {
				notes = append(notes, fmt.Sprintf("%s: %v", w, err))
				continue
			}
			*k.into = report.KindProfile{Base: bs, Cand: cs, Diff: d}
		}
		out = append(out, p)
	}
	return out, notes
}

// voteOf fills the vote paragraph's builds, machine and JDK from the two
// manifests, and where the full report is.
func voteOf(bm, cm *results.Manifest, c *compare.Comparison, reportPath string) report.Vote {
	v := report.Vote{Report: reportPath, Regress: ReadVersion().String(), Command: reproduceCommand(os.Args)}
	if c != nil {
		var gated []compare.MetricResult
		for _, m := range c.Metrics {
			if m.Gated && m.Detectable > 0 {
				gated = append(gated, m)
			}
		}
		slices.SortStableFunc(gated, func(a, b compare.MetricResult) int { return cmp.Compare(a.Detectable, b.Detectable) })
		for _, m := range gated[:min(3, len(gated))] {
			v.Detectable = append(v.Detectable, report.Detectable{Metric: strings.Join(strings.Fields(m.Workload+" "+strings.TrimPrefix(m.Op, compare.OpAll)+" "+m.Metric), " "), Fraction: m.Detectable})
		}
	}
	for _, s := range []struct {
		m    *results.Manifest
		into *report.VoteSide
	}{{bm, &v.Baseline}, {cm, &v.Candidate}} {
		if s.m == nil {
			continue
		}
		s.into.Version = voteBuild(s.m, other(s.m, bm, cm))
		s.into.JarDigest = jarDigest(s.m.JarChecksums)
	}
	if cm != nil {
		e := cm.Environment
		var parts []string
		if e.Cores > 0 {
			parts = append(parts, fmt.Sprintf("%d cores", e.Cores))
		}
		if e.MemoryBytes > 0 {
			parts = append(parts, fmt.Sprintf("%.0f GiB", float64(e.MemoryBytes)/(1<<30)))
		}
		if e.CPUModel != "" {
			parts = append(parts, e.CPUModel)
		}
		if e.OS != "" {
			parts = append(parts, e.OS)
		}
		v.Machine = strings.Join(parts, ", ")
		if j := cmp.Or(cm.Environment.JDKParts, bmJDK(bm)); j != nil {
			v.JDK = j.Brief()
		}
		if bm == nil || bm.Environment.Hadoop == cm.Environment.Hadoop {
			v.Hadoop = cm.Environment.Hadoop
		}
	}
	return v
}

// bmJDK is the baseline's JDK, nil where none was recorded.
func bmJDK(bm *results.Manifest) *results.JDK {
	if bm == nil {
		return nil
	}
	return bm.Environment.JDKParts
}

// jarDigest is the digest of a side's HBase jars the store names RC
// targets by (cluster.JarsDigest), "" when none were recorded.
func jarDigest(sums map[string]string) string {
	if d := cluster.JarsDigest(sums); d != "" {
		return "sha256:" + d
	}
	return ""
}

// voteBuild names a side's build as a voter would write it: the release
// ("2.6.1", its build flavour left to the machine line), a label a person
// gave before it ("2.6.1RC1 (2.6.1)"; never one regress made up, such as
// "2.6.1-hadoop3+conf-794b6001"), then what it has that the other side o
// has not, in words: "2.6.1 + hfile.block.cache.size=0", "2.6.1 + JVM
// -XX:+UseZGC".
func voteBuild(m, o *results.Manifest) string {
	name := m.PersonName()
	// What both sides share (a coprocessor on both, one heap) says
	// nothing of the difference: only what this side has and the other
	// has not, or has otherwise, is named.
	var changed []string
	for _, k := range slices.Sorted(maps.Keys(m.Settings)) {
		if v, ok := o.Settings[k]; !ok || v != m.Settings[k] {
			changed = append(changed, k+"="+m.Settings[k])
		}
	}
	for _, j := range m.JVMOpts {
		if !slices.Contains(o.JVMOpts, j) {
			changed = append(changed, "JVM "+j)
		}
	}
	if m.RSHeap != "" && m.RSHeap != o.RSHeap {
		changed = append(changed, "region server heap "+m.RSHeap)
	}
	// Not like for like (issue 43): a JDK or a Hadoop client stack one
	// side ran and the other did not is named on the side's own line.
	if j, oj := m.Environment.JDKParts, o.Environment.JDKParts; j != nil && oj != nil && j.Brief() != oj.Brief() {
		changed = append(changed, "on JDK "+j.Brief())
	}
	if h, oh := m.Environment.Hadoop, o.Environment.Hadoop; h != "" && oh != "" && h != oh {
		changed = append(changed, "Hadoop "+h+" client jars")
	}
	if len(changed) > 0 {
		name += " + " + strings.Join(changed, ", ")
	}
	return name
}

// machineFlags are the flags a voter elsewhere leaves out of the command
// that ran: this machine's folders (the store, the reports, the jar cache)
// and how the output is shown; true for those that take a value.
var machineFlags = map[string]bool{"--store": true, "--out": true, "--cache-dir": true, "--format": true, "--log-format": true, "--wide": false, "--quiet": false}

// reproduceCommand is the command line that ran, as a voter elsewhere would
// paste it into a shell: "regress" and the arguments without machineFlags,
// each quoted when a shell would read it otherwise; "" when there is none
// (a test binary).
func reproduceCommand(args []string) string {
	if len(args) < 2 || strings.HasSuffix(args[0], ".test") {
		return ""
	}
	out := []string{"regress"}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		name, _, inline := strings.Cut(a, "=")
		if takesValue, ok := machineFlags[name]; ok {
			if takesValue && !inline {
				i++ // its value is the next argument
			}
			continue
		}
		if a == "" || strings.ContainsFunc(a, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '=' || r == ',' || r == '+' || r == '@' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}

// other is the manifest of the side that is not m (an empty one when absent).
func other(m, bm, cm *results.Manifest) *results.Manifest {
	o := bm
	if m == bm {
		o = cm
	}
	if o == nil {
		return &results.Manifest{}
	}
	return o
}
