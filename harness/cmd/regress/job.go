package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
	"github.com/regress-hbase/regress/harness/suite"
)

// jobFlags are the root command's flags: the whole comparison job.
type jobFlags struct {
	baseline, candidate     string
	baselineZK, candidateZK string
	baseConf, candConf      []string
	baseJVM, candJVM        []string
	baseSrc, candSrc        sideSource
	reuseBaseline           bool
	failOnInconclusive      bool
	common                  commonFlags
	out, format             string
}

// commonFlags are shared by the root job and `regress run`.
type commonFlags struct {
	suiteName, scenarios, store, provider, cacheDir, znode string
	reseed, quiet, keep                                    bool
	regionServers                                          int
	rsHeap                                                 string
}

func (c *commonFlags) add(cmd *cobra.Command, persistent bool) {
	f := cmd.Flags()
	if persistent {
		f = cmd.PersistentFlags()
	}
	f.StringVar(&c.suiteName, "suite", "smoke", "suite name (scenarios/suites/NAME.yaml) or path to a suite file")
	f.StringVar(&c.scenarios, "scenarios", envOr("REGRESS_SCENARIOS", "scenarios"), "directory holding the workload files and suites/ (env REGRESS_SCENARIOS)")
	f.StringVar(&c.store, "store", results.DefaultRoot, "results store directory")
	f.StringVar(&c.provider, "provider", "local", "cluster provider for --baseline/--candidate/--version: local (HBase jars from Maven Central)")
	f.StringVar(&c.cacheDir, "cache-dir", "", "per-version HBase jar cache (default: the user cache dir; env REGRESS_CACHE_DIR)")
	f.StringVar(&c.znode, "znode", "/hbase", "ZooKeeper znode parent of external clusters")
	f.BoolVar(&c.reseed, "reseed", false, "build new seed snapshots even when a matching one exists")
	f.BoolVar(&c.quiet, "quiet", false, "no progress output")
	f.BoolVar(&c.keep, "keep", false, "keep the started clusters' work dirs (data, config, logs) after the run")
	f.IntVar(&c.regionServers, "region-servers", 0, "region servers of every cluster regress starts (both sides): 1 is standalone HBase, 2+ a ZooKeeper, master and N region server JVMs (default: the suite's cluster.region_servers, else 1)")
	f.StringVar(&c.rsHeap, "rs-heap", "", "heap (-Xmx) of each region server regress starts, e.g. 2g (default: the suite's cluster.rs_heap, else 1g)")
}

func init() {
	rootSetup = func(root *cobra.Command) {
		var jf jobFlags
		root.Use = "regress --baseline V1 --candidate V2 [flags]"
		root.Example = `  regress --baseline 2.6.1 --candidate 2.6.2 --suite smoke
  regress --baseline 2.6.1 --candidate 2.6.1 --candidate-conf hbase.regionserver.handler.count=10
  regress --baseline 2.6.0 --candidate-home ./hbase-2.6.1-bin.tar.gz --candidate-label 2.6.1RC1
  regress --baseline 2.6.0 --candidate 2.6.1 --candidate-repo https://repository.apache.org/content/repositories/orgapachehbase-1234/ --candidate-label 2.6.1RC0
  regress --baseline-zk zk1:2181 --candidate-zk zk2:2181 --suite quick --format markdown`
		root.Args = cobra.NoArgs
		f := root.Flags()
		jf.addSides(f)
		f.BoolVar(&jf.reuseBaseline, "reuse-baseline", false, "compare with stored baseline trials of the same suite instead of running the baseline (unpaired)")
		f.BoolVar(&jf.failOnInconclusive, "fail-on-inconclusive", false, "exit 4 when the verdict is INCONCLUSIVE")
		f.StringVar(&jf.out, "out", "", "report directory (default reports/<timestamp>)")
		f.StringVar(&jf.format, "format", "text", "report on stdout: "+strings.Join(report.Formats(), "|"))
		jf.common.add(root, false)
		root.RunE = func(cmd *cobra.Command, _ []string) error {
			if jf.baseline == "" && jf.baselineZK == "" && jf.candidate == "" && jf.candidateZK == "" && jf.baseSrc.home == "" && jf.candSrc.home == "" {
				return cmd.Help()
			}
			return runJob(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), &jf)
		}
	}
}

// sideSource says where a side's HBase comes from besides a version on
// Maven Central: a Maven repository, a home, a JDK, and the name to store it under.
type sideSource struct {
	repo, home, javaHome, label string
}

