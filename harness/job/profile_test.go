package job

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/profile"
	"github.com/regress-hbase/regress/harness/results"
)

// profiledManifest is a manifest in a temp entry dir with one trial of
// workloadc per pair of run "run", and folded stacks stored beside the
// trials given; an id "<run>-workloadc-profile" is a run's profiled pair,
// stored with its results.ProfileMeta (1000 operations).
func profiledManifest(t *testing.T, cpu map[string]profile.Folded, bad ...string) *results.Manifest {
	t.Helper()
	m := &results.Manifest{Dir: t.TempDir()}
	for _, id := range []string{"run-workloadc-p00", "run-workloadc-p01"} {
		m.Trials = append(m.Trials, results.Trial{ID: id, RunID: "run", Workload: "workloadc", Ops: map[string]results.OpStats{"READ": {Count: 1000}}})
	}
	for id, f := range cpu {
		if run, ok := strings.CutSuffix(id, "-workloadc-profile"); ok {
			b, _ := json.Marshal(results.ProfileMeta{ID: id, RunID: run, Workload: "workloadc", Ops: 1000})
			if err := os.MkdirAll(filepath.Dir(results.ProfileMetaFile(m.Dir, id)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(results.ProfileMetaFile(m.Dir, id), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := profile.WriteFoldedFile(results.ProfileFile(m.Dir, id, string(profile.CPU)), f); err != nil {
			t.Fatal(err)
		}
		if err := profile.WriteFoldedFile(results.ProfileFile(m.Dir, id, string(profile.Alloc)), profile.Folded{"a;b": 1 << 20}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range bad {
		if err := os.WriteFile(results.ProfileFile(m.Dir, id, string(profile.CPU)), []byte("no weight here\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func TestDifferentialsFromStoredStacks(t *testing.T) {
	const burn = "org.regress.testdata.SlowGetObserver.burn"
	base := map[string]profile.Folded{"run-workloadc-p00": {"rpc;get": 100}}
	cand := map[string]profile.Folded{"run-workloadc-p00": {"rpc;get": 100, "rpc;get;" + burn: 80}}
	for _, tc := range []struct {
		name      string
		bm, cm    *results.Manifest
		profiles  int
		top, note string
	}{
		{"both sides", profiledManifest(t, base), profiledManifest(t, cand), 1, burn, ""},
		{"pairs pooled", profiledManifest(t, map[string]profile.Folded{"run-workloadc-p00": {"rpc;get": 50}, "run-workloadc-p01": {"rpc;get": 50}}),
			profiledManifest(t, cand), 1, burn, ""},
		{"baseline not profiled", profiledManifest(t, nil), profiledManifest(t, cand), 0, "", "the baseline has no stored profile"},
		{"damaged file", profiledManifest(t, base), profiledManifest(t, cand, "run-workloadc-p01"), 1, burn, "profile of trial run-workloadc-p01 not used"},
		{"nothing profiled", profiledManifest(t, nil), profiledManifest(t, nil), 0, "", ""},
		{"the uncounted profiled pair", profiledManifest(t, map[string]profile.Folded{"run-workloadc-profile": {"rpc;get": 100}}),
			profiledManifest(t, map[string]profile.Folded{"run-workloadc-profile": cand["run-workloadc-p00"]}), 1, burn, ""},
		{"another run's profiled pair left out", profiledManifest(t, map[string]profile.Folded{"run-workloadc-profile": {"rpc;get": 100}}),
			profiledManifest(t, map[string]profile.Folded{"other-workloadc-profile": cand["run-workloadc-p00"]}), 0, "", "the candidate has no stored profile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, notes := Differentials(tc.bm, tc.cm)
			if len(ps) != tc.profiles {
				t.Fatalf("%d profiles, want %d (notes %q)", len(ps), tc.profiles, notes)
			}
			if tc.profiles > 0 {
				d := ps[0].CPU.Diff
				if d == nil || len(d.Frames) == 0 || d.Frames[0].Frame != tc.top || ps[0].Alloc.Diff == nil {
					t.Fatalf("differential %+v, want %s on top and an allocation differential", d, tc.top)
				}
				if d.BaseOps != int64(ps[0].BaseTrials)*1000 {
					t.Errorf("baseline ops %d over %d trials, want 1000 a trial", d.BaseOps, ps[0].BaseTrials)
				}
			}
			joined := strings.Join(notes, "\n")
			if (tc.note == "") != (joined == "") || !strings.Contains(joined, tc.note) {
				t.Errorf("notes %q, want one saying %q", notes, tc.note)
			}
		})
	}
}

// TestDifferentialsTestAllocationOnStoredSamples: a side whose every
// profiled trial stored its allocation samples gives allocation frames a P;
// one trial without them leaves the frames untested.
func TestDifferentialsTestAllocationOnStoredSamples(t *testing.T) {
	stacks := map[string]profile.Folded{"run-workloadc-p00": {"rpc;get": 100}, "run-workloadc-p01": {"rpc;get": 100}}
	count := func(m *results.Manifest, alloc profile.Folded, ids ...string) *results.Manifest {
		for _, id := range ids {
			samples := profile.Folded{}
			for s, w := range alloc {
				samples[s] = w >> 16
			}
			if err := profile.WriteFoldedFile(results.ProfileFile(m.Dir, id, string(profile.Alloc)), alloc); err != nil {
				t.Fatal(err)
			}
			if err := profile.WriteFoldedFile(results.ProfileFile(m.Dir, id, string(profile.AllocSamples)), samples); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	base := profile.Folded{"a;b": 100 << 16}
	grown := profile.Folded{"a;b": 100 << 16, "a;c": 100 << 16}
	for _, tc := range []struct {
		name   string
		bm, cm *results.Manifest
		wantP  bool
	}{
		{"every trial counted", count(profiledManifest(t, stacks), base, "run-workloadc-p00", "run-workloadc-p01"),
			count(profiledManifest(t, stacks), grown, "run-workloadc-p00", "run-workloadc-p01"), true},
		{"one trial not counted", count(profiledManifest(t, stacks), base, "run-workloadc-p00"),
			count(profiledManifest(t, stacks), grown, "run-workloadc-p00", "run-workloadc-p01"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, notes := Differentials(tc.bm, tc.cm)
			if len(ps) != 1 || ps[0].Alloc.Diff == nil {
				t.Fatalf("profiles %+v, notes %q: want one with an allocation differential", ps, notes)
			}
			d := ps[0].Alloc.Diff
			if d.HasP() != tc.wantP {
				t.Errorf("allocation frames %+v: HasP %v, want %v", d.Frames, d.HasP(), tc.wantP)
			}
			if tc.wantP && (d.Frames[0].Frame != "c" || d.Frames[0].P > profile.FrameAlpha) {
				t.Errorf("allocation frames %+v: want c on top with a P that passes", d.Frames)
			}
		})
	}
}

func TestVoteOfNamesTheBuildsAndTheMachine(t *testing.T) {
	bm := &results.Manifest{Version: "2.6.1", JarChecksums: map[string]string{"b.jar": "2", "a.jar": "1"}}
	cm := &results.Manifest{Version: "2.6.2", Label: "2.6.2RC1", JarChecksums: map[string]string{"a.jar": "1", "b.jar": "2"},
		Environment: results.Environment{Cores: 2, MemoryBytes: 8 << 30, OS: "linux 6.1",
			JDKParts: &results.JDK{Version: "17.0.15", Major: 17, Java: "/usr/lib/jvm/java-1.17.0-openjdk-amd64/bin/java"}}}
	c := &compare.Comparison{Metrics: []compare.MetricResult{
		{Workload: "workloadc", Op: "READ", Metric: "p95", Gated: true, Detectable: 0.08},
		{Workload: "workloadc", Op: compare.OpAll, Metric: "cpu_per_op", Gated: true, Detectable: 0.04},
		{Workload: "workloadc", Op: "READ", Metric: "p50", Detectable: 0.01},
	}}
	v := voteOf(bm, cm, c, "r/report.html")
	if v.Candidate.Version != "2.6.2RC1 (2.6.2)" || v.Baseline.Version != "2.6.1" {
		t.Errorf("versions %q, %q", v.Candidate.Version, v.Baseline.Version)
	}
	if v.Candidate.JarDigest == "" || v.Candidate.JarDigest != v.Baseline.JarDigest {
		t.Errorf("the same jars give digests %q and %q", v.Candidate.JarDigest, v.Baseline.JarDigest)
	}
	if v.Machine != "2 cores, 8 GiB, linux 6.1" || v.JDK != "17.0.15" || v.Report != "r/report.html" {
		t.Errorf("machine %q, JDK %q, report %q", v.Machine, v.JDK, v.Report)
	}
	if len(v.Detectable) != 2 || v.Detectable[0].Metric != "workloadc cpu_per_op" || v.Detectable[1].Metric != "workloadc READ p95" {
		t.Errorf("detectable %+v: want the gated metrics, most sensitive first", v.Detectable)
	}
	if jarDigest(nil) != "" {
		t.Error("no jars recorded gave a digest")
	}
}

func TestProfileFlagOverridesTheSuite(t *testing.T) {
	on, off := true, false
	for _, tc := range []struct {
		flag  *bool
		suite bool
		want  bool
	}{{nil, true, true}, {nil, false, false}, {&off, true, false}, {&on, false, true}} {
		if got := (&Options{Profile: tc.flag}).profileOn(tc.suite); got != tc.want {
			t.Errorf("flag %v, suite %v: profile %v, want %v", tc.flag, tc.suite, got, tc.want)
		}
	}
}

// servletManifest is a manifest whose run "run" profiled workloadc through
// the info servers' /prof: CPU stacks only, stored as runner.keep stores
// them, with a ProfileMeta naming async-profiler (1000 operations).
func servletManifest(t *testing.T, cpu profile.Folded) *results.Manifest {
	t.Helper()
	m := &results.Manifest{Dir: t.TempDir(), Trials: []results.Trial{{ID: "run-workloadc-p00", RunID: "run", Workload: "workloadc", Ops: map[string]results.OpStats{"READ": {Count: 1000}}}}}
	const id = "run-workloadc-profile"
	if err := profile.WriteFoldedFile(results.ProfileFile(m.Dir, id, string(profile.CPU)), cpu); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(results.ProfileMeta{ID: id, RunID: "run", Workload: "workloadc", Ops: 1000, Profiler: results.ProfilerServlet})
	if err := os.WriteFile(results.ProfileMetaFile(m.Dir, id), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDifferentialsOfServletProfiles: stacks from /prof give the CPU
// differential as JFR's do, no allocation differential (a note says why),
// and a heading naming the profiler; a JFR side against an async-profiler
// side is named too, with a note on what differs.
func TestDifferentialsOfServletProfiles(t *testing.T) {
	const burn = "org.regress.testdata.SlowGetObserver.burn"
	base := profile.Folded{"rpc;get": 100, "start_thread;G1ParTask::work": 10}
	cand := profile.Folded{"rpc;get": 100, "rpc;get;" + burn: 80, "start_thread;G1ParTask::work": 10}
	for _, tc := range []struct {
		name       string
		bm         *results.Manifest
		source     string
		mixedNote  bool
		allocNoted bool
	}{
		{"both through /prof", servletManifest(t, base), "async-profiler through /prof on every region server", false, true},
		{"JFR against /prof", profiledManifest(t, map[string]profile.Folded{"run-workloadc-profile": base}), "JFR on the baseline, async-profiler through /prof on the candidate", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, notes := Differentials(tc.bm, servletManifest(t, cand))
			if len(ps) != 1 {
				t.Fatalf("%d profiles (notes %q), want 1", len(ps), notes)
			}
			p := ps[0]
			if d := p.CPU.Diff; d == nil || len(d.Frames) == 0 || d.Frames[0].Frame != burn || d.BaseOps != 1000 {
				t.Errorf("CPU differential %+v, want %s on top over 1000 operations", d, burn)
			}
			if p.Alloc.Diff != nil || p.Source != tc.source {
				t.Errorf("allocation differential %v, source %q: want none, and %q", p.Alloc.Diff, p.Source, tc.source)
			}
			joined := strings.Join(notes, "\n")
			if strings.Contains(joined, "no alloc differential: profiles through the info servers' /prof hold CPU stacks only") != tc.allocNoted ||
				strings.Contains(joined, "compare the Java frames") != tc.mixedNote {
				t.Errorf("notes %q", notes)
			}
		})
	}
}

// TestDifferentialsReadAnEmptyWaitFileAsNoWaits: a candidate whose stored
// waits are empty files (its request threads waited above JFR's threshold
// not once in the pair) is compared as having waited for nothing, with
// each frame's P from the events; no note calls its waits unrecorded.
func TestDifferentialsReadAnEmptyWaitFileAsNoWaits(t *testing.T) {
	stacks := map[string]profile.Folded{"run-workloadc-profile": {"rpc;get": 100}}
	waits := func(m *results.Manifest, wait, events profile.Folded) *results.Manifest {
		const id = "run-workloadc-profile"
		for kind, f := range map[profile.Kind]profile.Folded{profile.Wait: wait, profile.WaitCount: events} {
			if err := profile.WriteFoldedFile(results.ProfileFile(m.Dir, id, string(kind)), f); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	bm := waits(profiledManifest(t, stacks), profile.Folded{"[lock];rpc;get": 40_000}, profile.Folded{"[lock];rpc;get": 40})
	cm := waits(profiledManifest(t, stacks), profile.Folded{}, profile.Folded{})
	if fi, err := os.Stat(results.ProfileFile(cm.Dir, "run-workloadc-profile", string(profile.Wait))); err != nil || fi.Size() != 0 {
		t.Fatalf("the candidate's wait file is not there empty: %v", err)
	}
	ps, notes := Differentials(bm, cm)
	if len(ps) != 1 || len(notes) != 0 {
		t.Fatalf("profiles %+v, notes %q: want one workload's, no note", ps, notes)
	}
	d := ps[0].Wait.Diff
	if d == nil || d.CandTotal != 0 || d.BaseTotal != 40_000 || len(d.Frames) == 0 {
		t.Fatalf("wait differential %+v: want the baseline's 40 ms against none", d)
	}
	if f := d.Frames[0]; f.Self.Delta() >= 0 || f.P <= 0 || f.P > profile.FrameAlpha {
		t.Errorf("frame %+v: want it shrunk to nothing with a P within %g", f, profile.FrameAlpha)
	}
}
