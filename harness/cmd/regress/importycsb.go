package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/ycsbfmt"
)

func init() { register(newImportYCSBCmd) }

func newImportYCSBCmd() *cobra.Command {
	var version, label, workload, suiteName, store string
	cmd := &cobra.Command{
		Use:   "import-ycsb FILE... --version V --workload NAME",
		Short: "Store YCSB's own output (text or .hdr logs) as summaries for descriptive comparison",
		Long: `import-ycsb reads what YCSB printed at the end of a run — any format from 0.1.0
to 0.17, mail-quoted or not — and YCSB's HdrHistogram interval logs (.hdr, written
with hdrhistogram.fileoutput=true), and stores them as summaries of the given HBase
version. Each run in a text file becomes one summary; all .hdr files given together
(READ.hdr, UPDATE.hdr, ...) become one summary. Summaries have no trial-level
spread, so comparisons with them are descriptive: no significance, no gate.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if version == "" {
				return fault.Usage(errors.New("import-ycsb: --version is required (the HBase version the YCSB run measured)"))
			}
			if workload == "" {
				return fault.Usage(errors.New("import-ycsb: --workload is required (e.g. workloada)"))
			}
			return importYCSB(cmd.OutOrStdout(), args, version, label, workload, suiteName, store)
		},
	}
	f := cmd.Flags()
	f.StringVar(&version, "version", "", "HBase version the YCSB output measured (required)")
	f.StringVar(&label, "label", "", "store under this label instead of the version")
	f.StringVar(&workload, "workload", "", "YCSB workload the output ran, e.g. workloada (required)")
	f.StringVar(&suiteName, "suite", "ycsb-import", "suite name to store the summaries under")
	f.StringVar(&store, "store", results.DefaultRoot, "results store directory")
	return cmd
}

// importedSummary is one summary ready to store, with its optional interval log.
type importedSummary struct {
	trial results.Trial
	hlog  []byte
	from  string
	notes []string
}

func importYCSB(out io.Writer, files []string, version, label, workload, suiteName, storeDir string) error {
	var summaries []importedSummary
	var hdrRuns []*ycsbfmt.Run
	hdrHash := sha256.New()
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			return fault.Usage(fmt.Errorf("import-ycsb: %w", err))
		}
		runs, err := ycsbfmt.ParseBytes(path, b)
		if err != nil {
			return fault.Usage(fmt.Errorf("import-ycsb: %w", err))
		}
		if ycsbfmt.IsHdrLog(path, b) {
			hdrRuns = append(hdrRuns, runs...)
			hdrHash.Write(b)
			continue
		}
		// The id comes from the content, so importing the same output twice is refused.
		sum := sha256.Sum256(b)
		for i, r := range runs {
			id := fmt.Sprintf("ycsb-%s-%d", hex.EncodeToString(sum[:])[:12], i+1)
			summaries = append(summaries, importedSummary{trial: r.Trial(id, workload), from: fmt.Sprintf("%s (run at line %d, %s format)", path, r.Line, r.Format), notes: r.Notes})
		}
	}
	if len(hdrRuns) > 0 {
		r, err := ycsbfmt.MergeHdrRuns(hdrRuns)
		if err != nil {
			return fault.Usage(fmt.Errorf("import-ycsb: %w", err))
		}
		var log bytes.Buffer
		if err := r.WriteHlog(&log); err != nil {
			return fault.Run(fmt.Errorf("import-ycsb: %w", err))
		}
		id := "ycsb-hdr-" + hex.EncodeToString(hdrHash.Sum(nil))[:12]
		summaries = append(summaries, importedSummary{trial: r.Trial(id, workload), hlog: log.Bytes(),
			from: fmt.Sprintf("%d .hdr logs (%s)", len(hdrRuns), strings.Join(r.OpNames(), ", "))})
	}

	st, err := results.Open(storeDir)
	if err != nil {
		return fault.Run(err)
	}
	fp := sha256.Sum256([]byte("ycsb-import:" + suiteName))
	m, err := st.Ensure(&results.Manifest{
		Version: version, Label: label, Provider: "external", Source: "ycsb-import",
		Suite: results.SuiteInfo{Name: suiteName, Fingerprint: hex.EncodeToString(fp[:])[:16],
			DataSpec: "imported from YCSB output; data spec unknown"},
	})
	if err != nil {
		return fault.Usage(fmt.Errorf("import-ycsb: %w", err))
	}
	if m.Source != "ycsb-import" {
		return fault.Usage(fmt.Errorf("import-ycsb: %s already holds measured results (source %q); import under another --suite or --label", st.Dir(results.KeyOf(m)), m.Source))
	}
	k := results.KeyOf(m)
	for _, s := range summaries {
		var hl io.Reader
		if s.hlog != nil {
			hl = bytes.NewReader(s.hlog)
		}
		if _, err := st.AppendSummary(k, s.trial, hl); err != nil {
			return fault.Usage(fmt.Errorf("import-ycsb: %s: %w", s.from, err))
		}
		fmt.Fprintf(out, "stored %s as summary %s: %s, %d operations\n", s.from, s.trial.ID, workload, len(s.trial.Ops))
		for _, n := range s.notes {
			fmt.Fprintf(out, "  note: %s\n", n)
		}
	}
	fmt.Fprintf(out, "store entry: %s\n", filepath.Join(st.Dir(k), "manifest.json"))
	return nil
}
