package job

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCapacityWorkloadsNarrowTheSweep checks that --workloads narrows the
// sweep of the capacity section, not only the suite's list, and refuses a
// workload the section does not sweep.
func TestCapacityWorkloadsNarrowTheSweep(t *testing.T) {
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	s, err := LoadSuite(scen, "smoke")
	if err != nil {
		t.Fatal(err)
	}
	j := &Capacity{Workloads: []string{"workloadf", "workloade"}}
	if err := narrowWorkloads(s, j.Workloads, "--workloads"); err != nil {
		t.Fatal(err)
	}
	cfg, err := j.config(s)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Workloads, []string{"workloade", "workloadf"}) {
		t.Errorf("swept %v, want workloade and workloadf in the suite's order", cfg.Workloads)
	}

	s, err = LoadSuite(scen, "smoke")
	if err != nil {
		t.Fatal(err)
	}
	s.Capacity.Workloads = []string{"workloada"}
	j = &Capacity{Workloads: []string{"workloadc"}}
	if err := narrowWorkloads(s, j.Workloads, "--workloads"); err != nil {
		t.Fatal(err)
	}
	if _, err := j.config(s); err == nil || !strings.Contains(err.Error(), "capacity section sweeps only workloada") {
		t.Errorf("err = %v, want it to name the section's workloads", err)
	}
}
