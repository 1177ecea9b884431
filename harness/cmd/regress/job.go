package main

import (
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// setupMainJob makes root the main job: its flags and RunE.
func setupMainJob(root *cobra.Command) {
	var j job.Main
	root.Use = "regress --baseline V1 --candidate V2 [flags]"
	root.Example = `  regress --baseline 2.6.1 --candidate 2.6.2 --suite smoke
  regress --baseline 2.6.1 --candidate 2.6.1 --candidate-conf hbase.regionserver.handler.count=10
  regress --baseline 2.6.0 --candidate-home ./hbase-2.6.1-bin.tar.gz --candidate-label 2.6.1RC1
  regress --baseline 2.6.0 --candidate 2.6.1 --candidate-repo https://repository.apache.org/content/repositories/orgapachehbase-1234/ --candidate-label 2.6.1RC0
  regress --baseline-zk zk1:2181 --candidate-zk zk2:2181 --suite quick --format markdown`
	root.Args = cobra.NoArgs
	f := root.Flags()
	addSides(f, &j.Baseline, &j.Candidate)
	f.BoolVar(&j.ReuseBaseline, "reuse-baseline", false, "compare with stored baseline trials of the same suite instead of running the baseline (unpaired)")
	addReport(f, &j.Report, "exit 4 when the verdict is INCONCLUSIVE")
	addCommon(f, &j.Options, job.DefaultSuite)
	countVar(f, &j.Instances, "instances", "start each side's cluster afresh this many times over the run, the pairs split between them, so the offset between two JVMs of one release lies inside the intervals (default: the suite's run.instances, else "+strconv.Itoa(suite.DefaultInstances)+"; each instance adds a start and a warm-up, about 3 minutes on 2 cores)")
	profile := f.Bool("profile", false, "record JFR on both sides' region servers over one extra, uncounted pair per workload run after the counted ones, and report the frames that grew (default: the suite's run.profile, on in smoke, quick and rc; --profile=false turns it off)")
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		if !j.Asked() {
			return cmd.Help()
		}
		if f.Changed("profile") {
			j.Profile = profile
		}
		return j.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
	}
}

// addCommon adds the flags the main job, `regress run`, `regress capacity`,
// history and bisect share; suite is the command's default suite.
func addCommon(f *pflag.FlagSet, o *job.Options, suite string) {
	f.StringVar(&o.Suite, "suite", suite, "suite name (scenarios/suites/NAME.yaml) or path to a suite file")
	addScenarios(f, &o.Scenarios, "directory holding the workload files and suites/ (env "+job.ScenariosEnv+")")
	addStore(f, &o.Store)
	f.StringVar(&o.Provider, "provider", sut.DefaultProvider, "cluster provider for --baseline/--candidate/--version: "+sut.DefaultProvider+" (HBase jars from Maven Central)")
	cacheDirVar(f, &o.CacheDir)
	f.StringVar(&o.ZNode, "znode", hbase.DefaultZNodeParent, "ZooKeeper znode parent of external clusters")
	f.BoolVar(&o.Reseed, "reseed", false, "build new seed snapshots even when a matching one exists")
	f.StringVar(&o.Trials, "trials", "", "how a pair's two trials run: duet (at the same time, same start and schedule) or interleaved (back to back, random order) (default: the suite's run.mode)")
	f.BoolVar(&o.Quiet, "quiet", false, "no progress output")
	f.BoolVar(&o.Keep, "keep", false, "keep the started clusters' work dirs (data, config, logs) after the run")
	addLoadHosts(f, &o.LoadHosts)
	countVar(f, &o.RegionServers, "region-servers", "region servers of every cluster regress starts (both sides): 1 is standalone HBase, 2+ a ZooKeeper, master and N region server JVMs (default: the suite's cluster.region_servers, else 1)")
	f.StringVar(&o.RSHeap, "rs-heap", "", "heap (-Xmx) of each region server regress starts, e.g. 2g (default: the suite's cluster.rs_heap, else "+cluster.DefaultRSHeap+")")
}

func addScenarios(f *pflag.FlagSet, p *string, usage string) {
	f.StringVar(p, "scenarios", job.DefaultScenarios(), usage)
}

func addStore(f *pflag.FlagSet, p *string) {
	*p = results.DefaultRoot
	f.Var(checked(p, job.ParseStore, "string"), "store", "results store directory")
}

// addReport adds --out, --format, --wide and --fail-on-inconclusive (whose help says what fails).
func addReport(f *pflag.FlagSet, r *job.Report, failHelp string) {
	f.BoolVar(&r.FailOnInconclusive, "fail-on-inconclusive", false, failHelp)
	f.Var(checked(&r.Out, job.ParseOut, "string"), "out", "report directory (default "+job.ReportsDir+"/<timestamp>)")
	r.Format = report.FormatText
	f.Var(checked(&r.Format, job.ParseFormat, "string"), "format", "report on stdout: "+report.FormatChoices()+", in any case")
	f.BoolVar(&r.Wide, "wide", false, "text report: every column (ratio, bounds, p, pairs, ops/trial) instead of the table that fits "+strconv.Itoa(report.TextWidth)+" columns")
}

// addSides adds the baseline's and candidate's flags (version, cluster,
// settings, jars, JDK, label), shared by the main job and regress capacity.
func addSides(f *pflag.FlagSet, base, cand *sut.Spec) {
	for _, s := range []struct {
		role string
		side *sut.Spec
	}{{"baseline", base}, {"candidate", cand}} {
		role, side := s.role, s.side
		f.StringVar(&side.Version, role, "", role+" HBase version (started by the provider)")
		quorumVar(f, &side.ZK, role+"-zk", "use the running cluster at this ZooKeeper address as the "+role)
		infoPortVar(f, &side.InfoPort, role+"-info-port", "with --"+role+"-zk: read each region server's info server (/jmx) at its host and this port instead of the one ZooKeeper gives")
		infoPortVar(f, &side.JMXPort, role+"-jmx-port", "with --"+role+"-zk: record --profile with JFR over JMX at each region server's host and this port (com.sun.management.jmxremote.port) instead of /prof")
		f.StringArrayVar(&side.Conf, role+"-conf", nil, "hbase-site.xml override key=value for the "+role+" (repeatable)")
		f.StringArrayVar(&side.JVMOpts, role+"-jvm-opt", nil, "extra JVM option for the "+role+" (repeatable)")
		f.StringArrayVar(&side.Jars, role+"-jar", nil, "extra jar on the "+role+"'s HBase class path, e.g. a coprocessor or a patched module (repeatable; with --"+role+"-conf hbase.coprocessor.region.classes=...)")
		f.StringVar(&side.Repo, role+"-repo", "", "resolve the "+role+"'s HBase jars from this Maven repository first (an RC's staging repository, or file:///...)")
		f.StringVar(&side.Home, role+"-home", "", "start the "+role+" from this HBase home: an unpacked binary release or its .tar.gz (version read from its jars)")
		f.StringVar(&side.JavaHome, role+"-java-home", "", "JDK to run the "+role+"'s HBase on (default: one that runs its version, from JAVA_HOME, REGRESS_JDK<N>_HOME, /usr/lib/jvm)")
		f.StringVar(&side.Label, role+"-label", "", "store the "+role+"'s results under this name, e.g. 2.6.1RC1 (RCs carry the final version string)")
	}
}
