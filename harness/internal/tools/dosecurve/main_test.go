package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeReport writes a report.json as regress does, under dir/name/reports/.
func writeReport(t *testing.T, dir, name, candidate, verdict, rows string) string {
	t.Helper()
	p := filepath.Join(dir, name, "reports", "report.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	body := `{"verdict":"` + verdict + `","candidate":{"name":"` + candidate + `","trials":48},"metrics":[` + rows + `]}`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	readsRow    = `{"workload":"READ-heavy workloads","metric":"cpu_per_op","unit":"us","primary":true,"ratio":1.2,"ci_low":1.1,"ci_high":1.3,"tolerance":0.03,"status":"REGRESSED","pairs":24}`
	workloadRow = `{"workload":"workloadc","metric":"cpu_per_op","unit":"us","ratio":1.9,"ci_low":1.8,"ci_high":2.0,"tolerance":0.05,"status":"REGRESSED","pairs":8}`
	allocRow    = `{"workload":"all workloads","metric":"alloc_per_op","unit":"B","primary":true,"ratio":1.01,"ci_low":1.0,"ci_high":1.02,"tolerance":0.05,"status":"UNCHANGED","pairs":48}`
)

func primaryRow(ratio, low, high, status string) string {
	return `{"workload":"all workloads","metric":"cpu_per_op","unit":"us","primary":true,"ratio":` + ratio + `,"ci_low":` + low + `,"ci_high":` + high + `,"tolerance":0.03,"status":"` + status + `","pairs":48}`
}

func TestCurveOrdersRunsByDoseAndDrawsTheirPrimaryRows(t *testing.T) {
	dir := t.TempDir()
	high := writeReport(t, dir, "x", "2.6.1-req13500-d8a", "REGRESSION", workloadRow+","+readsRow+","+primaryRow("1.081", "1.07", "1.09", "REGRESSED")+","+allocRow)
	aa := writeReport(t, dir, "y", "2.6.1-req0-aa5b", "PASS", primaryRow("1.01", "1.005", "1.014", "UNCHANGED"))
	low := writeReport(t, dir, "z", "2.6.1-req5000-d3a", "INCONCLUSIVE", primaryRow("1.029", "1.02", "1.036", "INCONCLUSIVE"))
	pair := writeReport(t, dir, "readme1", "2.6.1-hadoop3", "PASS", primaryRow("0.98", "0.978", "0.983", "UNCHANGED"))
	svg := filepath.Join(dir, "curve.svg")
	var out bytes.Buffer
	if err := run([]string{"-o", svg, high, aa, low, pair}, &out); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"| readme1 | 2.6.1-hadoop3 | -2.0% [-2.2%, -1.7%] | 3% | UNCHANGED | PASS |",
		"| aa5b | none (A/A) | +1.0% [+0.5%, +1.4%] | 3% | UNCHANGED | PASS |",
		"| d3a | 5000 ns a request | +2.9% [+2.0%, +3.6%] | 3% | INCONCLUSIVE | INCONCLUSIVE |",
		"| d8a | 13500 ns a request | +8.1% [+7.0%, +9.0%] | 3% | REGRESSED | REGRESSION |",
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2+len(want) {
		t.Fatalf("table:\n%s", out.String())
	}
	for i, w := range want {
		if lines[2+i] != w {
			t.Errorf("row %d = %q, want %q", i, lines[2+i], w)
		}
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if n := strings.Count(s, "<circle"); n != 4 {
		t.Errorf("%d points drawn, want 4:\n%s", n, s)
	}
	for _, w := range []string{"d8a 13500 ns", "aa5b A/A", "readme1 2.6.1-hadoop3", "tolerance 3%", "<style>"} {
		if !strings.Contains(s, w) {
			t.Errorf("the chart lacks %q:\n%s", w, s)
		}
	}
	// In dose order: the A/A's label comes before the 5000 ns one.
	if strings.Index(s, "aa5b A/A") > strings.Index(s, "d3a 5000 ns") {
		t.Errorf("runs not in dose order:\n%s", s)
	}
	// -row picks another primary row of the same reports.
	out.Reset()
	if err := run([]string{"-o", svg, "-row", "READ-heavy workloads", high}, &out); err != nil {
		t.Fatal(err)
	}
	if w := "| d8a | 13500 ns a request | +20.0% [+10.0%, +30.0%] | 3% | REGRESSED | REGRESSION |"; !strings.Contains(out.String(), w) {
		t.Errorf("-row READ-heavy workloads:\n%s\nwant the row %q", out.String(), w)
	}
}

func TestCurveRefusesWhatItCannotDraw(t *testing.T) {
	dir := t.TempDir()
	noPrimary := writeReport(t, dir, "a", "2.6.1-req0-a", "PASS", workloadRow)
	noRatio := writeReport(t, dir, "b", "2.6.1-req0-b", "INCONCLUSIVE",
		`{"workload":"all workloads","metric":"cpu_per_op","primary":true,"ratio":null,"ci_low":null,"ci_high":null}`)
	junk := filepath.Join(dir, "junk.json")
	if err := os.WriteFile(junk, []byte("<html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(dir, "curve.svg")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", svg, noPrimary}, "no primary cpu_per_op row over all workloads"},
		{[]string{"-o", svg, "-row", "SCAN-heavy workloads", noRatio}, "no primary cpu_per_op row over SCAN-heavy workloads"},
		{[]string{"-o", svg, noRatio}, "row of all workloads has no ratio"},
		{[]string{"-o", svg, junk}, "is not a regress report.json"},
		{[]string{"-o", svg, filepath.Join(dir, "absent.json")}, "give the report.json"},
		{[]string{noPrimary}, "give -o FILE.svg"},
		{[]string{"-o", svg, "-metric", "alloc_per_op", noPrimary}, "no primary alloc_per_op row"},
	} {
		var out bytes.Buffer
		err := run(c.args, &out)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one saying %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(svg); !os.IsNotExist(err) {
		t.Errorf("a refused run wrote %s", svg)
	}
}
