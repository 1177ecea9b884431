package main

import (
	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/job"
)

func newDoctorCmd() *cobra.Command {
	var j job.Doctor
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that an HBase cluster answers and show its version, servers, tables, snapshots and server cost source",
		Long: "doctor connects to HBase through ZooKeeper with the harness's own client and prints the " +
			"cluster's HBase version, live region servers, tables, snapshots, and what a trial reads of each server's cost. An unreachable " +
			"cluster fails within --timeout with exit code 2.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return j.Run(cmd.Context(), cmd.OutOrStdout()) },
	}
	quorumVar(cmd.Flags(), &j.ZK, "zk", "ZooKeeper address of the cluster, HOST:PORT")
	cmd.Flags().StringVar(&j.ZNode, "znode", hbase.DefaultZNodeParent, "HBase's base znode (zookeeper.znode.parent)")
	infoPortVar(cmd.Flags(), &j.InfoPort, "info-port", "read each region server's info server (/jmx) at its host and this port instead of the one ZooKeeper gives")
	infoPortVar(cmd.Flags(), &j.JMXPort, "jmx-port", "also check that --profile can record JFR over JMX at each region server's host and this port (com.sun.management.jmxremote.port)")
	cmd.Flags().DurationVar(&j.Timeout, "timeout", job.DefaultDoctorTimeout, "give up when the cluster has not answered within this time")
	return cmd
}