// addSides adds the baseline's and candidate's flags (version, cluster,
// settings, jars, JDK, label), shared by the main job and regress capacity.
func (jf *jobFlags) addSides(f *pflag.FlagSet) {
	f.StringVar(&jf.baseline, "baseline", "", "baseline HBase version (started by the provider)")
	f.StringVar(&jf.candidate, "candidate", "", "candidate HBase version (started by the provider)")
	f.StringVar(&jf.baselineZK, "baseline-zk", "", "use the running cluster at this ZooKeeper address as the baseline")
	f.StringVar(&jf.candidateZK, "candidate-zk", "", "use the running cluster at this ZooKeeper address as the candidate")
	f.StringArrayVar(&jf.baseConf, "baseline-conf", nil, "hbase-site.xml override key=value for the baseline (repeatable)")
	f.StringArrayVar(&jf.candConf, "candidate-conf", nil, "hbase-site.xml override key=value for the candidate (repeatable)")
	f.StringArrayVar(&jf.baseJVM, "baseline-jvm-opt", nil, "extra JVM option for the baseline (repeatable)")
	f.StringArrayVar(&jf.candJVM, "candidate-jvm-opt", nil, "extra JVM option for the candidate (repeatable)")
	jf.baseSrc.add(f, "baseline")
	jf.candSrc.add(f, "candidate")
}

func (s *sideSource) add(f *pflag.FlagSet, role string) {
	f.StringVar(&s.repo, role+"-repo", "", "resolve the "+role+"'s HBase jars from this Maven repository first (an RC's staging repository, or file:///...)")
	f.StringVar(&s.home, role+"-home", "", "start the "+role+" from this HBase home: an unpacked binary release or its .tar.gz (version read from its jars)")
	f.StringVar(&s.javaHome, role+"-java-home", "", "JDK to run the "+role+"'s HBase on (default: one that runs its version, from JAVA_HOME, REGRESS_JDK<N>_HOME, /usr/lib/jvm)")
	f.StringVar(&s.label, role+"-label", "", "store the "+role+"'s results under this name, e.g. 2.6.1RC1 (RCs carry the final version string)")
}

func runJob(ctx context.Context, stdout, stderr io.Writer, jf *jobFlags) error {
	if err := checkFormat(jf.format); err != nil {
		return err
	}
	base, err := newSide("baseline", jf.baseline, jf.baselineZK, jf.baseSrc, jf.baseConf, jf.baseJVM)
	if err != nil {
		return err
	}
	cand, err := newSide("candidate", jf.candidate, jf.candidateZK, jf.candSrc, jf.candConf, jf.candJVM)
	if err != nil {
		return err
	}
	s, err := loadSuite(&jf.common)
	if err != nil {
		return err
	}
	store, err := results.Open(jf.common.store)
	if err != nil {
		return usageErr(err)
	}
	cfg := compareConfig(s)
	log := newLogger(stderr, jf.common.quiet)
	prog := newProgress(stderr, jf.common.quiet)
	defer prog.Close()

	var stored *results.Manifest
	if jf.reuseBaseline {
		if base.ZK != "" || base.Home != "" {
			return usageErr(errors.New("--reuse-baseline compares with stored trials of --baseline VERSION; it cannot be used with --baseline-zk or --baseline-home (use a label with `regress run --zk ... --label NAME` and `regress compare`)"))
		}
		stored, err = findStored(store, base.Version, s)
		if err != nil {
			return err
		}
		// The candidate runs a fixed pairs.initial trials and is judged once:
		// one look, whatever the suite plans for an adaptive paired run.
		cfg.Unpaired, cfg.Looks, cfg.MaxPairs = true, 1, 0
	}

	if stored == nil {
		warnIfUndecidable(log, store, base.Version, s, cfg)
	}
	r := &runner.Runner{Suite: s, Store: store, RunID: newRunID(), Reseed: jf.common.reseed, Log: log,
		OnEvent: prog.Event, Env: results.CurrentEnvironment(ctx)}

	sides := []runner.Side{base, cand}
	if stored != nil {
		sides = []runner.Side{cand}
	}
	ctx, died := context.WithCancelCause(ctx)
	defer died(nil)
	targets, stop, err := startTargets(ctx, log, prog, &jf.common, sides, died)
	defer stop()
	if err != nil {
		return err
	}

	var bm, cm *results.Manifest
	if stored != nil {
		if t := targets[0]; t.Name == results.KeyOf(stored).Target {
			// The same version re-measured must not land among the stored baseline trials.
			t.Name += "+candidate"
			t.Label = t.Name
		}
		cm, err = r.RunSingle(ctx, targets[0])
		bm = stored
	} else {
		runner.DistinctNames(targets[0], targets[1])
		more := func(look int, b, c *results.Manifest) (map[string]int, error) {
			plan, err := compare.NeedMorePairs(b, c, cfg, look)
			if err != nil {
				return nil, err
			}
			if plan.More {
				log.Info("gated metrics inconclusive: adding pairs", "look", look, "metrics", plan.Inconclusive, "extra", plan.Extra)
			}
			return plan.Extra, nil
		}
		bm, cm, err = r.RunPairs(ctx, targets[0], targets[1], more)
	}
	if err != nil {
		return runFailure(ctx, err)
	}
	prog.Close()
	return decide(stdout, stderr, store, bm, cm, cfg, jf.out, jf.format, jf.failOnInconclusive)
}

