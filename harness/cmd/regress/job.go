package main

import (
	"cmp"
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
	addOverrides(f, &j.Overrides)
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
	addScenarios(f, &o.Scenarios, "folder holding the workload files and suites/")
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

// addOverrides adds YCSB's habits to the main job and run: -P workload
// files, -p properties, --threads and --target (pflag reads -threads as
// the shorthands -t -h -r...: YCSB's single dash works for -P and -p only).
func addOverrides(f *pflag.FlagSet, o *suite.Overrides) {
	f.StringArrayVarP(&o.Workloads, "workload-file", "P", nil, "run this YCSB workload file instead of the suite's workloads: a path anywhere, or a workload of the scenarios (built in, or under --scenarios) (repeatable; its contents are part of the suite's fingerprint)")
	f.StringArrayVarP(&o.Properties, "property", "p", nil, "YCSB property key=value for every workload, as YCSB's -p (repeatable; part of the fingerprint, so results with other properties never mix); threadcount, target, operationcount, recordcount, fieldcount, fieldlength and columnfamily set the suite's run and data sections")
	countVar(f, &o.Threads, "threads", "client threads of each trial, YCSB's -threads (default: the suite's run.threads; -p threadcount=N says the same)")
	f.Var(checked(&o.Target, job.ParseRate, "ops/s"), "target", "target rate in ops/s of each trial for the whole cluster, YCSB's -target; 0 unthrottled (default: the suite's run.target; -p target=R says the same)")
}

// addScenarios adds --scenarios, whose help says what the folder is for.
func addScenarios(f *pflag.FlagSet, p *string, usage string) {
	f.StringVar(p, "scenarios", job.DefaultScenarios(), usage+" in place of the built-in ones (env "+job.ScenariosEnv+")")
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

// addSides adds the baseline's and candidate's flags, shared by the main
// job and regress capacity.
func addSides(f *pflag.FlagSet, base, cand *sut.Spec) {
	addSide(f, base, "baseline", true)
	addSide(f, cand, "candidate", true)
}

// addSide adds the flags of one side's spec (version, settings, JDK; with
// running, a running cluster and its label too): named --ROLE-*, or
// unprefixed for the one cluster of `run` and `cluster up` (role "").
// Jars are a comparison's side's only.
func addSide(f *pflag.FlagSet, side *sut.Spec, role string, running bool) {
	name, of, the, as, req := func(n string) string { return n }, "", "", "", "; required with --zk"
	if role != "" {
		name, of, the, as, req = func(n string) string { return role + "-" + n }, " for the "+role, "the "+role+"'s ", " as the "+role, ""
	}
	f.StringVar(&side.Version, cmp.Or(role, "version"), "", "HBase version"+of+", started by the provider, e.g. 2.6.1 or 2.6.1-hadoop3 (the -hadoop3 build is used when published)")
	f.StringArrayVar(&side.Conf, name("conf"), nil, "hbase-site.xml override key=value"+of+" (repeatable)")
	f.StringArrayVar(&side.JVMOpts, name("jvm-opt"), nil, "extra JVM option"+of+", e.g. -Xmx4g (repeatable; default heap -Xmx"+cluster.DefaultRSHeap+")")
	f.StringVar(&side.Repo, name("repo"), "", "resolve "+the+"HBase jars from this Maven repository first (an RC's staging repository, or file:///...)")
	f.StringVar(&side.Home, name("home"), "", "start "+the+"HBase from this home instead: an unpacked binary release or its .tar.gz (version read from its jars)")
	f.StringVar(&side.JavaHome, name("java-home"), "", "JDK to run "+the+"HBase on (default: one that runs its version, from JAVA_HOME, REGRESS_JDK<N>_HOME, /usr/lib/jvm)")
	if role != "" {
		f.StringArrayVar(&side.Jars, name("jar"), nil, "extra jar on the "+role+"'s HBase class path, e.g. a coprocessor or a patched module (repeatable; with --"+role+"-conf hbase.coprocessor.region.classes=...)")
	}
	if !running {
		return
	}
	quorumVar(f, &side.ZK, name("zk"), "measure the running cluster at this ZooKeeper address"+as+" instead of starting one")
	infoPortVar(f, &side.InfoPort, name("info-port"), "with --"+name("zk")+": read each region server's info server (/jmx) at its host and this port instead of the one ZooKeeper gives")
	infoPortVar(f, &side.JMXPort, name("jmx-port"), "with --"+name("zk")+": record --profile with JFR over JMX at each region server's host and this port (com.sun.management.jmxremote.port) instead of /prof")
	f.StringVar(&side.Label, name("label"), "", "store "+the+"results under this name, e.g. 2.6.1RC1 (RCs carry the final version string)"+req)
}
