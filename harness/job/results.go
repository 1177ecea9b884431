package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
)

// ListResults (`regress results list`) prints every usable entry of the
// store, then every stored capacity sweep; a damaged entry is left out of
// the tables and named in a warning, so it hides none of the others.
func ListResults(ctx context.Context, out io.Writer, store string) error {
	st, err := openExistingStore(store)
	if err != nil {
		return err
	}
	entries, damaged, err := st.Scan()
	if err != nil {
		return fault.Usage(err)
	}
	sweeps, badSweeps, err := st.Sweeps()
	if err != nil {
		return fault.Usage(err)
	}
	if ctx.Err() != nil {
		return fault.Run(fmt.Errorf("list interrupted: %w (nothing was changed)", ctx.Err()))
	}
	switch {
	case len(entries) == 0 && len(sweeps) == 0:
		fmt.Fprintf(out, "no results stored in %s\n", st.Root())
	case len(entries) > 0:
		fmt.Fprintf(out, "%-28s %-12s %-14s %-11s %6s %9s  %s\n", "TARGET", "SUITE", "FINGERPRINT", "SOURCE", "TRIALS", "SUMMARIES", "UPDATED")
		for _, e := range entries {
			fmt.Fprintf(out, "%-28s %-12s %-14s %-11s %6d %9d  %s\n", e.Target, e.Suite, shortFingerprint(e.Fingerprint), e.Source, e.Trials, e.Summaries, e.Updated.UTC().Format("2006-01-02 15:04"))
		}
	}
	if len(sweeps) > 0 {
		if len(entries) > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "%-28s %-12s %-14s %-14s %s\n", "CAPACITY SWEEP", "SUITE", "BASELINE", "CANDIDATE", "UPDATED")
		for _, e := range sweeps {
			fmt.Fprintf(out, "%-28s %-12s %-14s %-14s %s\n", e.Name, e.Suite, e.Baseline, e.Candidate, e.Updated.UTC().Format("2006-01-02 15:04"))
		}
	}
	if damaged = append(damaged, badSweeps...); len(damaged) > 0 {
		slog.Warn("damaged entries left out", "err", &results.DamagedError{Entries: damaged})
	}
	return nil
}

// CheckResults (`regress results check`) verifies every entry and sweep of
// the store, and names what lies there that is no entry, one line each:
// good, DAMAGED or LEFTOVER with the reason. Anything damaged or left over
// is a usage error (exit 2) saying how to deal with it.
func CheckResults(ctx context.Context, out io.Writer, store string) error {
	st, err := openExistingStore(store)
	if err != nil {
		return err
	}
	sts, err := st.Check()
	if err != nil {
		return fault.Usage(err)
	}
	if ctx.Err() != nil {
		return fault.Run(fmt.Errorf("check interrupted: %w (nothing was changed)", ctx.Err()))
	}
	bad, left := 0, 0
	for _, s := range sts {
		if ctx.Err() != nil {
			return fault.Run(fmt.Errorf("check interrupted: %w (nothing was changed)", ctx.Err()))
		}
		switch {
		case s.Leftover:
			left++
			fmt.Fprintf(out, "LEFTOVER %s: %s\n", s.Name, strings.ReplaceAll(s.Err.Error(), "\n", "; "))
		case s.Err != nil:
			bad++
			fmt.Fprintf(out, "DAMAGED  %s: %s\n", s.Name, strings.ReplaceAll(s.Err.Error(), "\n", "; "))
		case s.Sweep != nil:
			fmt.Fprintf(out, "good     %s: capacity sweep of %s against %s, suite %s%s\n", s.Name, s.Sweep.Candidate, s.Sweep.Baseline, s.Sweep.Suite, legacyNote(s.Sweep))
		default:
			fmt.Fprintf(out, "good     %s: %d trials, %d summaries\n", s.Name, s.Entry.Trials, s.Entry.Summaries)
		}
	}
	if len(sts) == 0 {
		fmt.Fprintf(out, "no results stored in %s\n", st.Root())
	}
	if bad > 0 {
		return fault.Usagef("%d of %d entries in %s are damaged: remove each with `regress results remove NAME` (its results are lost) or restore it from a copy", bad, len(sts)-left, st.Root())
	}
	if left > 0 {
		return fault.Usagef("%d things in %s are no store entry (LEFTOVER above): each line says what it is and what to do with it", left, st.Root())
	}
	return nil
}

// openExistingStore opens a store to read that must be there and be one:
// listing or checking a misspelt --store says so (exit 2) rather than "no
// results", and a folder that is not a store (/, a home directory) is
// refused before anything is written into it (its lock file) or any of its
// folders is called a leftover to delete.
func openExistingStore(store string) (*results.Store, error) {
	st, err := results.OpenReadOnly(store)
	if err != nil {
		return nil, fault.Usage(err)
	}
	root := st.Root()
	names, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fault.Usagef("no results store at %s: give --store the directory runs and imports stored into (default baselines)", root)
	}
	if err != nil {
		return nil, fault.Usagef("open results store %s: %v (check the --store directory)", root, err)
	}
	if len(names) == 0 {
		return st, nil // a store nothing was stored in yet
	}
	if _, err := os.Lstat(filepath.Join(root, ".lock")); err == nil {
		return st, nil
	}
	if m, _ := filepath.Glob(filepath.Join(root, "*", "*", "manifest.json")); len(m) > 0 {
		return st, nil
	}
	if fi, err := os.Stat(filepath.Join(root, "capacity")); err == nil && fi.IsDir() {
		return st, nil
	}
	return nil, fault.Usagef("%s is not a results store (it holds no .lock and no entry's manifest.json): give --store the directory runs and imports stored into (default baselines)", root)
}

// RemoveResult (`regress results remove`) deletes the entry or sweep called
// name (as check prints it) under the store's lock and says what it removed.
func RemoveResult(ctx context.Context, out io.Writer, store, name string) error {
	st, err := results.OpenReadOnly(store)
	if err != nil {
		return fault.Usage(err)
	}
	dir, err := st.WithContext(ctx).Remove(name)
	if err != nil {
		if ctx.Err() != nil {
			return fault.Run(fmt.Errorf("%w (nothing was removed)", err))
		}
		return fault.Usage(err)
	}
	fmt.Fprintf(out, "removed %s (%s)\n", name, dir)
	return nil
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
