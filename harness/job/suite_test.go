package job

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/metric"
)

// TestLoadSuiteRefusesAClusterSectionNoProviderStarts checks that a suite's
// cluster section is refused when the suite is loaded (by sut.CheckSuite),
// naming the suite file and the key, before any cluster starts.
func TestLoadSuiteRefusesAClusterSectionNoProviderStarts(t *testing.T) {
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	dir := t.TempDir()
	for _, tc := range []struct{ section, want string }{
		{"cluster: {region_servers: 2, rs_heap: 2g}", ""},
		{"cluster: {region_servers: 99}", "cluster: region servers: 99 is out of range"},
		{"cluster: {rs_heap: 2gb}", "512m or 2g"},
		{"cluster: {region_servers: 5}", "cluster.region_servers: 5 servers need at least as many seed regions"},
	} {
		p := filepath.Join(dir, "s.yaml")
		if err := os.WriteFile(p, []byte("workloads: [workloada]\ndata: {recordcount: 1000, regions: 4}\n"+tc.section+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadSuite(scen, p)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v, want it loaded", tc.section, err)
			}
			continue
		}
		var ue *fault.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "suite "+p+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a usage error naming the suite and saying %q", tc.section, err, tc.want)
		}
	}
}

// TestLoadSuiteRefusesATolerancePastItsRange: a tolerance outside its
// metric's range (the catalogue's) is refused when the suite loads, with
// advice that says the range, not after the trials by the comparison.
func TestLoadSuiteRefusesATolerancePastItsRange(t *testing.T) {
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	p := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(p, []byte("workloads: [workloada]\ndata: {recordcount: 1000}\ncompare: {tolerances: {p99: 150%}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadSuite(scen, p)
	var ue *fault.UsageError
	want := "compare.tolerances.p99: 150% is outside p99's allowed tolerances, above 0% up to 100%"
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "0.10") {
		t.Errorf("p99: 150%%: %v, want a usage error saying %q", err, want)
	}
}

// TestSuiteAndCompareAcceptTheSameTolerances: for every metric a suite may
// set a tolerance for, at the edges of its range, the suite loads exactly
// when the comparison accepts the same tolerance, so no run is refused
// after its trials for a tolerance its suite took.
func TestSuiteAndCompareAcceptTheSameTolerances(t *testing.T) {
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	dir := t.TempDir()
	for _, m := range metric.All() {
		if !m.Gated() {
			continue
		}
		for _, pct := range []float64{0, 0.1, 100 * m.Tolerance, 100 * m.MaxTolerance, 100*m.MaxTolerance + 1, 150, 1000} {
			p := filepath.Join(dir, "s.yaml")
			suiteFile := fmt.Sprintf("workloads: [workloada]\ndata: {recordcount: 1000}\ncompare: {tolerances: {%q: %g%%}}\n", m.Name, pct)
			if err := os.WriteFile(p, []byte(suiteFile), 0o644); err != nil {
				t.Fatal(err)
			}
			s, loadErr := LoadSuite(scen, p)
			cmpErr := compare.Config{Tolerances: map[string]float64{m.Name: pct / 100}}.Check()
			if (loadErr == nil) != (cmpErr == nil) {
				t.Errorf("%s: %g%%: suite load %v, compare %v: they must agree", m.Name, pct, loadErr, cmpErr)
				continue
			}
			if loadErr == nil && s.Compare.Tolerances[m.Name] != pct/100 {
				t.Errorf("%s: %g%% loaded as %v", m.Name, pct, s.Compare.Tolerances[m.Name])
			}
		}
	}
}
