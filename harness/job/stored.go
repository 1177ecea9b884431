package job

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"reflect"
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
}

// Run compares and reports; the verdict comes back as an error when it fails the job.
func (j *CompareStored) Run(ctx context.Context, stdout io.Writer) error {
	outcomeOf(ctx).expect()
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
	sc, err := compareScenarios(j.Scenarios)
	if err != nil {
		return err // a folder the user named must not be stood in for
	}
	// --suite FILE, as plan takes it: the file's name picks the stored
	// results and its tolerances and gate judge them.
	stored, given := j.Suite, (*suite.Suite)(nil)
	if suite.IsPath(j.Suite) {
		if given, err = loadSuiteFile(j.Suite, sc); err != nil {
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
	jd := judge{given: given, givenAs: j.Suite, sc: sc, named: j.Suite != "" || j.Scenarios != ""}
	s, warnings, err := jd.suiteFor(bm, cm)
	warnings = append(warnings, sameMeasurementNotes(bm, cm)...)
	if err != nil {
		return err
	}
	// Tolerances, gates and the planned looks come from the suite: an
	// adaptive run was judged at alpha/looks, and judging its trials again
	// at full alpha could disagree with it. compare counts the looks of
	// every run it pools. Without a suite, the defaults; the report says so.
	cfg := compare.Config{}
	if s != nil {
		cfg = CompareConfig(s)
	}
	// Reading a large store takes a while: a signal during it must not be
	// answered with reports and a verdict (exit 0) as if nothing happened.
	if ctx.Err() != nil {
		return fault.Run(fmt.Errorf("compare interrupted: %w (no report was written)", context.Cause(ctx)))
	}
	return Decide(ctx, stdout, st, bm, cm, cfg, j.Report, warnings...)
}

// compareScenarios is ScenariosOf for compare: a folder the user named
// must hold suites/, since compare takes the gates from it.
func compareScenarios(dir string) (suite.Scenarios, error) {
	sc, err := ScenariosOf(dir)
	if err != nil || dir == "" {
		return sc, err
	}
	if fi, err := os.Stat(filepath.Join(dir, "suites")); err != nil || !fi.IsDir() {
		return sc, fault.Usagef("scenarios %s holds no suites/ directory: give --scenarios (or %s) the folder holding suites/, or leave both out for %s", dir, ScenariosEnv, BuiltinScenarios)
	}
	return sc, nil
}

// judge picks the suite a stored comparison is judged by: the one stored
// with the run, so a run is judged the same wherever it is read again.
type judge struct {
	// given is a suite file the user named (--suite FILE), givenAs as typed.
	given   *suite.Suite
	givenAs string
	// sc are the scenarios a suite is named from when the run stored none.
	sc suite.Scenarios
	// named says the user named a suite or a scenarios folder: when it
	// differs from the stored suite, the report says which one judged.
	named bool
}

// suiteFor returns the suite that judges bm against cm (nil: the default
// tolerances) and the warnings the report carries about it: the suite
// file given on the command line when one was (--suite FILE), else the
// suite stored with the candidate's results (the baseline's when only it
// has one), else, for results stored before the suite travelled with
// them, the suite of their name in the scenarios.
func (jd judge) suiteFor(bm, cm *results.Manifest) (*suite.Suite, []string, error) {
	stored, warnings := storedSuite(bm, cm)
	if jd.given != nil {
		if stored != nil && !sameJudging(jd.given, stored) {
			warnings = append(warnings, fmt.Sprintf("judged with --suite %s, not with suite %s as stored with the results, which judges otherwise (leave --suite out to judge with the stored one)", jd.givenAs, stored.Name))
		}
		return jd.given, warnings, nil
	}
	if stored != nil {
		if jd.named && jd.sc.Has(stored.Name) {
			if now, err := suite.Named(jd.sc, stored.Name); err == nil && !sameJudging(now, stored) {
				warnings = append(warnings, fmt.Sprintf("judged with suite %s as stored with the results; suite %s of %s judges otherwise (give --suite %s to judge with it)",
					stored.Name, stored.Name, jd.sc, suiteFileHint(jd.sc, stored.Name)))
			}
		}
		return stored, warnings, nil
	}
	// Results stored before the suite travelled with them: the suite of
	// their name, from the scenarios.
	name := bm.Suite.Name
	if !jd.sc.Has(name) {
		// The substitution is written into the report (its warnings, the
		// JSON's too), not only into a log line CI does not keep.
		w := fmt.Sprintf("suite %s not found in %s nor stored with the results: compared with the default tolerances and gate at one look per run; give --scenarios the folder holding suites/%s.yaml for the suite's own", name, jd.sc, name)
		slog.Warn("suite not found: comparing with default tolerances and gate at one look per run", "suite", name, "scenarios", jd.sc.String())
		return nil, append(warnings, w), nil
	}
	s, err := LoadSuite(jd.sc.Dir, name)
	if err != nil {
		// A suite file that is there but invalid is refused, as plan
		// refuses it: defaults would move the gate without a word.
		return nil, nil, fault.Usagef("%w (fix the suite file, or compare from a --scenarios folder without it to use the default tolerances)", err)
	}
	if fp, err := s.Fingerprint(); err != nil || fp != bm.Suite.Fingerprint {
		warnings = append(warnings, fmt.Sprintf("the results carry no suite (stored before it travelled with them), and suite %s of %s is not the one they ran (fingerprint %s, theirs %s): judged with its tolerances",
			name, jd.sc, shortFingerprint(fp), shortFingerprint(bm.Suite.Fingerprint)))
	} else {
		slog.Info("the results carry no suite (stored before it travelled with them): judged with the suite of their name and fingerprint", "suite", name, "scenarios", jd.sc.String())
	}
	return s, warnings, nil
}

// storedSuite loads the suite stored with the candidate's results (the
// baseline's when only they carry one): nil when neither does, or when it
// does not load (a warning says so).
func storedSuite(bm, cm *results.Manifest) (*suite.Suite, []string) {
	from, o := cm, bm
	if !cm.Suite.Carried() {
		from, o = bm, cm
	}
	info := from.Suite
	if !info.Carried() {
		return nil, nil
	}
	s, err := suite.FromStored(info.Name, info.Text, info.Files, info.Overrides)
	if err != nil {
		return nil, []string{fmt.Sprintf("the suite stored with the results of %s does not load (%v): judged as if none were stored", targetName(from), err)}
	}
	if fp, err := s.Fingerprint(); err == nil && fp != info.Fingerprint {
		slog.Warn("the suite stored with the results does not hash to their fingerprint", "suite", info.Name, "stored", info.Fingerprint, "loaded", fp)
	}
	var warnings []string
	if o.Suite.Carried() && o.Suite.Text != info.Text {
		if theirs, err := suite.FromStored(o.Suite.Name, o.Suite.Text, o.Suite.Files, o.Suite.Overrides); err != nil || !sameJudging(theirs, s) {
			warnings = append(warnings, fmt.Sprintf("the results of %s and %s were stored with two versions of suite %s that judge otherwise: judged with %s's", targetName(bm), targetName(cm), info.Name, targetName(from)))
		}
	}
	return s, warnings
}

// sameJudging says whether two suites judge alike: the same comparison.
func sameJudging(a, b *suite.Suite) bool {
	return reflect.DeepEqual(CompareConfig(a), CompareConfig(b))
}

// suiteFileHint is how --suite names sc's suite as a file: its path in a
// folder, else where it lies in the repository.
func suiteFileHint(sc suite.Scenarios, name string) string {
	if sc.Dir != "" {
		return filepath.Join(sc.Dir, "suites", name+".yaml")
	}
	return filepath.Join("scenarios", "suites", name+".yaml")
}

// targetName names a stored side as `results list` does.
func targetName(m *results.Manifest) string { return results.KeyOf(m).Target }

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
