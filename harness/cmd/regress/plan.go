package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
)

func init() { register(newPlanCmd) }

func newPlanCmd() *cobra.Command {
	var base, cand, store string
	var common commonFlags
	cmd := &cobra.Command{
		Use:   "plan --baseline V1|DIR [--candidate V2|DIR] [--suite NAME]",
		Short: "From stored trials, the trial-to-trial spread of every gated metric and the pairs a run needs to decide it",
		Long: `plan reads stored trials and prints, for every metric the suite gates, how much it moves
from trial to trial and how many interleaved pairs a run needs: to PASS an unchanged candidate
with probability 0.8, and to find a regression of twice the tolerance with probability 0.8.
With --candidate it uses the pairs of both sides; with --baseline alone it takes the spread of
a pair as that of two of the baseline's trials (e.g. after ` + "`regress run --version V`" + `).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if base == "" {
				return fault.Usage(errors.New("plan needs --baseline: a stored version or label (see `regress results list`), or a directory holding manifest.json"))
			}
			st, err := results.Open(store)
			if err != nil {
				return fault.Usage(err)
			}
			s, err := loadSuite(&common)
			if err != nil {
				return err
			}
			bm, err := resolveStored(st, base, s.Name)
			if err != nil {
				return err
			}
			var cm *results.Manifest
			if cand != "" {
				if cm, err = resolveStored(st, cand, s.Name); err != nil {
					return err
				}
			}
			if len(bm.Trials) == 0 || (cm != nil && len(cm.Trials) == 0) {
				return fault.Usage(errors.New("plan needs measured trials; imported YCSB summaries have no trial-to-trial spread"))
			}
			plan, err := compare.PlanPairs(bm, cm, compareConfig(s))
			if err != nil {
				return fault.Usage(err)
			}
			writePlan(cmd.OutOrStdout(), s, plan, cm != nil)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&base, "baseline", "", "stored version or label, or a directory with manifest.json")
	f.StringVar(&cand, "candidate", "", "stored candidate (optional): plan from the pairs of both sides")
	f.StringVar(&store, "store", results.DefaultRoot, "results store directory")
	f.StringVar(&common.suiteName, "suite", "smoke", "suite whose gate, tolerances and pairs are planned")
	f.StringVar(&common.scenarios, "scenarios", envOr("REGRESS_SCENARIOS", "scenarios"), "directory holding suites/")
	return cmd
}

// writePlan prints the planner's table and whether the suite's pairs suffice.
func writePlan(w io.Writer, s *suite.Suite, plan []compare.PairsPlan, paired bool) {
	from := "spread of two baseline trials"
	if paired {
		from = "spread of the stored pairs"
	}
	fmt.Fprintf(w, "suite %s: pairs %d to %d, %d look(s), alpha %.3g; %s\n\n", s.Name, s.Pairs.Initial, s.Pairs.Max, s.Pairs.Looks, s.Compare.Alpha, from)
	fmt.Fprintf(w, "%-12s %-18s %-7s %5s %7s %6s %10s %8s %10s\n", "workload", "op", "metric", "tol", "spread", "trials", "ops/trial", "to PASS", "to 2x tol")
	short := 0
	for _, p := range plan {
		metric := p.Metric
		if p.GatedFor != "" {
			metric += "*"
		}
		fmt.Fprintf(w, "%-12s %-18s %-7s %4.0f%% %6.1f%% %6d %10d %8s %10s\n", p.Workload, p.Op, metric, 100*p.Tolerance, 100*p.Spread, p.Trials, p.OpsPerTrial,
			pairsText(p.PairsToPass), pairsText(p.PairsToDetect))
		if p.PairsToPass > s.Pairs.Max || p.PairsToDetect > s.Pairs.Max {
			short++
		}
	}
	fmt.Fprintf(w, "\nspread: standard deviation of log(candidate/baseline) per pair. to PASS: pairs at which an unchanged release passes\n"+
		"that metric with probability 0.8; to 2x tol: pairs at which a change of twice the tolerance is REGRESSED with probability 0.8.\n")
	if hasFallback(plan) {
		fmt.Fprintln(w, "* gates in place of a higher percentile: too few operations per trial for it (50 samples beyond it needed).")
	}
	if short > 0 {
		fmt.Fprintf(w, "\n%d gated metric(s) need more than the suite's %d pairs: expect INCONCLUSIVE (or missed regressions); raise pairs.max, lengthen run.measure, or widen the tolerance.\n", short, s.Pairs.Max)
	} else {
		fmt.Fprintf(w, "\nthe suite's %d pairs suffice for every gated metric.\n", s.Pairs.Max)
	}
}

func hasFallback(plan []compare.PairsPlan) bool {
	for _, p := range plan {
		if p.GatedFor != "" {
			return true
		}
	}
	return false
}

func pairsText(n int) string {
	if n > compare.PlanCap {
		return fmt.Sprintf(">%d", compare.PlanCap)
	}
	return fmt.Sprint(n)
}

// warnIfUndecidable logs, before a run starts, the gated metrics the suite's
// max pairs cannot decide, judged from stored trials of the baseline for this
// suite; without stored trials it says nothing (there is no spread to judge from).
func warnIfUndecidable(log *slog.Logger, store *results.Store, version string, s *suite.Suite, cfg compare.Config) {
	if version == "" {
		return
	}
	stored, err := findStored(store, version, s)
	if err != nil || len(stored.Trials) < 2*len(s.Workloads) {
		return
	}
	plan, err := compare.PlanPairs(stored, nil, cfg)
	if err != nil {
		return
	}
	var short []string
	for _, p := range plan {
		if need := max(p.PairsToPass, p.PairsToDetect); need > s.Pairs.Max {
			short = append(short, fmt.Sprintf("%s/%s/%s (spread %.1f%%, needs %s)", p.Workload, p.Op, p.Metric, 100*p.Spread, pairsText(need)))
		}
	}
	if len(short) > 0 {
		log.Warn(fmt.Sprintf("from %d stored trials of %s, suite %s's %d pairs cannot decide %s; expect INCONCLUSIVE: raise pairs.max, lengthen run.measure or widen the tolerance (see `regress plan --baseline %s --suite %s`)",
			len(stored.Trials), version, s.Name, s.Pairs.Max, strings.Join(short, ", "), version, s.Name))
	}
}
