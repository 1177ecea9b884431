package job

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// CompareStored is `regress compare`: two stored results (versions or labels in the
// store, or manifest directories) compared again.
type CompareStored struct {
	Report
	Baseline, Candidate     string
	Store, Suite, Scenarios string
	// ScenariosNamed says the user named Scenarios (--scenarios or
	// REGRESS_SCENARIOS): then it must exist. The default folder absent
	// (compare run away from the repository) compares with the default
	// gates, and the report says so.
	ScenariosNamed bool
}

// Run compares and reports; the verdict comes back as an error when it fails the job.
func (j *CompareStored) Run(ctx context.Context, stdout io.Writer) error {
	if j.Baseline == "" || j.Candidate == "" {
		return fault.Usage(errors.New("compare needs --baseline and --candidate: a stored version or label, or a directory holding a manifest.json"))
	}
	if err := j.Report.CheckIn(j.Store); err != nil {
		return err
	}
	st, err := results.OpenReadOnly(j.Store)
	if err != nil {
		return fault.Usage(err)
	}
	// --suite FILE, as plan takes it: the file's name picks the stored
	// results and its tolerances and gate judge them.
	stored, given := j.Suite, (*suite.Suite)(nil)
	if suite.IsPath(j.Suite) {
		if given, err = loadSuiteFile(j.Suite, j.Scenarios); err != nil {
			return err
		}
		stored = given.Name
	}
	bm, err := st.Resolve(j.Baseline, stored)
	if err != nil {
		return fault.Usage(err)
	}
	cm, err := st.Resolve(j.Candidate, stored)
	if err != nil {
		return fault.Usage(err)
	}
	if err := differentEntries(j.Baseline, j.Candidate, bm, cm); err != nil {
		return err
	}
	warnings := sameMeasurementNotes(bm, cm)
	if err := CheckScenariosDir(j.Scenarios, j.ScenariosNamed); err != nil {
		return err // defaults must not stand in for a suite the user pointed at
	}
	cfg := compare.Config{}
	// Tolerances, gates and the planned looks come from the suite file
	// when it is at hand: an adaptive run was judged at alpha/looks, and
	// judging its trials again at full alpha could disagree with it.
	// compare counts the looks of every run it pools.
	p := filepath.Join(j.Scenarios, "suites", bm.Suite.Name+".yaml")
	if given != nil {
		cfg = CompareConfig(given)
	} else if _, err := os.Stat(p); err == nil {
		// A suite file that is there but invalid is refused, as plan
		// refuses it: defaults would move the gate without a word.
		s, err := loadSuiteFile(p, j.Scenarios)
		if err != nil {
			return fault.Usagef("%w (fix the suite file, or compare from a --scenarios directory without it to use the default tolerances)", err)
		}
		cfg = CompareConfig(s)
	} else {
		// The substitution is written into the report (its warnings, the
		// JSON's too), not only into a log line CI does not keep.
		w := fmt.Sprintf("suite %s not found in %s: compared with the default tolerances and gate at one look per run; give --scenarios the directory holding suites/%s.yaml for the suite's own", bm.Suite.Name, filepath.Join(j.Scenarios, "suites"), bm.Suite.Name)
		slog.Warn("suite not found: comparing with default tolerances and gate at one look per run", "suite", bm.Suite.Name, "scenarios", j.Scenarios)
		warnings = append(warnings, w)
	}
	// Reading a large store takes a while: a signal during it must not be
	// answered with reports and a verdict (exit 0) as if nothing happened.
	if ctx.Err() != nil {
		return fault.Run(fmt.Errorf("compare interrupted: %w (no report was written)", context.Cause(ctx)))
	}
	return Decide(stdout, st, bm, cm, cfg, j.Report, warnings...)
}

// CheckScenariosDir refuses a scenarios directory compare cannot take its
// gates from: none given, something other than a directory, one the user
// named that is absent (a misspelt --scenarios or REGRESS_SCENARIOS), or one
// without suites/. Only a suite missing from a real scenarios directory, or
// the default directory absent, falls back to the default gates, and that is
// written into the report.
func CheckScenariosDir(dir string, named bool) error {
	if err := suite.CheckScenarios(dir); err != nil {
		return fault.Usage(err)
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) && !named {
		return nil
	} else if err != nil {
		return fault.Usagef("scenarios %s: %v: give --scenarios (or REGRESS_SCENARIOS) the directory holding suites/ (the repository's scenarios/), or run from the repository root", dir, errors.Unwrap(err))
	}
	if fi, err := os.Stat(filepath.Join(dir, "suites")); err != nil || !fi.IsDir() {
		return fault.Usagef("scenarios %s holds no suites/ directory: give --scenarios (or REGRESS_SCENARIOS) the directory holding suites/ (the repository's scenarios/)", dir)
	}
	return nil
}

