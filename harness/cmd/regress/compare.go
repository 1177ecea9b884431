package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
)

func init() { register(newCompareCmd); register(newResultsCmd) }

func newCompareCmd() *cobra.Command {
	var base, cand, store, suiteName, scenarios, out, format string
	var failOnInconclusive bool
	cmd := &cobra.Command{
		Use:   "compare --baseline V1|DIR --candidate V2|DIR",
		Short: "Compare stored results (versions or labels in the store, or manifest directories)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if base == "" || cand == "" {
				return fault.Usage(errors.New("compare needs --baseline and --candidate: a stored version or label, or a directory holding a manifest.json"))
			}
			if err := checkFormat(format); err != nil {
				return err
			}
			st, err := results.Open(store)
			if err != nil {
				return fault.Usage(err)
			}
			bm, err := resolveStored(st, base, suiteName)
			if err != nil {
				return err
			}
			cm, err := resolveStored(st, cand, suiteName)
			if err != nil {
				return err
			}
			cfg := compare.Config{}
			// Tolerances, gates and the planned looks come from the suite file
			// when it is at hand: an adaptive run was judged at alpha/looks, and
			// judging its trials again at full alpha could disagree with it.
			// compare counts the looks of every run it pools.
			if p, err := suite.Resolve(scenarios, bm.Suite.Name); err == nil {
				if s, err := suite.Load(p, scenarios); err == nil {
					cfg = compareConfig(s)
				}
			} else {
				fmt.Fprintf(cmd.ErrOrStderr(), "regress: warning: suite %q not found under %s: comparing with default tolerances and gate at one look per run\n", bm.Suite.Name, scenarios)
			}
			return decide(cmd.OutOrStdout(), cmd.ErrOrStderr(), st, bm, cm, cfg, out, format, failOnInconclusive)
		},
	}
	f := cmd.Flags()
	f.StringVar(&base, "baseline", "", "stored version or label, or a directory with manifest.json")
	f.StringVar(&cand, "candidate", "", "stored version or label, or a directory with manifest.json")
	f.StringVar(&store, "store", results.DefaultRoot, "results store directory")
	f.StringVar(&suiteName, "suite", "", "suite to compare when a target has results of several suites")
	f.StringVar(&scenarios, "scenarios", envOr("REGRESS_SCENARIOS", "scenarios"), "directory holding suites/ (for tolerances and gates)")
	f.StringVar(&out, "out", "", "report directory (default reports/<timestamp>)")
	f.StringVar(&format, "format", "text", "report on stdout: text|markdown|json|junit|html")
	f.BoolVar(&failOnInconclusive, "fail-on-inconclusive", false, "exit 4 when the verdict is INCONCLUSIVE")
	return cmd
}

// resolveStored reads a manifest from a directory, or finds a target's entry in the store.
func resolveStored(st *results.Store, ref, suiteName string) (*results.Manifest, error) {
	if fi, err := os.Stat(ref); err == nil && fi.IsDir() {
		m, err := results.ReadManifestFile(filepath.Join(ref, "manifest.json"))
		if err != nil {
			return nil, fault.Usage(err)
		}
		return m, nil
	}
	entries, err := st.Find(ref, suiteName)
	if err != nil {
		return nil, fault.Usage(err)
	}
	if len(entries) == 0 {
		return nil, fault.Usage(fmt.Errorf("nothing stored for %q in %s: run `regress run --version %s` or `regress import-ycsb`, or give a directory holding manifest.json (see `regress results list`)", ref, st.Root(), ref))
	}
	if len(entries) > 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Key.String())
		}
		sort.Strings(names)
		return nil, fault.Usage(fmt.Errorf("%q has results of several suites (%s): choose one with --suite", ref, strings.Join(names, ", ")))
	}
	m, err := st.Load(entries[0].Key)
	if err != nil {
		return nil, fault.Usage(err)
	}
	return m, nil
}

func newResultsCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "results", Short: "Inspect the results store"}
	var store string
	list := &cobra.Command{
		Use:   "list",
		Short: "List stored results: target, suite, fingerprint, trials, last update",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := results.Open(store)
			if err != nil {
				return fault.Usage(err)
			}
			entries, err := st.List()
			if err != nil {
				return fault.Usage(err)
			}
			w := cmd.OutOrStdout()
			if len(entries) == 0 {
				fmt.Fprintf(w, "no results stored in %s\n", st.Root())
				return nil
			}
			fmt.Fprintf(w, "%-28s %-12s %-14s %-11s %6s %9s  %s\n", "TARGET", "SUITE", "FINGERPRINT", "SOURCE", "TRIALS", "SUMMARIES", "UPDATED")
			for _, e := range entries {
				fmt.Fprintf(w, "%-28s %-12s %-14s %-11s %6d %9d  %s\n", e.Target, e.Suite, shortFingerprint(e.Fingerprint), e.Source, e.Trials, e.Summaries, e.Updated.UTC().Format("2006-01-02 15:04"))
			}
			return nil
		},
	}
	list.Flags().StringVar(&store, "store", results.DefaultRoot, "results store directory")
	cmd.AddCommand(list)
	return cmd
}

func shortFingerprint(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}
