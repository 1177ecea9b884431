package suite

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExplicitZeroIsRefused: a 0 written out is refused where it is no
// value, rather than silently becoming the default.
func TestExplicitZeroIsRefused(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	for _, tc := range []struct{ yaml, want string }{
		{"pairs: {initial: 0}", "pairs.initial: 0 is not a valid value"},
		{"pairs: {initial: 3, max: 0}", "pairs.max: 0 is not a valid value"},
		{"pairs: {looks: 0}", "pairs.looks: 0 is not a valid value"},
		{"run: {threads: 0}", "run.threads: 0 is not a valid value"},
		{"load: {batch: 0}", "load.batch: 0 is not a valid value"},
		{"load: {threads: 0}", "load.threads: 0 is not a valid value"},
		{"data: {recordcount: 1000, regions: 0}", "data.regions: 0 is not a valid value"},
		{"data: {recordcount: 1000, fieldcount: 0}", "data.fieldcount: 0 is not a valid value"},
		{"data: {recordcount: 1000, fieldlength: 0.0}", "data.fieldlength: 0 is not a valid value"},
		{"cluster: {region_servers: 0}", "cluster.region_servers: 0 is not a valid value"},
	} {
		y := "workloads: [workloada]\ndata: {recordcount: 1000}\n" + tc.yaml
		if strings.HasPrefix(tc.yaml, "data:") {
			y = "workloads: [workloada]\n" + tc.yaml
		}
		if _, err := Parse([]byte(y), dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.yaml, err, tc.want)
		}
	}
	// Zero stays valid where it means something: unthrottled, no load hosts, no warm-up round.
	if _, err := Parse([]byte(minimal+"run: {target: 0, load_hosts: 0, warmup_rounds: 0, operationcount: 0}\n"), dir); err != nil {
		t.Errorf("meaningful zeros refused: %v", err)
	}
}

func TestOutOfRangeValuesAreRefused(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	for _, tc := range []struct{ yaml, want string }{
		{minimal + "run: {max_error_rate: 150%}", "run.max_error_rate: 150% is over 100%"},
		{minimal + "pairs: {initial: 5, max: 6, looks: 50}", "pairs.looks: 50 looks need at least 49 pairs"},
		{"workloads: [/etc/passwd]\ndata: {recordcount: 1000}", `"/etc/passwd" is not a workload file under the scenarios directory`},
		{"workloads: [../workloada]\ndata: {recordcount: 1000}", `"../workloada" is not a workload file under`},
		{minimal + "properties: {readproportion: lots}", "workload workloada with the suite's properties"},
		{minimal + "properties: {requestdistribution: bell}", "requestdistribution"},
	} {
		if _, err := Parse([]byte(tc.yaml), dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.yaml, err, tc.want)
		}
	}
	if _, err := Parse([]byte(minimal+"pairs: {initial: 4, max: 6, looks: 3}\nrun: {max_error_rate: 100%}\n"), dir); err != nil {
		t.Errorf("valid edge values refused: %v", err)
	}
}

func TestLoadRefusesAFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.yaml")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatalf("mkfifo %s: %v (the test needs a FIFO in its temp dir, as on Linux)", p, err)
	}
	done := make(chan error, 1)
	go func() { _, err := Load(p, t.TempDir()); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Load hung on a FIFO")
	}
}
