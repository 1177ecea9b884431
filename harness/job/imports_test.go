package job

import (
	"go/build"
	"testing"
)

// notJobs are packages of ours job may not import, each with where its work
// goes instead: job conducts, and the layers below it read and run.
var notJobs = map[string]string{
	"github.com/regress-hbase/regress/harness/loadgen":  "a stored trial's histograms are read through results (TrialIntended, TrialIntervals, WorkloadHistograms); a step's load runs through runner (Steps)",
	"github.com/regress-hbase/regress/harness/workload": "a workload's facts are read off its config (loadspec.Spec.Workload's methods, as OpNames)",
}

// TestJobConductsAndReadsNoLogItself holds job's place by its imports: it
// wires the rooms below it and never reads an interval log or a workload's
// mix itself.
func TestJobConductsAndReadsNoLogItself(t *testing.T) {
	pkg, err := build.Default.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if why, ok := notJobs[imp]; ok {
			t.Errorf("harness/job imports %s, which it may not: %s (docs/development.md)", imp, why)
		}
	}
}
