package suite

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestAStoredSuiteLoadsAgainAsItRan: a suite with every kind of command
// line change (-P, -p, --threads, --target, --trials, --instances) stored
// as a manifest keeps it (Text, Files, Overridden) loads again, with the
// scenarios folder and the -P file gone, as the suite its trials ran:
// the same fingerprint, the same loads, the same comparison settings.
func TestAStoredSuiteLoadsAgainAsItRan(t *testing.T) {
	dir := scenariosWith(t, "workloada", "workloadb")
	extra := filepath.Join(t.TempDir(), "mine")
	if err := os.WriteFile(extra, []byte("readproportion=0.9\nupdateproportion=0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := minimal + "run: {target: 100}\npairs: {initial: 4}\ncompare: {tolerances: {p99: 30%}}\n"
	s, err := Parse([]byte(text), dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Name = "mine"
	target := 250.0
	if err := s.Override(Overrides{Workloads: []string{extra, "workloadb"}, Properties: []string{"requestdistribution=uniform"}, Threads: 16, Target: &target}); err != nil {
		t.Fatal(err)
	}
	s.SetMode(ModeDuet)
	s.SetInstances(2)
	fp, err := s.Fingerprint()
	if err != nil {
		t.Fatal(err)
	}
	files, args := s.Files(), s.Overridden
	if files["workloada"] == "" || files["-P "+extra] == "" || files["-P workloadb"] == "" {
		t.Fatalf("Files %v: want the suite's own workload and each -P file", keys(files))
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(extra); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	again, err := FromStored("mine", s.Text(), files, args)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := again.Fingerprint(); err != nil || got != fp {
		t.Errorf("stored suite's fingerprint %s (%v), the run's %s", got, err, fp)
	}
	if !reflect.DeepEqual(again.Workloads, s.Workloads) || again.Run.Mode != ModeDuet || again.Run.Instances != 2 || again.Run.Threads != 16 || again.Run.TargetOpsPerSec != 250 {
		t.Errorf("stored suite: workloads %v, mode %s, instances %d, threads %d, target %g", again.Workloads, again.Run.Mode, again.Run.Instances, again.Run.Threads, again.Run.TargetOpsPerSec)
	}
	if !reflect.DeepEqual(again.Compare, s.Compare) || again.Pairs != s.Pairs {
		t.Errorf("stored suite judges otherwise: %+v %+v, the run's %+v %+v", again.Compare, again.Pairs, s.Compare, s.Pairs)
	}
	a, err1 := again.TrialSpec("mine", 1)
	b, err2 := s.TrialSpec("mine", 1)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("the -P workload's trial differs: %v %v\n%+v\n%+v", err1, err2, a, b)
	}
	if _, err := FromStored("mine", s.Text(), map[string]string{}, nil); err == nil || !strings.Contains(err.Error(), "workloada") {
		t.Errorf("a stored suite without its workload file: %v, want an error naming it", err)
	}
}

// TestFolderAndSetReadAlike: the same files as a folder and as a set that
// is no folder load the same suite; the set names its files in messages by
// its label.
func TestFolderAndSetReadAlike(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	if err := os.MkdirAll(filepath.Join(dir, "suites"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "suites", "s.yaml"), []byte(minimal), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Named(Folder(dir), "s")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Named(Set("a test set", os.DirFS(dir)), "s")
	if err != nil {
		t.Fatal(err)
	}
	fa, _ := a.Fingerprint()
	fb, _ := b.Fingerprint()
	if fa != fb || a.Text() != b.Text() || !reflect.DeepEqual(a.Files(), b.Files()) {
		t.Errorf("folder and set differ: %s %s", fa, fb)
	}
	if _, err := Named(Set("a test set", os.DirFS(dir)), "nosuch"); err == nil || !strings.Contains(err.Error(), "(a test set)") || !strings.Contains(err.Error(), "known suites: s") {
		t.Errorf("unknown suite in a set: %v", err)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
