package ycsbfmt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/inputfile"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/version"
)

// workloadName is what a workload may be called: it names a store entry's
// rows in every report, so free text is refused at the door.
var workloadName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$`)

// importedSummary is one summary ready to store, with its optional interval log.
type importedSummary struct {
	trial results.Trial
	hlog  []byte
	from  string
	notes []string
	// legacyID is the id imports before gave a summary with .hdr logs
	// (their digest in the order the files were given); "" without logs.
	legacyID string
}

// DefaultImportSuite is the suite name imported summaries are stored under
// when none is given.
const DefaultImportSuite = "ycsb-import"

// ImportSpec names what imported YCSB output measured and where it is stored.
type ImportSpec struct {
	// Dir is the results store; Version the HBase version the output
	// measured (Label, if set, names it instead); Workload the YCSB workload
	// it ran; Suite the suite name the summaries are stored under.
	Dir, Version, Label, Workload, Suite string
	// Log takes the import's notes, on stderr in the command's log format
	// (nil: slog's default); stdout holds only what was stored.
	Log *slog.Logger
}

// Import reads YCSB's text output and .hdr interval logs from files and stores
// them as summaries: one per run in a text file, one for all .hdr files
// together. A summary's id comes from the content, so importing the same
// output again stores nothing twice (it says so), and an import of several
// files interrupted or failed part-way is completed by running it again. All
// its summaries are stored with one manifest write. It prints what it stored
// on out, and logs its notes to to.Log. When ctx ends it stops, stores nothing, says so, and returns a run
// error.
func Import(ctx context.Context, out io.Writer, files []string, to ImportSpec) (err error) {
	if to.Version == "" {
		return fault.Usage(errors.New("import-ycsb: --version is required (the HBase version the YCSB run measured)"))
	}
	if err := version.ValidateRelease(to.Version); err != nil {
		// The job refuses what names no release; an import stored under
		// one could never be compared with a run of the same release.
		return fault.Usagef("import-ycsb: --version: %w", err)
	}
	if to.Label != "" {
		if err := results.ValidateLabel(to.Label, to.Version); err != nil {
			return fault.Usagef("import-ycsb: --label: %w", err)
		}
	}
	if to.Workload == "" {
		return fault.Usage(errors.New("import-ycsb: --workload is required (e.g. workloada)"))
	}
	if !workloadName.MatchString(to.Workload) {
		// The name is shown in every report (Markdown, HTML, the vote paragraph).
		return fault.Usagef("import-ycsb: --workload %q: name a workload with at most 100 letters, digits, '.', '_', '+' and '-', e.g. workloada", to.Workload)
	}
	version, label, workload, suiteName, storeDir := to.Version, to.Label, to.Workload, to.Suite, to.Dir
	interrupted := func(kept string) error {
		return fault.Run(fmt.Errorf("import-ycsb interrupted: %s: %w", kept, ctx.Err()))
	}
	var srcs []source
	for _, path := range files {
		b, err := readInput(ctx, path)
		if ctx.Err() != nil {
			return interrupted("nothing was stored")
		}
		if err != nil {
			return fault.Usage(fmt.Errorf("import-ycsb: %w", err))
		}
		srcs = append(srcs, source{path, b})
	}
	summaries, err := summariesOf(ctx, srcs, workload)
	if ctx.Err() != nil {
		return interrupted("nothing was stored")
	}
	if err != nil {
		return fault.Usage(fmt.Errorf("import-ycsb: %w", err))
	}

	st, err := results.Open(storeDir)
	if err != nil {
		return fault.Usage(err)
	}
	st = st.WithContext(ctx)
	fp := sha256.Sum256([]byte("ycsb-import:" + suiteName))
	tmpl := &results.Manifest{
		Version: version, Provider: "external", Source: "ycsb-import",
		Suite: results.SuiteInfo{Name: suiteName, Fingerprint: hex.EncodeToString(fp[:])[:16],
			DataSpec: "imported from YCSB output; data spec unknown"},
	}
	tmpl.SetName(results.SideName{Given: label})
	k := results.KeyOf(tmpl)
	if m, err := st.Load(k); err == nil {
		if m.Source != "ycsb-import" {
			return fault.Usage(fmt.Errorf("import-ycsb: %s already holds measured results (source %q); import under another --suite or --label", st.Dir(k), m.Source))
		}
		// The same output stored under another workload is skipped as
		// stored, which would keep the wrong name without a word: say how
		// to fix it.
		storedAs := map[string]string{}
		for _, t := range m.Summaries {
			storedAs[t.ID] = t.Workload
		}
		for _, s := range summaries {
			if w, ok := storedAs[s.trial.ID]; ok && w != s.trial.Workload {
				return fault.Usagef("import-ycsb: %s is already stored in %s as workload %s, not %s: to store it under the right name, remove that entry with `regress results remove %s` (its %d summaries go with it: import the others again too) and import again, or import under another --label",
					s.from, k, w, s.trial.Workload, k, len(m.Summaries))
			}
		}
		// A run stored once from its text output and once with its .hdr
		// logs (or from them alone) would be two summaries of one run,
		// pooled as two: the run is stored once, as it came first.
		summaries = slices.DeleteFunc(summaries, func(s importedSummary) bool {
			for _, t := range m.Summaries {
				if t.ID != s.trial.ID && (sameRun(t.ID, s.trial.ID) || t.ID == s.legacyID) {
					fmt.Fprintf(out, "%s is a run already stored in %s as summary %s (imported before from %s): skipped, not stored twice; to store it from these files instead, remove that entry with `regress results remove %s` (its %d summaries go with it) and import them all again\n",
						s.from, k, t.ID, describeID(t.ID), k, len(m.Summaries))
					return true
				}
			}
			return false
		})
		if len(summaries) == 0 {
			fmt.Fprintf(out, "store entry: %s\n", filepath.Join(st.Dir(k), "manifest.json"))
			return nil
		}
	} else if !errors.Is(err, results.ErrNotFound) {
		return fault.Usage(fmt.Errorf("import-ycsb: %w", err))
	}
	// One write for the whole import: its cost grows with the runs stored,
	// not with their square; a new entry is written whole and renamed into
	// place. Interrupted (or killed) before that, nothing is stored.
	from := map[string]importedSummary{}
	var ps []results.Pending
	for _, s := range summaries {
		ps = append(ps, results.Pending{Trial: s.trial, Hlog: s.hlog})
		from[s.trial.ID] = s
	}
	if ctx.Err() != nil {
		return interrupted(fmt.Sprintf("nothing was stored of %d summaries; run the same command again", len(summaries)))
	}
	_, got, dup, err := st.ImportSummaries(tmpl, ps)
	if err != nil {
		if ctx.Err() != nil {
			return interrupted(fmt.Sprintf("nothing was stored of %d summaries; run the same command again", len(summaries)))
		}
		return storeFault(fmt.Errorf("import-ycsb: %w", err))
	}
	log := to.Log
	if log == nil {
		log = slog.Default()
	}
	for _, t := range got {
		s := from[t.ID]
		fmt.Fprintf(out, "stored %s as summary %s: %s, %d operations\n", s.from, t.ID, t.Workload, len(t.Ops))
		for _, n := range s.notes {
			log.Info("import note", "summary", t.ID, "file", s.from, "note", n)
		}
	}
	if skipped := len(dup); skipped > 0 {
		fmt.Fprintf(out, "%d of %d summaries were already stored (the same output imported before): skipped, not stored twice\n", skipped, len(summaries))
	}
	fmt.Fprintf(out, "store entry: %s\n", filepath.Join(st.Dir(k), "manifest.json"))
	return nil
}

// storeFault is a failed store write as its kind of error: a full disk is
// the machine's, not the input's (exit 3, as a run's), anything else the
// input's or the store's the user gave (exit 2).
func storeFault(err error) error {
	var full *results.DiskFullError
	if errors.As(err, &full) {
		return fault.Run(err)
	}
	return fault.Usage(err)
}

// describeID says what an imported summary came from, by its id.
func describeID(id string) string {
	switch text, hdr := runIdentity(id); {
	case text != "" && hdr != "":
		return "its text output with its .hdr logs"
	case hdr != "":
		return "its .hdr logs alone"
	}
	return "its text output alone"
}

// MaxImportFile bounds one file import-ycsb reads (YCSB's text output is a
// few KiB a run, its .hdr logs a few MiB an hour): a larger file, or a pipe
// that gives more, is refused rather than held in memory.
const MaxImportFile = 256 << 20

// readInput reads one file given on the command line, at most MaxImportFile
// bytes. A FIFO or process substitution is read too, but a read that blocks
// ends when ctx does; a device (/dev/zero) is refused before it is read.
func readInput(ctx context.Context, path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	switch m := fi.Mode(); {
	case m.IsRegular() && fi.Size() > MaxImportFile:
		return nil, fmt.Errorf("%s is %s, beyond the %s one imported file may hold: split the YCSB output into one file per run", path, inputfile.Size(fi.Size()), inputfile.Size(MaxImportFile))
	case !m.IsRegular() && m&fs.ModeNamedPipe == 0:
		return nil, fmt.Errorf("%s is %s: give a YCSB output file (or a pipe)", path, inputfile.Kind(m))
	}
	type res struct {
		b   []byte
		err error
	}
	ch := make(chan res, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			ch <- res{nil, err}
			return
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, MaxImportFile+1))
		if err == nil && len(b) > MaxImportFile {
			err = fmt.Errorf("%s gave more than the %s one imported file may hold: split the YCSB output into one file per run", path, inputfile.Size(MaxImportFile))
			b = nil
		}
		ch <- res{b, err}
	}()
	select {
	case r := <-ch:
		return r.b, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
