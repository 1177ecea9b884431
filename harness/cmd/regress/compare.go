package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/results"
)

func init() { register(newCompareCmd); register(newResultsCmd) }

func newCompareCmd() *cobra.Command {
	var j job.Stored
	cmd := &cobra.Command{
		Use:   "compare --baseline V1|DIR --candidate V2|DIR",
		Short: "Compare stored results (versions or labels in the store, or manifest directories)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			j.Ctx = cmd.Context()
			return j.Run(cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&j.Baseline, "baseline", "", "stored version or label, or a directory with manifest.json")
	f.StringVar(&j.Candidate, "candidate", "", "stored version or label, or a directory with manifest.json")
	addStore(f, &j.Store)
	f.StringVar(&j.Suite, "suite", "", "suite to compare when a target has results of several: NAME, or NAME@FINGERPRINT when one was edited between runs")
	addScenarios(f, &j.Scenarios, "directory holding suites/ (for tolerances and gates)")
	addReport(f, &j.Report, "exit 4 when the verdict is INCONCLUSIVE")
	return markStopsAtOnce(cmd)
}

func newResultsCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "results", Short: "Inspect, check and prune the results store"}
	var store string
	list := &cobra.Command{
		Use:   "list",
		Short: "List stored results: target, suite, fingerprint, trials, last update; then capacity sweeps",
		Long: "list prints every usable entry of the store, then every stored capacity sweep. A damaged entry does not hide the others: " +
			"it is left out of the table and named on stderr (see `regress results check`).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := results.OpenReadOnly(store)
			if err != nil {
				return fault.Usage(err)
			}
			entries, damaged, err := st.Scan()
			if err != nil {
				return fault.Usage(err)
			}
			sweeps, badSweeps, err := st.Sweeps()
			if err != nil {
				return fault.Usage(err)
			}
			if cmd.Context().Err() != nil {
				return fault.Run(fmt.Errorf("list interrupted: %w (nothing was changed)", cmd.Context().Err()))
			}
			w := cmd.OutOrStdout()
			switch {
			case len(entries) == 0 && len(sweeps) == 0:
				fmt.Fprintf(w, "no results stored in %s\n", st.Root())
			case len(entries) > 0:
				fmt.Fprintf(w, "%-28s %-12s %-14s %-11s %6s %9s  %s\n", "TARGET", "SUITE", "FINGERPRINT", "SOURCE", "TRIALS", "SUMMARIES", "UPDATED")
				for _, e := range entries {
					fmt.Fprintf(w, "%-28s %-12s %-14s %-11s %6d %9d  %s\n", e.Target, e.Suite, shortFingerprint(e.Fingerprint), e.Source, e.Trials, e.Summaries, e.Updated.UTC().Format("2006-01-02 15:04"))
				}
			}
			if len(sweeps) > 0 {
				if len(entries) > 0 {
					fmt.Fprintln(w)
				}
				fmt.Fprintf(w, "%-28s %-12s %-14s %-14s %s\n", "CAPACITY SWEEP", "SUITE", "BASELINE", "CANDIDATE", "UPDATED")
				for _, e := range sweeps {
					fmt.Fprintf(w, "%-28s %-12s %-14s %-14s %s\n", e.Name, e.Suite, e.Baseline, e.Candidate, e.Updated.UTC().Format("2006-01-02 15:04"))
				}
			}
			if damaged = append(damaged, badSweeps...); len(damaged) > 0 {
				fmt.Fprintln(cmd.ErrOrStderr(), "regress: warning:", &results.DamagedError{Entries: damaged})
			}
			return nil
		},
	}
	addStore(list.Flags(), &store)
	check := &cobra.Command{
		Use:   "check",
		Short: "Verify every stored entry (manifest and .hlog checksums) and say which are damaged and why",
		Long: "check reads every entry of the store: its manifest's checksum and schema, the directory it lies in, and " +
			"every .hlog it names; then every capacity sweep (its checksum); then what lies in the store that is no entry (an empty entry, a directory " +
			"whose manifest.json is gone, an interrupted removal or write, a stray file, directory or symbolic link). It holds the store's lock while " +
			"it reads, so a removal in progress is not seen half done. It prints one line per entry, good, DAMAGED or LEFTOVER with the reason, and exits 2 when " +
			"any is damaged or left over. Remove a damaged entry with `regress results remove NAME`, or restore it from a copy.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := results.OpenReadOnly(store)
			if err != nil {
				return fault.Usage(err)
			}
			sts, err := st.Check()
			if err != nil {
				return fault.Usage(err)
			}
			if cmd.Context().Err() != nil {
				return fault.Run(fmt.Errorf("check interrupted: %w (nothing was changed)", cmd.Context().Err()))
			}
			w := cmd.OutOrStdout()
			bad, left := 0, 0
			for _, s := range sts {
				if cmd.Context().Err() != nil {
					return fault.Run(fmt.Errorf("check interrupted: %w (nothing was changed)", cmd.Context().Err()))
				}
				if s.Leftover {
					left++
					fmt.Fprintf(w, "LEFTOVER %s: %s\n", s.Name, strings.ReplaceAll(s.Err.Error(), "\n", "; "))
					continue
				}
				if s.Err != nil {
					bad++
					fmt.Fprintf(w, "DAMAGED  %s: %s\n", s.Name, strings.ReplaceAll(s.Err.Error(), "\n", "; "))
					continue
				}
				if s.Sweep != nil {
					fmt.Fprintf(w, "good     %s: capacity sweep of %s against %s, suite %s%s\n", s.Name, s.Sweep.Candidate, s.Sweep.Baseline, s.Sweep.Suite, legacyNote(s.Sweep))
					continue
				}
				fmt.Fprintf(w, "good     %s: %d trials, %d summaries\n", s.Name, s.Entry.Trials, s.Entry.Summaries)
			}
			if len(sts) == 0 {
				fmt.Fprintf(w, "no results stored in %s\n", st.Root())
			}
			if bad > 0 {
				return fault.Usagef("%d of %d entries in %s are damaged: remove each with `regress results remove NAME` (its results are lost) or restore it from a copy", bad, len(sts)-left, st.Root())
			}
			if left > 0 {
				return fault.Usagef("%d things in %s are no store entry (LEFTOVER above): each line says what it is and what to do with it", left, st.Root())
			}
			return nil
		},
	}
	addStore(check.Flags(), &store)
	remove := &cobra.Command{
		Use:   "remove TARGET/SUITE-FINGERPRINT",
		Short: "Remove one stored entry (damaged or not), named as list or check prints it",
		Long: "remove deletes one entry of the store and everything in it, under the store's lock. It takes the name " +
			"`regress results check` prints (TARGET/SUITE-FINGERPRINT, or capacity/RUN-ID for a capacity sweep) and " +
			"refuses anything that is not an entry directory or a sweep of this store.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := results.OpenReadOnly(store)
			if err != nil {
				return fault.Usage(err)
			}
			dir, err := st.WithContext(cmd.Context()).Remove(args[0])
			if err != nil {
				if cmd.Context().Err() != nil {
					return fault.Run(fmt.Errorf("%w (nothing was removed)", err))
				}
				return fault.Usage(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s (%s)\n", args[0], dir)
			return nil
		},
	}
	addStore(remove.Flags(), &store)
	cmd.AddCommand(list, check, remove)
	return markStopsAtOnce(cmd)
}

// legacyNote marks a sweep stored before sweeps had a checksum: readable, not verifiable.
func legacyNote(e *results.SweepEntry) string {
	if e.Legacy {
		return " (stored before sweeps had a checksum: read, not verified)"
	}
	return ""
}

func shortFingerprint(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}
