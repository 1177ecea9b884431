package ycsbmode

import (
	"os"
	"path/filepath"
	"testing"
)

func writeProps(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "w.properties")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseYCSBArgsPrecedenceAsYCSB(t *testing.T) {
	f1 := writeProps(t, "recordcount=10\nthreadcount=2\ntable=a\n")
	f2 := writeProps(t, "recordcount=20\ntarget=100\n")
	// -p and -threads win over every file whatever their position; later files win over earlier.
	a, err := ParseArgs(Run, []string{"-p", "table=cli", "-threads", "8", "-P", f1, "--zk", "h:1", "-P", f2, "-target", "500", "-s", "-l", "x: ", "-db", "site.ycsb.db.hbase2.HBaseClient2", "-t"})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"recordcount": "20", "table": "cli", "threadcount": "8", "target": "500"} {
		if got := a.props.String(k, ""); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if a.zk != "h:1" || !a.status || a.label != "x: " {
		t.Errorf("zk %q status %v label %q", a.zk, a.status, a.label)
	}
	if a, err := ParseArgs(Load, []string{"--zk=h:2", "-load"}); err != nil || a.zk != "h:2" {
		t.Errorf("--zk=h:2 -load: %v, %v", a, err)
	}
}

// TestLogFormatIsTheGlobalFlag: the ycsb commands take the global
// --log-format among their own flags, as the CLI reads it, in either form.
func TestLogFormatIsTheGlobalFlag(t *testing.T) {
	for _, args := range [][]string{{"--zk", "h:1", "--log-format", "json"}, {"--log-format=json", "--zk", "h:1"}} {
		if got := LogFormatArg(args); got != "json" {
			t.Errorf("LogFormatArg(%q) = %q, want json", args, got)
		}
		if a, err := ParseArgs(Run, args); err != nil || a.zk != "h:1" {
			t.Errorf("ParseArgs(%q) = %+v, %v; want --log-format taken and --zk read", args, a, err)
		}
	}
	if got := LogFormatArg([]string{"--zk", "h:1"}); got != "" {
		t.Errorf("LogFormatArg without the flag = %q", got)
	}
}
