package main

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/ycsbfmt"
)

func writeProps(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "w.properties")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestYCSBBadArgumentsExit2(t *testing.T) {
	wl := writeProps(t, "recordcount=100\noperationcount=100\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ycsb", "run", "--zk", "h:1", "-P"}, "-P needs a value"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-P", "/no/such/file"}, "/no/such/file"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-p", "novalue"}, "key=value"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-x"}, "unknown option -x"},
		{[]string{"ycsb", "run", "--zk", "h:1", "stray"}, `unexpected argument "stray"`},
		{[]string{"ycsb", "run", "-db", "site.ycsb.db.MongoDbClient"}, "only HBase"},
		{[]string{"ycsb", "run", "-load"}, "-load contradicts"},
		{[]string{"ycsb", "load", "-t"}, "-t contradicts"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-P", wl}, "columnfamily is not set"},
		{[]string{"ycsb", "create-table", "--zk", "h:1"}, "columnfamily is not set"},
		{[]string{"ycsb", "create-table", "--zk", "h:1", "-p", "columnfamily=f", "-p", "regions=4"}, "needs recordcount"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-P", wl, "-p", "columnfamily=f", "-threads", "x"}, "threadcount=x in -threads"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-P", wl, "-p", "columnfamily=f", "-p", "measurement.interval=all"}, "measurement.interval=all"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-P", wl, "-p", "columnfamily=f", "-p", "durability=NONE"}, "durability=NONE"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-P", wl, "-p", "columnfamily=f", "-p", "measurementtype=timeseries"}, "only hdrhistogram"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-P", wl, "-p", "columnfamily=f", "-p", "operationcount=0"}, "never end"},
		{[]string{"ycsb", "run", "--zk", "h:1", "-P", wl, "-p", "columnfamily=f", "-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path=/no/such/dir/"}, "does not exist"},
		{[]string{"ycsb", "run", "-P", wl, "-p", "columnfamily=f"}, "--zk HOST:PORT is required"},
		{[]string{"ycsb", "run", "--zk", "127.0.0.1:1", "-P", wl, "-p", "columnfamily=f"}, "cannot reach HBase"},
	} {
		out, _, err := runCLI(t, tc.args...)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want exit 2 mentioning %q", tc.args[1:], err, tc.want)
		}
		if out != "" {
			t.Errorf("%v: stdout %q, want nothing", tc.args[1:], out)
		}
	}
}

func TestYCSBHelpDocumentsIntendedLatency(t *testing.T) {
	out, _, err := runCLI(t, "ycsb", "run", "--help")
	if err != nil || !strings.Contains(out, "measurement.interval=both") || !strings.Contains(out, "-threads N") {
		t.Errorf("help: %v\n%s", err, out)
	}
}

// field returns the value of a "[NAME], label, value" line.
func field(t *testing.T, out, name, label string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\[` + regexp.QuoteMeta(name) + `\], ` + regexp.QuoteMeta(label) + `, (.*)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no [%s], %s line in:\n%s", name, label, out)
	}
	return m[1]
}

