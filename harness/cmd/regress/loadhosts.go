package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/loadhosts"
)

func newWorkerCmd() *cobra.Command {
	var w loadhosts.Worker
	var quiet bool
	cmd := &cobra.Command{
		Use:   "worker --zk HOST:PORT [--root /regress-load]",
		Short: "Run on a load host: wait for trials from a run with --load-hosts and run this host's share",
		Long: "worker registers this host in the cluster's ZooKeeper and waits. A run started with --load-hosts N " +
			"(regress, regress run, regress capacity, regress ycsb run) waits until N workers are registered, then hands " +
			"each trial to all of them: worker i of N runs every N-th operation of the one open-loop schedule and its own " +
			"run-phase insert keys, starting when the run opens its barrier; its histograms go back to the run, which adds " +
			"them into one client's result. The worker needs to reach ZooKeeper and every region server; it serves until " +
			"interrupted. Every host must run the same regress build as the run (a mismatch is refused).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return job.Serve(cmd.Context(), cmd.ErrOrStderr(), &w, quiet)
		},
	}
	f := cmd.Flags()
	quorumVar(f, &w.ZK, "zk", "ZooKeeper quorum of the cluster under test (host:port[,host:port...])")
	f.DurationVar(&w.ConnectTimeout, "zk-timeout", loadhosts.DefaultConnectTimeout, "give up when ZooKeeper has not answered within this time")
	znodeVar(f, &w.Root, "root", loadhosts.DefaultRoot, "znode under which load hosts register (the same on the run)")
	f.BoolVar(&quiet, "quiet", false, "log warnings only")
	return cmd
}

// addLoadHosts adds the flags that run trials on `regress worker` load hosts.
func addLoadHosts(f *pflag.FlagSet, l *job.LoadHosts) {
	f.IntVar(&l.N, "load-hosts", 0, "run every trial's workload on `N` regress worker load hosts as one client (default: the suite's run.load_hosts; 0 runs it in this process)")
	quorumVar(f, &l.ZK, "load-hosts-zk", "ZooKeeper the load hosts registered in (default: the measured cluster's; the baseline's for a comparison)")
	znodeVar(f, &l.Root, "load-hosts-root", loadhosts.DefaultRoot, "znode under which the load hosts registered")
	f.DurationVar(&l.Timeout, "load-hosts-timeout", loadhosts.DefaultHostsTimeout, "how long to wait for the load hosts to register")
}