// decide compares, writes every report, prints the chosen one, and maps the verdict to the exit code.
func decide(stdout, stderr io.Writer, store *results.Store, bm, cm *results.Manifest, cfg compare.Config, out, format string, failOnInconclusive bool) error {
	c, err := compare.Compare(bm, cm, cfg)
	if err != nil {
		return usageErr(err)
	}
	rep := report.Report{Comparison: c, Distributions: report.Distributions(store.WorkloadHistograms(bm), store.WorkloadHistograms(cm), loadgen.Intended.String()), Generated: time.Now()}
	if out == "" {
		out = report.Timestamped("reports", time.Now())
	}
	written, err := report.WriteAll(out, rep)
	if err != nil {
		return runErr(err)
	}
	if err := report.AppendStepSummary(rep); err != nil {
		fmt.Fprintln(stderr, "regress: warning:", err)
	}
	if err := report.Render(stdout, format, rep); err != nil {
		return usageErr(err)
	}
	fmt.Fprintf(stderr, "reports: %s (%d files)\n", out, len(written))
	switch c.Verdict {
	case compare.VerdictInvalid:
		return runErr(fmt.Errorf("verdict INVALID: %s", c.Invalid))
	case compare.Regression:
		return &exitError{code: exitRegression, err: fmt.Errorf("verdict REGRESSION: %s is slower than %s beyond tolerance", c.Candidate.Name, c.Baseline.Name)}
	case compare.VerdictInconclusive:
		if failOnInconclusive {
			return &exitError{code: exitInconclusive, err: errors.New("verdict INCONCLUSIVE (--fail-on-inconclusive): run more pairs (raise pairs.max in the suite) or accept wider tolerances")}
		}
	}
	return nil
}

// newSide checks one side's flags: exactly one of a version, a home or a
// running cluster; a repository only with a version; a JDK and conf only for
// clusters regress starts.
func newSide(role, version, zk string, src sideSource, conf, jvm []string) (runner.Side, error) {
	s := runner.Side{Role: role, Version: version, ZK: zk, JVMOpts: jvm, Repo: src.repo, Home: src.home, JavaHome: src.javaHome, Label: src.label}
	fl := func(suffix string) string { return sideFlag(role, suffix) }
	switch {
	case src.repo != "" && version == "" && src.home == "":
		return s, usageErr(fmt.Errorf("%s needs %s VERSION: the version the repository serves, e.g. 2.6.1", fl("-repo"), fl("")))
	case version == "" && zk == "" && src.home == "":
		return s, usageErr(fmt.Errorf("give %s VERSION (started locally), %s DIR (an unpacked release or its tarball) or %s HOST:PORT (a running cluster)", fl(""), fl("-home"), fl("-zk")))
	case zk != "" && (version != "" || src.home != ""):
		return s, usageErr(fmt.Errorf("%s, %s and %s exclude each other: choose one", fl("-zk"), fl(""), fl("-home")))
	case src.home != "" && src.repo != "":
		return s, usageErr(fmt.Errorf("%s and %s exclude each other: a home brings its own jars", fl("-home"), fl("-repo")))
	case zk != "" && src.javaHome != "":
		return s, usageErr(fmt.Errorf("%s applies only to clusters regress starts, not to %s", fl("-java-home"), fl("-zk")))
	}
	if version != "" {
		if err := cluster.ValidateVersion(version); err != nil {
			return s, usageErr(err)
		}
	}
	if src.repo != "" {
		if err := cluster.CheckRepo(src.repo); err != nil {
			return s, usageErr(fmt.Errorf("%s: %w", fl("-repo"), err))
		}
	}
	if src.label != "" {
		if err := results.ValidateTarget(src.label); err != nil {
			return s, usageErr(fmt.Errorf("%s: %w", fl("-label"), err))
		}
	}
	if zk != "" && (len(conf) > 0 || len(jvm) > 0) {
		return s, usageErr(fmt.Errorf("--%s-conf and --%s-jvm-opt apply only to clusters regress starts, not to --%s-zk", role, role, role))
	}
	var err error
	if s.Conf, err = parseConf(role, conf); err != nil {
		return s, err
	}
	return s, nil
}

