package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestRoundJSONNumber(t *testing.T) {
	for _, tc := range []struct {
		key, unit string
		v, want   float64
	}{
		{"baseline", "us", 999.9999999999998, 1000},
		{"candidate", "us", 3568.45, 3568.5},
		{"baseline_values", "us", 641.04999, 641},
		{"baseline", "B", 24576.123456, 24576.1},
		{"baseline", "ops/s", 991.23456, 991.23},
		{"ratio", "us", 1.0700000000000003, 1.07},
		{"ci_low", "", 0.99912345678, 0.99912},
		{"block_cache_hit_ratio", "", 0.9970089730807578, 0.99701},
		{"p", "", 0.0031234567, 0.003123},
		{"p", "", 1.234567e-9, 1.235e-9},
		{"look_alpha", "", 0.025000000000000001, 0.025},
		{"p99_us", "", 2282.842712474619, 2282.8},
		{"start_ms", "", 1000.0004999, 1000},
		{"target_ops_per_sec", "", 2828.42712474619, 2828.43},
		{"base_per_op", "", 0.0027312345678901, 0.00273123457},
		{"anything", "", 0.30000000000000004, 0.3},
		{"baseline", "us", -0.00001, 0},
		{"baseline", "us", 1e308, 1e308}, // no decimals to round: times 10 it is +Inf
		{"p99_us", "", -1.7e308, -1.7e308},
	} {
		if got := roundJSONNumber(tc.key, tc.unit, tc.v); got != tc.want {
			t.Errorf("roundJSONNumber(%q, %q, %v) = %v, want %v", tc.key, tc.unit, tc.v, got, tc.want)
		}
	}
}

// TestJSONReportRoundsAndVersions: report.json opens with schema_version,
// carries no float noise, and keeps every field, null and order of the
// unrounded encoding.
func TestJSONReportRoundsAndVersions(t *testing.T) {
	c := pairedFixture()
	m := &c.Metrics[0]
	m.Baseline, m.Ratio, m.P = 999.9999999999998, 1.0700000000000003, 0.0031234567
	m.BaselineValues = []float64{999.9999999999998, 1000.0000000000001, 1000}
	var b bytes.Buffer
	if err := Render(&b, FormatJSON, Report{Comparison: c}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "{\n  \"schema_version\": 1,\n") {
		t.Errorf("report.json does not open with schema_version 1:\n%.200s", out)
	}
	for _, noise := range []string{"999.99999", "1.0700000", "0.0031234567", "1000.0000"} {
		if strings.Contains(out, noise) {
			t.Errorf("report.json carries %s...", noise)
		}
	}
	for _, want := range []string{`"baseline": 1000,`, `"ratio": 1.07,`, `"p": 0.003123,`, `"ci_low": null,`} {
		if !strings.Contains(out, want) {
			t.Errorf("report.json lacks %s", want)
		}
	}
}

// TestRoundedJSONKeepsTheEncoding: with nothing to round, the rewrite is
// byte for byte encoding/json's indented output (order, nesting, empty
// containers, null, escaping).
func TestRoundedJSONKeepsTheEncoding(t *testing.T) {
	type inner struct {
		A []int          `json:"a"`
		B map[string]any `json:"b"`
		C *int           `json:"c"`
	}
	v := struct {
		Z     string  `json:"z"`
		Empty []int   `json:"empty"`
		Obj   inner   `json:"obj"`
		List  []inner `json:"list"`
		F     float64 `json:"f"`
		Esc   string  `json:"esc"`
		T     bool    `json:"t"`
	}{Z: "first", Empty: []int{}, Obj: inner{A: []int{1, 2}, B: map[string]any{"k": []any{}, "j": map[string]any{}}},
		List: []inner{{}, {A: []int{3}}}, F: 2.5, Esc: "<a & \"b\">", T: true}
	want, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := writeRoundedJSON(&got, v); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want)+"\n" {
		t.Errorf("rewritten:\n%s\nencoding/json:\n%s", got.String(), want)
	}
}
