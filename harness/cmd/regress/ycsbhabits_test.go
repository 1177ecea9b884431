package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestYCSBHabitsOnTheMainJobAndRun: -P, -p, --threads and --target reach
// the suite on the main job and run, and what regress cannot honour is
// refused (exit 2) before any cluster starts: an unsupported property by
// name, a workload file that is not there, YCSB's single-dash -threads
// with what to write instead.
func TestYCSBHabitsOnTheMainJobAndRun(t *testing.T) {
	scen := filepath.Join("..", "..", "..", "scenarios")
	main := []string{"--baseline", "2.6.1", "--candidate", "2.6.2", "--scenarios", scen}
	run := []string{"run", "--version", "2.6.1", "--scenarios", scen}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unsupported property, main job", append(main, "-p", "dataintegrity=true"), "regress does not support dataintegrity=true (set in -p): regress does not check"},
		{"unsupported property, run", append(run, "--property", "clientbuffering=true"), "regress does not support clientbuffering=true"},
		{"workload file not there", append(run, "-P", filepath.Join(t.TempDir(), "nosuch")), "no workload file there"},
		{"YCSB's -threads", append(main, "-threads", "32"), "takes --threads with two dashes: -threads is YCSB's single-dash spelling"},
		{"YCSB's -target", append(run, "-target", "500"), "takes --target with two dashes"},
		{"negative target", append(main, "--target", "-5"), "is not a rate"},
		{"zero threads", append(run, "--threads", "0"), "is not a count"},
		{"flag and property disagree", append(main, "--threads", "4", "-p", "threadcount=8"), "disagree"},
		{"bad property value", append(main, "-P", "pe-scan", "-p", "requestdistribution=pareto"), "requestdistribution"},
	} {
		_, _, err := runCLI(t, tc.args...)
		if codeOf(err) != exitUsage || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: regress %s: %v (exit %d), want exit 2 saying %q", tc.name, strings.Join(tc.args, " "), err, codeOf(err), tc.want)
		}
	}
}
