package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// resign rewrites the stored entry of label through edit and signs it again,
// as a user editing a manifest by hand would.
func resign(t *testing.T, st *results.Store, label string, edit func(*results.Manifest)) {
	t.Helper()
	m, err := st.Resolve(label, "")
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := results.EncodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m.Dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// compareJSON runs compare with --format json and returns its report.
func compareJSON(t *testing.T, args ...string) (r struct {
	Verdict  string
	Invalid  string
	Warnings []string
}, err error) {
	t.Helper()
	out, _, err := runCLI(t, append([]string{"compare", "--format", "json", "--out", filepath.Join(t.TempDir(), "r")}, args...)...)
	if out != "" {
		if jerr := json.Unmarshal([]byte(out), &r); jerr != nil {
			t.Fatalf("report.json: %v\n%s", jerr, out)
		}
	}
	return r, err
}

// TestFailedOperationsAreNotComparable: a re-signed manifest whose trials
// failed their operations (100%, or beyond the suite's run.max_error_rate)
// PASSed; compare now holds the trials to the rate the runner holds them
// to, names them in the warnings and calls the comparison INVALID (exit 3).
func TestFailedOperationsAreNotComparable(t *testing.T) {
	tests := []struct {
		name     string
		share    float64 // of each candidate trial's READs failed
		maxRate  string  // the suite's run.max_error_rate ("" no suite file: compare's default, 1%)
		wantCode int
		want     string // in the warnings and Invalid; "" none
	}{
		{"no failures", 0, "", exitOK, ""},
		{"every operation failed", 1, "", exitRunFailed, "failed more operations than run.max_error_rate allows (1.0%)"},
		{"2% failed, the default allows 1%", 0.02, "", exitRunFailed, "1200 of 60000 operations failed, 2.0%"},
		{"2% failed, the suite allows 5%", 0.02, "5%", exitOK, ""},
		{"every operation failed, the suite allows 50%", 1, "50%", exitRunFailed, "allows (50.0%)"},
		{"one failed, the suite allows none", 1.0 / 60000, "0%", exitRunFailed, "1 of 60000 operations failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			st, err := results.Open(filepath.Join(dir, "store"))
			if err != nil {
				t.Fatal(err)
			}
			storeSide(t, st, "base", 1.0, 8, 0)
			storeSide(t, st, "cand", 1.0, 8, 1)
			resign(t, st, "cand", func(m *results.Manifest) {
				for i := range m.Trials {
					o := m.Trials[i].Ops["READ"]
					o.Errors = int64(tc.share*float64(o.Count) + 0.5)
					o.Statuses = map[string]int64{"OK": o.Count - o.Errors, "ERROR": o.Errors}
					m.Trials[i].Ops["READ"] = o
				}
			})
			args := []string{"--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--scenarios", filepath.Join("..", "..", "..", "scenarios")}
			if tc.maxRate != "" {
				f := filepath.Join(dir, "fixture.yaml")
				writeFile(t, f, "name: fixture\nworkloads: [workloadc]\ndata: {recordcount: 1000, regions: 2}\npairs: {initial: 5, max: 6, looks: 2}\nrun: {max_error_rate: "+tc.maxRate+"}\n")
				args = append(args, "--suite", f)
			}
			r, err := compareJSON(t, args...)
			if code(err) != tc.wantCode {
				t.Fatalf("exit %d (%v), want %d; verdict %s", code(err), err, tc.wantCode, r.Verdict)
			}
			said := slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "are not comparable") })
			if tc.want == "" {
				if said || r.Verdict != "PASS" {
					t.Errorf("verdict %s, warnings %q; want PASS and no word of failed trials", r.Verdict, r.Warnings)
				}
				return
			}
			if r.Verdict != "INVALID" || !strings.Contains(r.Invalid, tc.want) || !strings.Contains(r.Invalid, "workloadc candidate pair 0 (trial cand-0") || !said {
				t.Errorf("verdict %s, invalid %q, warnings %q; want INVALID naming the trials and %q", r.Verdict, r.Invalid, r.Warnings, tc.want)
			}
		})
	}
}

// TestCompareRefusesALabelHoldingTwoVersions: compare took a label holding
// results of two HBase versions silently where `results check` calls it
// DAMAGED; both now say so (exit 2), naming the label.
func TestCompareRefusesALabelHoldingTwoVersions(t *testing.T) {
	dir := t.TempDir()
	st, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	storeSide(t, st, "base", 1.0, 8, 0)
	storeSide(t, st, "cand", 1.0, 8, 1)
	// An entry of another suite and version under the candidate's label,
	// as a store written before labels were held to one version holds.
	m, err := st.Resolve("cand", "")
	if err != nil {
		t.Fatal(err)
	}
	m.Version, m.Suite.Name = "2.6.0", "other"
	b, err := results.EncodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	other := st.Dir(results.KeyOf(m))
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	check, _, checkErr := runCLI(t, "results", "check", "--store", st.Root())
	if code(checkErr) != exitUsage || !strings.Contains(check, "DAMAGED  cand/fixture-fp0123456789: stored results are of another HBase version: cand names results of HBase 2.6.1 here and of 2.6.0 in cand/other-fp0123456789") {
		t.Errorf("results check: exit %d\n%s", code(checkErr), check)
	}
	_, _, err = runCLI(t, "compare", "--baseline", "base", "--candidate", "cand", "--suite", "fixture", "--store", st.Root(),
		"--scenarios", filepath.Join("..", "..", "..", "scenarios"), "--out", filepath.Join(dir, "r"))
	if code(err) != exitUsage || !strings.Contains(err.Error(), `"cand": stored results are of another HBase version: cand names results of HBase 2.6.1 here and of 2.6.0 in cand/other-fp0123456789`) {
		t.Errorf("compare of a two-version label: exit %d, %v; want exit 2 with check's words", code(err), err)
	}
}

// TestAStoppedRunsHalfPairIsNamed: a run stopped between a pair's two
// trials was compared unpaired, the report saying only "8 baseline and 7
// candidate trials"; its lone trial is now left out and named in the
// report's warnings, the complete pairs compared paired.
func TestAStoppedRunsHalfPairIsNamed(t *testing.T) {
	st, err := results.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	storeSide(t, st, "base", 1.0, 8, 0)
	storeSide(t, st, "cand", 1.0, 7, 1) // stopped before the candidate's trial of pair 7
	r, err := compareJSON(t, "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--scenarios", filepath.Join("..", "..", "..", "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "PASS" || !slices.ContainsFunc(r.Warnings, func(w string) bool {
		return strings.Contains(w, "workloadc pair 7 of run run1: baseline trial base-7 (no candidate trial of that pair is stored)")
	}) || slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "unpaired") }) {
		t.Errorf("verdict %s, warnings %q: want the 7 complete pairs paired and base-7 named", r.Verdict, r.Warnings)
	}
}