// startTargets starts (or connects to) every side through runner.StartTargets
// and says whether a failure was the user's input (exit 2) or the run's (3).
func startTargets(ctx context.Context, log *slog.Logger, prog *progress, c *commonFlags, sides []runner.Side, died context.CancelCauseFunc) ([]*runner.Target, func(), error) {
	opt := runner.StartOptions{CacheDir: c.cacheDir, Keep: c.keep, ZNode: c.znode, Log: log, Message: prog.Message, Died: died,
		RegionServers: c.regionServers, RSHeap: c.rsHeap}
	for _, s := range sides {
		if s.ZK == "" && s.Home == "" {
			p, err := newProvider(c)
			if err != nil {
				return nil, func() {}, err
			}
			opt.Provider = p
			break
		}
	}
	targets, stop, err := runner.StartTargets(ctx, opt, sides)
	switch {
	case err == nil:
		return targets, stop, nil
	case ctx.Err() == nil && (errors.Is(err, cluster.ErrBadVersion) || errors.Is(err, cluster.ErrVersionNotFound) || errors.Is(err, cluster.ErrJDKIncompatible) || errors.Is(err, cluster.ErrBadHome)):
		return nil, stop, usageErr(err)
	}
	return nil, stop, runErr(err)
}

// sideFlag names a side's flag: --candidate-home, or for `regress run` (one
// side, role "run") --home; suffix "" is the version flag.
func sideFlag(role, suffix string) string {
	if role != "run" {
		return "--" + role + suffix
	}
	if suffix == "" {
		return "--version"
	}
	return "--" + suffix[1:]
}

func parseConf(role string, kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usageErr(fmt.Errorf("--%s-conf %q: write key=value, e.g. hbase.regionserver.handler.count=30", role, kv))
		}
		m[strings.TrimSpace(k)] = v
	}
	return m, nil
}

func loadSuite(c *commonFlags) (*suite.Suite, error) {
	p, err := suite.Resolve(c.scenarios, c.suiteName)
	if err != nil {
		return nil, usageErr(err)
	}
	s, err := suite.Load(p, c.scenarios)
	if err != nil {
		return nil, usageErr(err)
	}
	c.regionServers, c.rsHeap = cmp.Or(c.regionServers, s.Cluster.RegionServers), cmp.Or(c.rsHeap, s.Cluster.RSHeap)
	if err := cluster.ValidateTopology(c.regionServers, c.rsHeap); err != nil {
		return nil, usageErr(fmt.Errorf("--region-servers/--rs-heap: %w", err))
	}
	return s, nil
}

func compareConfig(s *suite.Suite) compare.Config {
	return compare.Config{Alpha: s.Compare.Alpha, Tolerances: s.Compare.Tolerances, Gate: s.Compare.Gate,
		Looks: s.Pairs.Looks, MaxPairs: s.Pairs.Max}
}

func checkFormat(f string) error {
	for _, ok := range report.Formats() {
		if f == ok {
			return nil
		}
	}
	return usageErr(fmt.Errorf("--format %q: choose one of %s", f, strings.Join(report.Formats(), ", ")))
}

// findStored loads the stored trials of version for this suite (all runs).
func findStored(store *results.Store, version string, s *suite.Suite) (*results.Manifest, error) {
	fp, err := s.Fingerprint()
	if err != nil {
		return nil, usageErr(err)
	}
	m, err := store.FindTrials(version, s.Name, fp)
	if errors.Is(err, results.ErrNotFound) {
		return nil, usageErr(fmt.Errorf("%w: run `regress run --version %s --suite %s` first, or drop --reuse-baseline", err, version, s.Name))
	}
	if err != nil {
		return nil, usageErr(err)
	}
	return m, nil
}

func runFailure(ctx context.Context, err error) error {
	var died *cluster.DiedError
	if errors.As(context.Cause(ctx), &died) {
		return runErr(fmt.Errorf("%w\nThe run stopped because that cluster died (stored trials are kept; the trial in progress was not stored): %v", died, err))
	}
	if ctx.Err() != nil {
		return runErr(fmt.Errorf("interrupted: %w (clusters stopped, trial tables dropped)", err))
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return runErr(err)
}

func newRunID() string {
	return time.Now().UTC().Format("20060102T150405")
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func newLogger(stderr io.Writer, quiet bool) *slog.Logger {
	level := slog.LevelInfo
	if quiet {
		level = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
}

// newProvider returns the provider --provider names.
func newProvider(c *commonFlags) (cluster.Provider, error) {
	switch c.provider {
	case "local", "":
		return cluster.NewLocal(c.cacheDir), nil
	}
	return nil, usageErr(fmt.Errorf("--provider %q: this build has the local provider (HBase jars from Maven Central); for a cluster you run, use --baseline-zk/--candidate-zk or `regress run --zk`", c.provider))
}