// Plan is `regress plan`: from stored trials, the spread of every gated
// metric and the pairs a run needs to decide it.
type Plan struct {
	Baseline, Candidate     string
	Store, Suite, Scenarios string
}

// Run prints the plan.
func (j *Plan) Run(stdout io.Writer) error {
	if j.Baseline == "" {
		return fault.Usage(errors.New("plan needs --baseline: a stored version or label (see `regress results list`), or a directory holding manifest.json"))
	}
	st, err := results.OpenReadOnly(j.Store)
	if err != nil {
		return fault.Usage(err)
	}
	// --suite NAME@FINGERPRINT picks the results of one version of an edited suite.
	name, fp := results.SplitSuite(j.Suite)
	s, err := LoadSuite(j.Scenarios, name)
	if err != nil {
		return err
	}
	stored := s.Name
	if fp != "" {
		stored += "@" + fp
	}
	bm, err := st.Resolve(j.Baseline, stored)
	if err != nil && fp != "" && suite.IsPath(name) && errors.Is(err, results.ErrNotFound) {
		// The store's advice names the suite, which plan could not load
		// by name from elsewhere: say it with the file given.
		return fault.Usagef("--suite %s: %s holds no results of suite %s with a fingerprint starting %s in %s: give --suite %s, or %s@FINGERPRINT with one `regress results list` prints", j.Suite, j.Baseline, s.Name, fp, st.Root(), name, name)
	}
	if err != nil {
		return fault.Usage(err)
	}
	var cm *results.Manifest
	if j.Candidate != "" {
		if cm, err = st.Resolve(j.Candidate, stored); err != nil {
			return fault.Usage(err)
		}
		if err := differentEntries(j.Baseline, j.Candidate, bm, cm); err != nil {
			return err
		}
	}
	if len(bm.Trials) == 0 || (cm != nil && len(cm.Trials) == 0) {
		return fault.Usage(errors.New("plan needs measured trials; imported YCSB summaries have no trial-to-trial spread"))
	}
	plan, unplanned, err := compare.PlanPairs(bm, cm, CompareConfig(s))
	if err != nil {
		return fault.Usage(err)
	}
	noise, advice, err := compare.PlanNoise(bm, cm, CompareConfig(s), s.Run.Instances)
	if err != nil {
		return fault.Usage(err)
	}
	report.WritePlan(stdout, report.PlanSuite{Name: s.Name, Initial: s.Pairs.Initial, Max: s.Pairs.Max, Looks: s.Pairs.Looks, Alpha: s.Compare.Alpha,
		Instances: s.Run.Instances, Noise: noise, NoiseAdvice: advice}, plan, unplanned, cm != nil)
	return nil
}

// differentEntries refuses a baseline and a candidate that resolved to one
// stored entry (by name, by its directory, or one of each): an entry
// compared with itself shows no change whatever it holds.
func differentEntries(baseline, candidate string, bm, cm *results.Manifest) error {
	a, errA := os.Stat(bm.Dir)
	b, errB := os.Stat(cm.Dir)
	if errA != nil || errB != nil || !os.SameFile(a, b) {
		// Two directories, one content: a copied entry (cp -r, a backup)
		// holds the very trials of the other side, and would PASS.
		eb, errA := results.EncodeManifest(bm)
		ec, errB := results.EncodeManifest(cm)
		if errA == nil && errB == nil && bytes.Equal(eb, ec) {
			return fault.Usagef("--baseline %s and --candidate %s hold the same results (%s and %s are copies of one entry): compared with itself it can only show no change; give the candidate's results (see `regress results list`)", baseline, candidate, bm.Dir, cm.Dir)
		}
		// A copy relabelled and re-signed differs in its name only: the
		// same measured trial (run, id, order, slot, start) on both sides
		// is one entry on both sides, whatever the labels say.
		if tr, ok := sharedTrial(bm, cm); ok {
			return fault.Usagef("--baseline %s and --candidate %s are one entry on both sides: trial %s of run %s (started %s) is stored in both (%s and %s; one is a copy of the other, relabelled): compared with itself it can only show no change; give the candidate's own results (see `regress results list`)",
				baseline, candidate, tr.ID, tr.RunID, tr.Start.Format(time.RFC3339), bm.Dir, cm.Dir)
		}
		return nil
	}
	return fault.Usagef("--baseline %s and --candidate %s are one stored entry (%s): compared with itself it can only show no change; give the candidate's results (see `regress results list`)", baseline, candidate, bm.Dir)
}

