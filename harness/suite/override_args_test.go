package suite

import (
	"slices"
	"testing"
)

// TestOverridesAreRecordedAsGiven: what a manifest records of a command
// line's overrides reads as the command line gave it.
func TestOverridesAreRecordedAsGiven(t *testing.T) {
	target := 500.0
	o := Overrides{Workloads: []string{"/tmp/workloadx"}, Properties: []string{"requestdistribution=uniform"}, Threads: 16, Target: &target}
	want := []string{"-P /tmp/workloadx", "-p requestdistribution=uniform", "--threads 16", "--target 500"}
	if got := o.Args(); !slices.Equal(got, want) {
		t.Errorf("Args() = %q, want %q", got, want)
	}
	if got := (Overrides{}).Args(); len(got) != 0 {
		t.Errorf("no overrides: %q", got)
	}
}