// TestYCSBMustShow reproduces issue 4's Must show against a real HBase:
// create-table, load 5000 rows, then 10000 workload C reads with 8 threads
// at 500 ops/s, whose output must show every read OK and the target held.
func TestYCSBMustShow(t *testing.T) {
	c := clustertest.Start(t)
	zk := c.ZKAddr()
	wlc := filepath.Join("..", "..", "..", "scenarios", "workloadc")
	hdrDir := t.TempDir()

	out, _, err := runCLI(t, "ycsb", "create-table", "--zk", zk, "-p", "columnfamily=family", "-p", "regions=4", "-P", wlc, "-p", "recordcount=5000")
	if err != nil || !strings.Contains(out, "created table usertable, column family family, 4 regions\n") {
		t.Fatalf("create-table: %v\n%s", err, out)
	}
	if _, _, err := runCLI(t, "ycsb", "create-table", "--zk", zk, "-p", "columnfamily=family"); exitCode(err) != exitUsage || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("second create-table: %v, want exit 2 saying the table exists", err)
	}
	if _, _, err := runCLI(t, "ycsb", "load", "--zk", zk, "-P", wlc, "-p", "columnfamily=family", "-p", "table=nosuchtable"); exitCode(err) != exitUsage || !strings.Contains(err.Error(), "create-table") {
		t.Errorf("load into a missing table: %v, want exit 2 pointing at create-table", err)
	}

	// A load whose rows fail (here: a family the table lacks) prints its
	// figures but fails, since the data set is incomplete.
	out, errOut, err := runCLI(t, "ycsb", "load", "--zk", zk, "-P", wlc, "-p", "columnfamily=nosuchfamily", "-p", "recordcount=20")
	if exitCode(err) != exitRunFailed || field(t, out, "INSERT", "Return=ERROR") != "20" || !strings.Contains(errOut, "operations failed") || !strings.Contains(errOut, "failed=20") {
		t.Errorf("load into a missing family: %v, stderr %q, stdout:\n%s", err, errOut, out)
	}

	out, _, err = runCLI(t, "ycsb", "load", "--zk", zk, "-P", wlc, "-p", "columnfamily=family", "-p", "recordcount=5000", "-threads", "4")
	if err != nil {
		t.Fatalf("load: %v\n%s", err, out)
	}
	if ops, ok := field(t, out, "INSERT", "Operations"), field(t, out, "INSERT", "Return=OK"); ops != "5000" || ok != "5000" {
		t.Fatalf("load: %s inserts, %s OK; want 5000 each:\n%s", ops, ok, out)
	}

	out, errOut, err = runCLI(t, "ycsb", "run", "--zk", zk, "-P", wlc, "-p", "columnfamily=family", "-p", "operationcount=10000",
		"-threads", "8", "-target", "500", "-s", "-p", "status.interval=5", "-p", "measurement.interval=both",
		"-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path="+hdrDir+"/")
	if err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out, errOut)
	}
	t.Logf("run output:\n%s", out)
	ops, ok := field(t, out, "READ", "Operations"), field(t, out, "READ", "Return=OK")
	if ops != "10000" || ok != ops {
		t.Errorf("[READ] Operations %s, Return=OK %s: want both 10000", ops, ok)
	}
	if strings.Contains(out, "Return=NOT_FOUND") || strings.Contains(out, "Return=ERROR") {
		t.Errorf("reads of loaded rows failed or found nothing:\n%s", out)
	}
	if field(t, out, "Intended-READ", "Operations") != "10000" {
		t.Errorf("measurement.interval=both printed no full [Intended-READ] block:\n%s", out)
	}

	runs, err := ycsbfmt.ParseText("run", strings.NewReader(out))
	if err != nil || len(runs) != 1 {
		t.Fatalf("our output does not read back: %v (%d runs)", err, len(runs))
	}
	if tput := runs[0].ThroughputOpsPerSec; math.Abs(tput-500)/500 > 0.02 {
		t.Errorf("[OVERALL] Throughput(ops/sec) %v, want within 2%% of 500", tput)
	}
	if strings.Contains(errOut, "TARGET NOT HELD") {
		t.Errorf("a 500 ops/s run warned that it missed its target:\n%s", errOut)
	}
	// Status lines: one at the start, about one per 5 s of a 20 s run, one at the end.
	status := regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3} \d+ sec: \d+ operations; .*\[READ: Count=\d+, Max=\d+, Min=\d+, Avg=[\d.]+, 50=\d+, 90=\d+, 99=\d+, 99\.9=\d+, 99\.99=\d+\] \[Intended-READ: Count=`)
	if n := len(status.FindAllString(errOut, -1)); n < 4 {
		t.Errorf("%d status lines with READ figures on stderr, want at least 4:\n%s", n, errOut)
	}
	// A target one thread cannot reach is reported plainly, and the run still prints its figures.
	out, errOut, err = runCLI(t, "ycsb", "run", "--zk", zk, "-P", wlc, "-p", "columnfamily=family", "-p", "operationcount=1000", "-threads", "1", "-target", "50000")
	if err != nil || !strings.Contains(errOut, "TARGET NOT HELD") || field(t, out, "READ", "Return=OK") != "1000" {
		t.Errorf("overloaded run: %v; stderr %q; stdout:\n%s", err, errOut, out)
	}
	for _, name := range []string{"READ", "Intended-READ"} {
		runs, err := ycsbfmt.ReadFile(filepath.Join(hdrDir, name+".hdr"))
		if err != nil {
			t.Fatalf("%s.hdr: %v", name, err)
		}
		o := runs[0].Ops["READ"]
		if o != nil && o.Intended != nil {
			o = o.Intended
		}
		if o == nil || o.Count != 10000 {
			t.Errorf("%s.hdr holds %+v, want 10000 reads", name, o)
		}
	}
}