// sharedTrial finds a trial stored on both sides: the same run, id, order,
// slot, start and workload. The two sides of a pair share the run and the
// id but never the order and start.
func sharedTrial(bm, cm *results.Manifest) (results.Trial, bool) {
	type key struct {
		run, id, workload string
		order, slot       int
		start             time.Time
	}
	keyOf := func(t results.Trial) key {
		return key{t.RunID, t.ID, t.Workload, t.Order, t.Slot, t.Start.UTC()}
	}
	seen := make(map[key]bool, len(bm.Trials))
	for _, t := range bm.Trials {
		seen[keyOf(t)] = true
	}
	i := slices.IndexFunc(cm.Trials, func(t results.Trial) bool { return seen[keyOf(t)] })
	if i < 0 {
		return results.Trial{}, false
	}
	return cm.Trials[i], true
}

// sameMeasurementNotes are the report's warnings when the two sides share
// what differentEntries cannot call one entry: a measured trial (run,
// workload, order, slot, start: its id aside, which a copy may rename;
// the two sides of a pair differ in order and start, or in slot in a
// duet), or an imported summary (its id is its output's content: one YCSB
// output imported under two names). Either compares a measurement with itself.
func sameMeasurementNotes(bm, cm *results.Manifest) []string {
	var out []string
	type key struct {
		run, workload string
		order, slot   int
		start         time.Time
	}
	keyOf := func(t results.Trial) key { return key{t.RunID, t.Workload, t.Order, t.Slot, t.Start.UTC()} }
	seen := map[key]string{}
	for _, t := range bm.Trials {
		seen[keyOf(t)] = t.ID
	}
	for _, t := range cm.Trials {
		if id, ok := seen[keyOf(t)]; ok && t.RunID != "" {
			out = append(out, fmt.Sprintf("the baseline's trial %s and the candidate's trial %s are one measurement (run %s, %s, started %s): one side is a copy of the other with its trials renamed, so this compares a run with itself", id, t.ID, t.RunID, t.Workload, t.Start.UTC().Format(time.RFC3339)))
			break
		}
	}
	for _, b := range bm.Summaries {
		if slices.ContainsFunc(cm.Summaries, func(c results.Trial) bool { return c.ID == b.ID }) {
			out = append(out, fmt.Sprintf("both sides hold imported summary %s, one YCSB output imported under two names: this compares an output with itself; import each version's own output", b.ID))
			break
		}
	}
	return out
}

// WarnIfUndecidable logs, before a run starts, the gated metrics the suite's
// max pairs cannot decide, judged from stored trials of the baseline for this
// suite; without stored trials it says nothing (there is no spread to judge from).
// A duet suite gets no such warning: its pairs' ratios cancel the drift one
// side's stored trials spread by (on 2.6.1 here, 10-40% between trials of
// many runs and hours, against about 1% between a duet pair's sides), so
// judged from them every row looked undecidable before runs that PASSed.
// Detect-only rows are left out: undecided, they never hold a PASS back.
func WarnIfUndecidable(log *slog.Logger, store *results.Store, version string, s *suite.Suite, cfg compare.Config) {
	if version == "" || s.Run.Mode == suite.ModeDuet {
		return
	}
	stored, err := findStored(store, version, s)
	if err != nil || len(stored.Trials) < 2*len(s.Workloads) {
		return
	}
	plan, _, err := compare.PlanPairs(stored, nil, cfg)
	if err != nil {
		return
	}
	var short []string
	for _, p := range plan {
		if p.DetectOnly {
			continue
		}
		if need := max(p.PairsToPass, p.PairsToDetect); need > s.Pairs.Max {
			short = append(short, fmt.Sprintf("%s/%s/%s (spread %.1f%%, needs %s)", p.Workload, p.Op, p.Metric, 100*p.Spread, report.PairsText(need)))
		}
	}
	if len(short) > 0 {
		log.Warn(fmt.Sprintf("from %d stored trials of %s, suite %s's %d pairs cannot decide %s; expect INCONCLUSIVE: raise pairs.max, lengthen run.measure or widen the tolerance (see `regress plan --baseline %s --suite %s`)",
			len(stored.Trials), version, s.Name, s.Pairs.Max, strings.Join(short, ", "), version, s.Name))
	}
}

