package ycsbmode

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/fault"
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

// TestRunSettingsRefusedBeforeConnecting: settings that could only fail once
// the run is over (an exportfile that is a directory or lies in none: the
// run's report lost) or that YCSB's binding would refuse at connect time
// (a relative znode parent, said as "cannot reach HBase") are usage errors
// before anything connects. Issue 29's second probe round.
func TestRunSettingsRefusedBeforeConnecting(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		prop, want string
	}{
		{"exportfile=" + dir, "is a directory"},
		{"exportfile=" + filepath.Join(dir, "no", "such", "out.txt"), "does not exist"},
		{"zookeeper.znode.parent=hbase", "an absolute path such as /hbase"},
		{"zookeeper.znode.parent=", "an absolute path such as /hbase"},
	} {
		a, err := ParseArgs(Run, []string{"--zk", "h:1", "-p", "columnfamily=f", "-p", tc.prop})
		if err != nil {
			t.Fatalf("%s: %v", tc.prop, err)
		}
		if _, err := readPhase(Run, a); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("-p %s: %v, want an error saying %q", tc.prop, err, tc.want)
		}
	}
	a, err := ParseArgs(Run, []string{"--zk", "h:1", "-p", "columnfamily=f", "-p", "recordcount=10", "-p", "operationcount=10", "-p", "exportfile=" + filepath.Join(dir, "out.txt"), "-p", "zookeeper.znode.parent=/hbase-unsecure"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readPhase(Run, a); err != nil {
		t.Errorf("a new exportfile in an existing directory and an absolute znode: %v, want them accepted", err)
	}
}

// TestInterruptedConnectIsAnInterruptedPhase: SIGINT while a ZooKeeper that
// accepts but never answers was waited for said "cannot reach HBase ... is it
// running?" with exit 2; the docs' exit codes give 3 to an interrupted phase.
func TestInterruptedConnectIsAnInterruptedPhase(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { <-done; c.Close() }()
		}
	}()
	a, err := ParseArgs(Run, []string{"--zk", l.Addr().String(), "-p", "columnfamily=f"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	_, err = a.connect(ctx, Run, io.Discard)
	var re *fault.RunError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("connect interrupted: %v, want a run error (exit 3) saying it was interrupted", err)
	}
}
