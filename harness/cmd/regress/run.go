package main

import (
	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/results"
)

func newRunCmd() *cobra.Command {
	var j job.Run
	cmd := &cobra.Command{
		Use:   "run (--version V | --zk HOST:PORT --label NAME)",
		Short: "Run a suite on one target and store its trials (a reusable baseline)",
		Long: `run measures one target with a suite and stores every trial under the store
(` + results.DefaultRoot + `/ by default), so later comparisons can reuse it with
--reuse-baseline or 'regress compare'. With --version the provider starts
that HBase release; with --zk it runs against a cluster someone else runs,
provisions nothing, and touches only tables and snapshots named regress_*.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return j.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addCommon(f, &j.Options, job.DefaultSuite)
	f.StringVar(&j.Side.Version, "version", "", "HBase version to start and measure")
	quorumVar(f, &j.Side.ZK, "zk", "ZooKeeper address of a running cluster to measure instead")
	infoPortVar(f, &j.Side.InfoPort, "info-port", "with --zk: read each region server's info server (/jmx) at its host and this port instead of the one ZooKeeper gives")
	infoPortVar(f, &j.Side.JMXPort, "jmx-port", "with --zk: record --profile with JFR over JMX at each region server's host and this port (com.sun.management.jmxremote.port) instead of /prof")
	f.StringVar(&j.Side.Label, "label", "", "name to store results under (required with --zk)")
	f.StringArrayVar(&j.Side.Conf, "conf", nil, "hbase-site.xml override key=value (repeatable)")
	f.StringArrayVar(&j.Side.JVMOpts, "jvm-opt", nil, "extra JVM option (repeatable)")
	f.StringVar(&j.Side.Repo, "repo", "", "resolve the HBase jars from this Maven repository first (an RC's staging repository, or file:///...)")
	f.StringVar(&j.Side.Home, "home", "", "start this HBase home instead: an unpacked binary release or its .tar.gz")
	f.StringVar(&j.Side.JavaHome, "java-home", "", "JDK to run HBase on (default: one that runs the version)")
	return cmd
}
