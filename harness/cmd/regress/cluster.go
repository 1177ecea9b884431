package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/sut"
)

func newClusterCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Start a local HBase from Maven Central, list the versions that can be started, or build the agent for a cluster regress does not start",
	}
	cmd.AddCommand(newClusterUpCmd(), newClusterVersionsCmd(), newClusterAgentCmd())
	return cmd
}

func newClusterUpCmd() *cobra.Command {
	var (
		spec sut.Spec
		opt  sut.Options
	)
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Start a local HBase (standalone, or N region servers) and keep it up until interrupted",
		Long: "up resolves the HBase release's jars with mvn (once per version, into the cache), starts a standalone HBase (ZooKeeper, master " +
			"and region server in one JVM on 127.0.0.1; with --region-servers N, a ZooKeeper, a master and N region server JVMs) and prints one line, " +
			"zookeeper=127.0.0.1:PORT version=V log=PATH, when it is ready. It stays up until SIGINT or SIGTERM, then stops HBase and exits 0.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return job.ClusterUp(cmd.Context(), cmd.OutOrStdout(), spec, opt)
		},
	}
	f := cmd.Flags()
	addSide(f, &spec, "", false)
	f.StringVar(&opt.WorkDir, "workdir", "", "work dir for config, data and log (default: a new temporary dir)")
	f.BoolVar(&opt.Keep, "keep", false, "keep the work dir (data, config, log) after stopping")
	cacheDirVar(f, &opt.CacheDir)
	f.DurationVar(&opt.StartTimeout, "start-timeout", cluster.DefaultStartTimeout, "give up when HBase is not ready this long after its JVM started")
	countVar(f, &opt.Topology.RegionServers, "region-servers", "region servers (default 1): 1 is standalone HBase (one JVM); 2 or more start a ZooKeeper, a master and N region server JVMs on 127.0.0.1 (pseudo-distributed)")
	f.StringVar(&opt.Topology.RSHeap, "rs-heap", "", "heap (-Xmx) of each region server, e.g. 2g (default "+cluster.DefaultRSHeap+")")
	return cmd
}

// cacheDirVar defines --cache-dir, the HBase jar cache (cluster.DefaultCacheDir when not given).
func cacheDirVar(f *pflag.FlagSet, p *string) {
	f.StringVar(p, "cache-dir", "", "per-version HBase jar cache (default $"+cluster.CacheDirEnv+" or <user cache dir>/regress/hbase)")
}

func newClusterVersionsCmd() *cobra.Command {
	var cacheDir string
	var check bool
	cmd := &cobra.Command{
		Use:   "versions [--check] [LINE...]",
		Short: "List HBase versions, each marked: cached, resolvable, not served or not checked, and the JDK it runs on here",
		Long: "versions lists the versions in the cache and those Maven can see for org.apache.hbase:hbase-server, one a line: VERSION STATE JDK. " +
			"STATE is cached (ready to start), resolvable (its jars came before), not served (listed, but its jars are not reachable from here) " +
			"or not checked; what a resolution or --check finds is remembered in the cache. JDK is the one it would run on, or \"needs JDK N\" " +
			"when this machine has none. --check fetches the hbase-server jar of each version not yet checked (only of the lines given, e.g. 2.6 2.5, when any are).",
		RunE: func(cmd *cobra.Command, lines []string) error {
			return job.ClusterVersions(cmd.Context(), cmd.OutOrStdout(), cacheDir, check, lines)
		},
	}
	cacheDirVar(cmd.Flags(), &cacheDir)
	cmd.Flags().BoolVar(&check, "check", false, "fetch the hbase-server jar of each unchecked version to learn whether it is served (slow: one mvn run each)")
	return cmd
}

func newClusterAgentCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "agent [--out DIR]",
		Short: "Build regress's region server agent jar for a cluster regress does not start, and print how to load it",
		Long: "agent compiles regress's region server agent (MBean regress:type=RequestThreads) once and prints its path and the " +
			"hbase-env.sh line that loads it: region servers running it give --*-zk sides the request threads' cpu_per_op and alloc_per_op.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return job.ClusterAgent(cmd.Context(), cmd.OutOrStdout(), dir)
		},
	}
	cmd.Flags().StringVar(&dir, "out", "", "copy regress-agent.jar into this directory (default: print the cached jar's path)")
	return cmd
}
