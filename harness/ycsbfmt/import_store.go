package ycsbfmt

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

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
)

// importedSummary is one summary ready to store, with its optional interval log.
type importedSummary struct {
	trial results.Trial
	hlog  []byte
	from  string
	notes []string
}

// ImportSpec names what imported YCSB output measured and where it is stored.
type ImportSpec struct {
	// Dir is the results store; Version the HBase version the output
	// measured (Label, if set, names it instead); Workload the YCSB workload
	// it ran; Suite the suite name the summaries are stored under.
	Dir, Version, Label, Workload, Suite string
}

// Import reads YCSB's text output and .hdr interval logs from files and stores
// them as summaries: one per run in a text file, one for all .hdr files
// together. The same output imported twice is refused. It prints what it
// stored on out.
func Import(out io.Writer, files []string, to ImportSpec) error {
	if to.Version == "" {
		return fault.Usage(errors.New("import-ycsb: --version is required (the HBase version the YCSB run measured)"))
	}
	if to.Workload == "" {
		return fault.Usage(errors.New("import-ycsb: --workload is required (e.g. workloada)"))
	}
	version, label, workload, suiteName, storeDir := to.Version, to.Label, to.Workload, to.Suite, to.Dir
	var summaries []importedSummary
	var hdrRuns []*Run
	hdrHash := sha256.New()
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			return fault.Usage(fmt.Errorf("import-ycsb: %w", err))
		}
		runs, err := ParseBytes(path, b)
		if err != nil {
			return fault.Usage(fmt.Errorf("import-ycsb: %w", err))
		}
		if IsHdrLog(path, b) {
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
		r, err := MergeHdrRuns(hdrRuns)
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
