package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/job"
)

func newDoctorCmd() *cobra.Command {
	var (
		zkAddr  string
		znode   string
		timeout time.Duration
	)
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that an HBase cluster answers and show its version, servers, tables and snapshots",
		Long: "doctor connects to HBase through ZooKeeper with the harness's own client and prints the " +
			"cluster's HBase version, live region servers, tables and snapshots. An unreachable " +
			"cluster fails within --timeout with exit code 2.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return job.Doctor(cmd.Context(), cmd.OutOrStdout(), zkAddr, znode, timeout)
		},
	}
	quorumVar(cmd.Flags(), &zkAddr, "zk", "ZooKeeper address of the cluster, HOST:PORT")
	cmd.Flags().StringVar(&znode, "znode", "/hbase", "HBase's base znode (zookeeper.znode.parent)")
	cmd.Flags().DurationVar(&timeout, "timeout", 10*time.Second, "give up when the cluster has not answered within this time")
	return cmd
}
