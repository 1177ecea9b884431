package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOverrideAppliesYCSBHabits(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	elsewhere := filepath.Join(t.TempDir(), "mine")
	if err := os.WriteFile(elsewhere, []byte("recordcount=1000\noperationcount=1000\nreadproportion=1\nupdateproportion=0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rate := 250.0
	cases := []struct {
		name  string
		o     Overrides
		check func(*Suite) string
	}{
		{"a workload file from anywhere", Overrides{Workloads: []string{elsewhere}}, func(s *Suite) string {
			if len(s.Workloads) != 1 || s.Workloads[0] != "mine" || s.WorkloadPath("mine") != elsewhere {
				return "workloads " + strings.Join(s.Workloads, ",") + " at " + s.WorkloadPath("mine")
			}
			return ""
		}},
		{"a name under the scenarios dir", Overrides{Workloads: []string{"workloada"}}, func(s *Suite) string {
			if s.WorkloadPath("workloada") != filepath.Join(dir, "workloada") {
				return s.WorkloadPath("workloada")
			}
			return ""
		}},
		{"-p into properties", Overrides{Properties: []string{"requestdistribution=uniform"}}, func(s *Suite) string {
			if s.Properties["requestdistribution"] != "uniform" {
				return "properties " + s.Properties["requestdistribution"]
			}
			return ""
		}},
		{"-p threadcount and target set the run section", Overrides{Properties: []string{"threadcount=32", "target=500"}}, func(s *Suite) string {
			if s.Run.Threads != 32 || s.Run.TargetOpsPerSec != 500 || len(s.Properties) != 0 {
				return "run section not set"
			}
			return ""
		}},
		{"--threads and --target", Overrides{Threads: 7, Target: &rate}, func(s *Suite) string {
			if s.Run.Threads != 7 || s.Run.TargetOpsPerSec != 250 {
				return "run section not set"
			}
			return ""
		}},
		{"-p recordcount sets the data section", Overrides{Properties: []string{"recordcount=5000"}}, func(s *Suite) string {
			if s.Data.RecordCount != 5000 {
				return "data section not set"
			}
			return ""
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse([]byte(minimal), dir)
			if err != nil {
				t.Fatal(err)
			}
			before, _ := s.Fingerprint()
			if err := s.Override(c.o); err != nil {
				t.Fatal(err)
			}
			if why := c.check(s); why != "" {
				t.Error(why)
			}
			if after, _ := s.Fingerprint(); c.name != "a name under the scenarios dir" && after == before {
				t.Errorf("the fingerprint %s did not change", after)
			}
		})
	}
}

func TestOverrideRefusesWhatItCannotHonour(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	notWorkload := filepath.Join(t.TempDir(), "hostname")
	if err := os.WriteFile(notWorkload, []byte("build-host-7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rate := 100.0
	cases := []struct {
		name string
		o    Overrides
		want string
	}{
		{"unsupported property", Overrides{Properties: []string{"dataintegrity=true"}}, "regress does not support dataintegrity=true"},
		{"no equals sign", Overrides{Properties: []string{"threadcount"}}, "expected key=value"},
		{"flag and property disagree", Overrides{Threads: 4, Properties: []string{"threadcount=8"}}, "disagree"},
		{"target and property disagree", Overrides{Target: &rate, Properties: []string{"target=5"}}, "disagree"},
		{"bad threadcount", Overrides{Properties: []string{"threadcount=lots"}}, "whole number of client threads"},
		{"fewer rows than regions", Overrides{Properties: []string{"recordcount=3"}}, "fewer rows than the suite's 8 regions"},
		{"missing workload file", Overrides{Workloads: []string{"/nonexistent/wl"}}, "no workload file there"},
		{"directory as workload", Overrides{Workloads: []string{dir}}, "not a workload file"},
		{"a file that is no workload", Overrides{Workloads: []string{notWorkload}}, "sets none of YCSB's workload properties"},
		{"bad value for a workload property", Overrides{Properties: []string{"requestdistribution=pareto"}}, "requestdistribution"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse([]byte(minimal), dir)
			if err != nil {
				t.Fatal(err)
			}
			err = s.Override(c.o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Override(%+v) = %v, want an error containing %q", c.o, err, c.want)
			}
		})
	}
}

func TestSuitePropertiesRefuseWhatASectionSets(t *testing.T) {
	_, err := Parse([]byte(minimal+"properties: {threadcount: '8'}"), scenariosWith(t, "workloada"))
	if err == nil || !strings.Contains(err.Error(), "properties.threadcount: the suite sets it as run.threads") {
		t.Errorf("properties: {threadcount: 8} = %v, want it refused for run.threads", err)
	}
}