// findReused loads the stored trials --reuse-baseline compares with: the
// ones the baseline's flags name (its label, or its version with its
// settings, JVM options, jars and topology, as the side would be stored),
// never another side's. A combination whose stored trials cannot be told
// (a running cluster or a home without a label, an RC's jars) or checked
// (a JDK, jars beside a label) is refused before anything starts, as is a
// label whose trials ran otherwise than the flags say.
func findReused(store *results.Store, base sut.Spec, topo sut.Topology, s *suite.Suite) (*results.Manifest, error) {
	switch {
	case base.JavaHome != "":
		return nil, fault.Usagef("--reuse-baseline takes the stored trials as they ran, on the JDK they were stored with (`regress results list` shows it): drop --baseline-java-home, or drop --reuse-baseline to run the baseline on that JDK")
	case base.Label != "" && len(base.Jars) > 0:
		return nil, fault.Usagef("--reuse-baseline with --baseline-label reuses the label's trials as they were stored, and the store does not record a side's --baseline-jar jars to check them against: drop --baseline-jar (the label names that build), or drop --baseline-label to reuse the trials stored under the version with these jars")
	}
	names, err := base.StoredNames(topo)
	if err != nil {
		return nil, fault.Usagef("--reuse-baseline: %w", err)
	}
	fp, err := s.Fingerprint()
	if err != nil {
		return nil, fault.Usage(err)
	}
	m, err := store.FindTrialsUnder(names, s.Name, fp)
	if errors.Is(err, results.ErrNotFound) {
		return nil, fault.Usagef("%w: run the baseline with the same flags first (`regress run --version %s --suite %s`, with its --conf, --jvm-opt, --jar, --label), or drop --reuse-baseline", err, cmp.Or(base.Version, base.Label), s.Name)
	}
	if err != nil {
		return nil, fault.Usage(err)
	}
	if base.Label == "" {
		return m, nil
	}
	// A label is a name, not a promise: what it holds must be what the
	// flags ask for, or the comparison is of another baseline.
	name := results.KeyOf(m).Target
	settings := map[string]string{}
	for _, kv := range base.Conf {
		k, v, _ := strings.Cut(kv, "=")
		settings[strings.TrimSpace(k)] = v
	}
	switch {
	case base.Version != "" && release(m.Version) != release(base.Version):
		return nil, fault.Usagef("--reuse-baseline: label %s holds trials of HBase %s, not --baseline %s: give the label's version, or another label", name, m.Version, base.Version)
	case len(base.Conf) > 0 && !maps.Equal(settings, nonNil(m.Settings)):
		return nil, fault.Usagef("--reuse-baseline: label %s's trials ran with settings %s, not the --baseline-conf given (%s): drop --baseline-conf to reuse them as they ran, or give the label of trials run with those settings", name, settingsText(m.Settings), settingsText(settings))
	case len(base.JVMOpts) > 0 && !slices.Equal(base.JVMOpts, m.JVMOpts):
		return nil, fault.Usagef("--reuse-baseline: label %s's trials ran with JVM options %q, not the --baseline-jvm-opt given (%q): drop --baseline-jvm-opt to reuse them as they ran, or give the label of trials run with those options", name, m.JVMOpts, base.JVMOpts)
	case base.Repo != "" && m.Repository != base.Repo:
		return nil, fault.Usagef("--reuse-baseline: label %s's trials ran HBase jars from %s, not --baseline-repo %s: drop --baseline-repo to reuse them as they ran, or give the label of the repository's trials", name, cmp.Or(m.Repository, "Maven Central"), base.Repo)
	}
	return m, nil
}

// release is the release a version names, its -hadoop3 or -hadoop2 build
// variant dropped.
func release(v string) string {
	return strings.TrimSuffix(strings.TrimSuffix(v, "-hadoop3"), "-hadoop2")
}

func nonNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// settingsText renders settings as sorted key=value pairs, for messages.
func settingsText(m map[string]string) string {
	if len(m) == 0 {
		return "none"
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, k+"="+m[k])
	}
	return strings.Join(out, ", ")
}

// findStored loads the stored trials of version for this suite (all runs).
func findStored(store *results.Store, version string, s *suite.Suite) (*results.Manifest, error) {
	fp, err := s.Fingerprint()
	if err != nil {
		return nil, fault.Usage(err)
	}
	m, err := store.FindTrials(version, s.Name, fp)
	if errors.Is(err, results.ErrNotFound) {
		return nil, fault.Usagef("%w: run `regress run --version %s --suite %s` first, or drop --reuse-baseline", err, version, s.Name)
	}
	if err != nil {
		return nil, fault.Usage(err)
	}
	return m, nil
}
