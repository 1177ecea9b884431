package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/progress"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
)

func init() { register(newRunCmd) }

func newRunCmd() *cobra.Command {
	var c commonFlags
	var version, zk, label string
	var conf, jvm []string
	var src sideSource
	cmd := &cobra.Command{
		Use:   "run (--version V | --zk HOST:PORT --label NAME)",
		Short: "Run a suite on one target and store its trials (a reusable baseline)",
		Long: `run measures one target with a suite and stores every trial under the store
(baselines/ by default), so later comparisons can reuse it with
--reuse-baseline or 'regress compare'. With --version the provider starts
that HBase release; with --zk it runs against a cluster someone else runs,
provisions nothing, and touches only tables and snapshots named regress_*.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (version == "" && src.home == "") == (zk == "") {
				return fault.Usage(errors.New("give exactly one of --version V (started by the provider), --home DIR (an unpacked release or its tarball) or --zk HOST:PORT (a running cluster)"))
			}
			if zk != "" && label == "" {
				return fault.Usage(errors.New("--zk needs --label NAME: the name the results are stored under (e.g. prod-2.6.1)"))
			}
			if label != "" {
				if err := results.ValidateTarget(label); err != nil {
					return fault.Usage(fmt.Errorf("--label: %w", err))
				}
			}
			side, err := newSide("run", version, zk, src, conf, jvm)
			if err != nil {
				return err
			}
			s, err := loadSuite(&c)
			if err != nil {
				return err
			}
			store, err := results.Open(c.store)
			if err != nil {
				return fault.Usage(err)
			}
			ctx := cmd.Context()
			log := newLogger(cmd.ErrOrStderr(), c.quiet)
			prog := progress.New(cmd.ErrOrStderr(), c.quiet)
			defer prog.Close()
			ctx, died := context.WithCancelCause(ctx)
			defer died(nil)
			targets, stop, err := startTargets(ctx, log, prog, &c, []runner.Side{side}, died)
			defer stop()
			if err != nil {
				return err
			}
			t := targets[0]
			if label != "" {
				t.Label, t.Name = label, label
			}
			r := &runner.Runner{Suite: s, Store: store, RunID: newRunID(), Reseed: c.reseed, Log: log,
				OnEvent: prog.Event, Env: results.CurrentEnvironment(ctx)}
			m, err := r.RunSingle(ctx, t)
			if err != nil {
				return runFailure(ctx, err)
			}
			prog.Close()
			k := results.KeyOf(m)
			fmt.Fprintf(cmd.OutOrStdout(), "stored %d trials of %s (suite %s) in %s\n", len(m.Trials), k.Target, s.Name, store.Dir(k))
			return nil
		},
	}
	c.add(cmd, false)
	f := cmd.Flags()
	f.StringVar(&version, "version", "", "HBase version to start and measure")
	f.StringVar(&zk, "zk", "", "ZooKeeper address of a running cluster to measure instead")
	f.StringVar(&label, "label", "", "name to store results under (required with --zk)")
	f.StringArrayVar(&conf, "conf", nil, "hbase-site.xml override key=value (repeatable)")
	f.StringArrayVar(&jvm, "jvm-opt", nil, "extra JVM option (repeatable)")
	f.StringVar(&src.repo, "repo", "", "resolve the HBase jars from this Maven repository first (an RC's staging repository, or file:///...)")
	f.StringVar(&src.home, "home", "", "start this HBase home instead: an unpacked binary release or its .tar.gz")
	f.StringVar(&src.javaHome, "java-home", "", "JDK to run HBase on (default: one that runs the version)")
	return cmd
}
