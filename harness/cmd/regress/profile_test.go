package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/cluster/clustertest"
)

// slowGetJar returns testdata/coprocessor's jar, building it with Maven
// (build.sh) when it is not there yet.
func slowGetJar(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "coprocessor"))
	if err != nil {
		t.Fatal(err)
	}
	jar := filepath.Join(dir, "target", "slow-get-observer.jar")
	if _, err := os.Stat(jar); err == nil {
		return jar
	}
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Fatalf("%s is not built and there is no mvn to build it: install Maven or run testdata/coprocessor/build.sh where it is", jar)
	}
	cmd := exec.Command(filepath.Join(dir, "build.sh"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("build.sh: %v: %s%s", err, out, stderr.String())
	}
	return jar
}

// TestProfileNamesTheAddedFrame is issue 19's proof: a candidate that loads
// SlowGetObserver (CPU burnt in its own method before every Get), run with
// --profile against the same release without it, puts
// SlowGetObserver.burn first among the frames whose CPU grew, in the JSON
// report, with each side's stacks stored beside the trials and written
// into the report dir: every file listed holds stacks, and a side that
// recorded nothing of a kind (on a loaded machine a pair's request threads
// may wait above JFR's threshold not once) is a note, not a file.
func TestProfileNamesTheAddedFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two real HBase clusters; skipped under -short")
	}
	jar := slowGetJar(t)
	dir := t.TempDir()
	v := clustertest.Version()
	store, out := filepath.Join(dir, "store"), filepath.Join(dir, "reports")
	stdout, err := runRegress(t, "--baseline", v, "--candidate", v,
		"--candidate-jar", jar,
		"--candidate-conf", "hbase.coprocessor.region.classes=org.regress.testdata.SlowGetObserver",
		"--candidate-conf", "regress.slowget.iterations=100000",
		"--profile", "--suite", filepath.Join("testdata", "profile.yaml"),
		"--scenarios", filepath.Join("..", "..", "..", "scenarios"), "--store", store,
		"--out", out, "--format", "json", "--quiet")
	c := code(err)
	if c != exitOK && c != exitRegression {
		t.Fatalf("exit %d: %v", c, err)
	}
	var got struct {
		Profiles []struct {
			Workload string `json:"workload"`
			CPU      *struct {
				Frames []struct {
					Frame string  `json:"frame"`
					P     float64 `json:"p"`
					Self  struct {
						Base      int64   `json:"base"`
						Cand      int64   `json:"cand"`
						CandShare float64 `json:"cand_share"`
						BasePerOp float64 `json:"base_per_op"`
						CandPerOp float64 `json:"cand_per_op"`
					} `json:"self"`
				} `json:"frames"`
			} `json:"cpu"`
			Files []string `json:"files"`
		} `json:"profiles"`
		ProfileNotes []string `json:"profile_notes"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if len(got.Profiles) != 1 || got.Profiles[0].CPU == nil || len(got.Profiles[0].CPU.Frames) == 0 {
		t.Fatalf("want one workload's CPU differential, got %+v (notes %q)", got.Profiles, got.ProfileNotes)
	}
	p := got.Profiles[0]
	const burn = "org.regress.testdata.SlowGetObserver.burn"
	// Frames are ranked by absolute change, so a frame that shrank may
	// stand above the burn (a CI run's baseline spent 19 samples in
	// RefCnt.hasRecycler, its candidate 1); the burn must be the frame
	// that grew most, as the vote paragraph lists them.
	top := p.CPU.Frames[0]
	for _, f := range p.CPU.Frames {
		if f.Self.CandPerOp > f.Self.BasePerOp {
			top = f
			break
		}
	}
	if top.Frame != burn || top.Self.Base != 0 || top.Self.Cand == 0 {
		t.Errorf("CPU frame that grew most %q (baseline %d, candidate %d samples), want %s only on the candidate; frames %+v",
			top.Frame, top.Self.Base, top.Self.Cand, burn, p.CPU.Frames)
	} else if top.P <= 0 || top.P > 0.01 {
		t.Errorf("%s grew from 0 to %d samples with P %g: want a P that says it is no chance (<= 0.01)", burn, top.Self.Cand, top.P)
	}
	for _, f := range p.Files {
		if st, err := os.Stat(filepath.Join(out, filepath.FromSlash(f))); err != nil {
			t.Errorf("folded file %s not written into the report dir: %v", f, err)
		} else if st.Size() == 0 {
			t.Errorf("folded file %s is listed, and empty", f)
		}
	}
	var totals struct {
		Profiles []map[string]json.RawMessage `json:"profiles"`
	}
	if err := json.Unmarshal([]byte(stdout), &totals); err != nil {
		t.Fatal(err)
	}
	for kind, what := range map[string]string{"cpu": "CPU samples", "alloc": "allocation samples", "wait": "waits"} {
		var d *struct {
			Base int64 `json:"base_total"`
			Cand int64 `json:"cand_total"`
		}
		if raw, ok := totals.Profiles[0][kind]; ok {
			if err := json.Unmarshal(raw, &d); err != nil {
				t.Fatal(err)
			}
		}
		if d == nil {
			continue // no differential of this kind: nothing listed
		}
		for side, total := range map[string]int64{"baseline": d.Base, "candidate": d.Cand} {
			file := "profiles/workloadc." + side + "." + kind + ".folded"
			note := "workloadc: no " + what + " recorded on the " + side + "'s"
			listed := slices.Contains(p.Files, file)
			noted := slices.ContainsFunc(got.ProfileNotes, func(n string) bool { return strings.HasPrefix(n, note) })
			if listed != (total > 0) || noted != (total == 0) {
				t.Errorf("%s: %d recorded, %s listed %v, a note %q %v: want the file listed when it holds something, the note when not (notes %q)",
					kind, total, file, listed, note, noted, got.ProfileNotes)
			}
		}
	}
	stored, _ := filepath.Glob(filepath.Join(store, "*", "*", "profiles", "*.cpu.folded"))
	if len(stored) != 2 {
		t.Errorf("stored CPU profiles %v, want one per side (the profiled pair)", stored)
	}
	for _, p := range stored {
		if !strings.HasSuffix(p, "-workloadc-profile.cpu.folded") {
			t.Errorf("stored profile %s is not the uncounted profiled pair's", p)
		}
	}
	vote, err := os.ReadFile(filepath.Join(out, "vote.txt"))
	if err != nil || !strings.HasPrefix(string(vote), "regress: HBase ") {
		t.Errorf("vote.txt: %v %q", err, vote)
	}
	// A regression's paragraph names the frames that grew beyond chance, or,
	// when the machine was too busy for the profiled pair to hold the rate
	// its counted trials held (JFR's own cost on a saturated side), says
	// that no cause is named and why: a stall's stacks are not read.
	flat := strings.Join(strings.Fields(string(vote)), " ")
	if c == exitRegression && !strings.Contains(flat, "SlowGetObserver.burn") &&
		!strings.Contains(flat, "Cause: none named: the profiled trials of workloadc") {
		t.Errorf("the run regressed but vote.txt names no SlowGetObserver.burn, nor why not:\n%s", vote)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil || !strings.HasPrefix(string(md), "```text\n"+string(vote)) {
		t.Errorf("report.md does not start with the vote paragraph: %v\n%.400s", err, md)
	}
}
