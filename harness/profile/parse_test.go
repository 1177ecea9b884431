package profile

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func parseFixture(t *testing.T, name string) *Profile {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := ParseJSON(f)
	if err != nil {
		t.Fatalf("ParseJSON(%s): %v", name, err)
	}
	return p
}

// burn17.json is six events of a real JDK 17 recording of a program that
// spins in Burn.burnCpu and allocates in Burn.alloc, printed by
// `jfr print --json --stack-depth 64`.
func TestParseJSONRealJDK17Fixture(t *testing.T) {
	p := parseFixture(t, "burn17.json")
	if got := p.CPU.Total(); got != 4 {
		t.Errorf("CPU samples = %d, want 4 (3 in Burn.burnCpu, 1 elsewhere)", got)
	}
	if got := p.CPU["Burn.main;Burn.burnCpu"]; got != 3 {
		t.Errorf("CPU[Burn.main;Burn.burnCpu] = %d, want 3; stacks: %v", got, p.CPU)
	}
	// The main thread's first sample weighs 6714304 bytes, all it had
	// allocated since it started; only its second counts.
	if got, want := p.Alloc["Burn.main;Burn.alloc"], int64(176816); got != want {
		t.Errorf("Alloc[Burn.main;Burn.alloc] = %d, want %d; stacks: %v", got, want, p.Alloc)
	}
	if want := (Folded{"Burn.main;Burn.alloc": 1}); !reflect.DeepEqual(p.AllocSamples, want) {
		t.Errorf("AllocSamples = %v, want %v: one count a sample folded, the skipped first none", p.AllocSamples, want)
	}
	if p.AllocSkipped != 6714304 {
		t.Errorf("AllocSkipped = %d, want the first sample's 6714304", p.AllocSkipped)
	}
	if p.AllocEvent != EventAllocSample {
		t.Errorf("AllocEvent = %q, want %q", p.AllocEvent, EventAllocSample)
	}
	for s := range p.CPU {
		if strings.Contains(s, "/") || strings.Contains(s, " ") {
			t.Errorf("stack %q keeps a JVM internal name or a blank", s)
		}
	}
}

// tlab11.json is hand-written in JDK 11's shape: no sampled allocation
// event, so the TLAB events weigh allocations; it carries a lambda, a
// generated accessor, a truncated stack, a quoted number and a missing stack.
func TestParseJSONTLABFixture(t *testing.T) {
	p := parseFixture(t, "tlab11.json")
	wantAlloc := Folded{
		"java.lang.Thread.run;org.apache.hadoop.hbase.regionserver.RSRpcServices$$Lambda.apply;org.apache.hadoop.hbase.io.ByteBuffAllocator.allocate": 524288,
		TruncatedFrame + ";java.lang.Thread.run;jdk.internal.reflect.GeneratedMethodAccessor.invoke":                                                  1048592,
	}
	if !reflect.DeepEqual(p.Alloc, wantAlloc) {
		t.Errorf("Alloc = %v, want %v", p.Alloc, wantAlloc)
	}
	for st := range wantAlloc {
		if p.AllocSamples[st] != 1 {
			t.Errorf("AllocSamples[%s] = %d, want 1: each TLAB event is one count", st, p.AllocSamples[st])
		}
	}
	if want := (Folded{"java.lang.Thread.run;java.lang.invoke.LambdaForm$MH.invoke": 1}); !reflect.DeepEqual(p.CPU, want) {
		t.Errorf("CPU = %v, want %v", p.CPU, want)
	}
	if p.Truncated != 1 || !strings.Contains(p.AllocEvent, EventAllocNewTLAB) {
		t.Errorf("Truncated = %d, AllocEvent = %q; want 1 and the TLAB events", p.Truncated, p.AllocEvent)
	}
}

func TestParseJSONRejectsWhatIsNotJfrOutput(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "not jfr print --json output"},
		{"array", "[]", "found [ where {"},
		{"other object", `{"foo": 1}`, "found foo where recording"},
		{"cut short", `{"recording": {"events": [{"type": "jdk.ExecutionSample", "values": {`, "event 1"},
		{"no end", `{"recording": {"events": [`, "does not end"},
		{"bad weight", `{"recording": {"events": [{"type": "jdk.ObjectAllocationSample", "values": {"weight": "lots"}}]}}`, "not a number"},
		{"frames not a list", `{"recording": {"events": [{"type": "jdk.ExecutionSample", "values": {"stackTrace": {"frames": 3}}}]}}`, "event 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseJSON(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseJSON(%q) error = %v, want one saying %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestFrameNameMatchesGeneratedClassesAcrossRuns(t *testing.T) {
	for _, tc := range []struct{ class, method, want string }{
		{"java/util/ArrayList", "iterator", "java.util.ArrayList.iterator"},
		{"a/B$$Lambda$123/0x0000000800c0b000", "run", "a.B$$Lambda.run"},
		{"a/B$$Lambda$124.0x0000000800c0c000", "run", "a.B$$Lambda.run"},
		{"a/B$$Lambda/0x00007f0000123400", "run", "a.B$$Lambda.run"}, // JDK 21's shape
		// JDK 17's jfr, from testdata/burn17.json: the dotted name, the
		// address after "+", the identity hash after "/". Read before as
		// the frame "1536882624.run".
		{"jdk.internal.platform.CgroupUtil$$Lambda$62+0x00007f5ba802b018/1536882624", "run", "jdk.internal.platform.CgroupUtil$$Lambda.run"},
		{"org.apache.hadoop.hbase.http.PrometheusHadoopServlet$$Lambda$1234+0x0000000800c3d440/1852655488", "get", "org.apache.hadoop.hbase.http.PrometheusHadoopServlet$$Lambda.get"},
		// JDK 11: an anonymous class, the identity hash alone after "/".
		{"org/apache/hadoop/hbase/regionserver/HRegion$$Lambda$512/1852655488", "apply", "org.apache.hadoop.hbase.regionserver.HRegion$$Lambda.apply"},
		{"java/lang/invoke/LambdaForm$MH/1852655488", "invoke", "java.lang.invoke.LambdaForm$MH.invoke"},
		{"java.lang.invoke.LambdaForm$MH+0x0000000800c01000/99", "invoke", "java.lang.invoke.LambdaForm$MH.invoke"},
		{"a/B$Proxy$ByteBuddy+0x00007f000012a0ef", "call", "a.B$Proxy$ByteBuddy.call"}, // a hidden class ending in a hex letter
		// A lambda's body: javac's number goes, the method that wrote it stays.
		{"org/apache/hadoop/hbase/regionserver/HRegion", "lambda$get$3", "org.apache.hadoop.hbase.regionserver.HRegion.lambda$get"},
		{"a/B", "lambda$null$0$1", "a.B.lambda$null"},
		{"a/B", "lambda$", "a.B.lambda$"},
		{"a/B", "lambda$9", "a.B.lambda$9"},
		{"java/util/Base64", "encode", "java.util.Base64.encode"}, // a class that ends in a digit keeps it
		{"a/B$1", "run", "a.B$1.run"},                             // an anonymous inner class keeps its number: javac's, not the JVM's
		{"java/lang/invoke/LambdaForm$MH/0x0000000800c01000", "invoke", "java.lang.invoke.LambdaForm$MH.invoke"},
		{"jdk/internal/reflect/GeneratedMethodAccessor42", "invoke", "jdk.internal.reflect.GeneratedMethodAccessor.invoke"},
		{"com/sun/proxy/$Proxy17", "get", "com.sun.proxy.$Proxy.get"},
		{"", "lost", "[unknown].lost"},
		{"odd;name", "with space", "odd:name.with_space"},
	} {
		if got := FrameName(tc.class, tc.method); got != tc.want {
			t.Errorf("FrameName(%q, %q) = %q, want %q", tc.class, tc.method, got, tc.want)
		}
	}
}

// TestParseJSONNamesJDK17LambdaByItsBody: the real recording's lambda
// frame, "CgroupUtil$$Lambda$62+0x00007f5ba802b018/1536882624.run", is
// stored without the JVM's numbers and shown as the method that wrote it.
func TestParseJSONNamesJDK17LambdaByItsBody(t *testing.T) {
	p := parseFixture(t, "burn17.json")
	const lambda = "jdk.internal.platform.CgroupUtil$$Lambda.run;jdk.internal.platform.CgroupUtil.lambda$readStringValue"
	var stack string
	for s := range p.CPU {
		if strings.Contains(s, lambda) {
			stack = s
		}
		for _, f := range strings.Split(s, ";") {
			if short := ShortFrame(f); short[0] >= '0' && short[0] <= '9' {
				t.Errorf("frame %q reads %q: a JVM's number for a class", f, short)
			}
		}
	}
	if stack == "" {
		t.Fatalf("no stack holds %s; stacks: %v", lambda, p.CPU)
	}
	i := strings.Index(stack, lambda)
	if got := ShortStack(stack[:i+len(lambda)], 2); got != "…;CgroupUtil.readStringValue (lambda);CgroupUtil.lambda$readStringValue" {
		t.Errorf("ShortStack = %q, want the lambda named CgroupUtil.readStringValue (lambda)", got)
	}
}

// TestReadFoldedMatchesLambdasStoredWithTheirNumbers: stacks stored before
// FrameName knew JDK 17's form hold each JVM's own numbers; read back, the
// two sides' lambda is one frame again.
func TestReadFoldedMatchesLambdasStoredWithTheirNumbers(t *testing.T) {
	in := "a.Thread.run;a.P$$Lambda+0x00007f5ba802b018.1536882624.get 10\n" +
		"a.Thread.run;a.P$$Lambda+0x0000000800c3d440.1852655488.get 5\n" +
		"a.Thread.run;a.P$$Lambda.get;a.P.lambda$get$3 2\n" +
		"a.Thread.run;a.Q.run 1\n"
	got, err := ReadFolded(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := Folded{"a.Thread.run;a.P$$Lambda.get": 15, "a.Thread.run;a.P$$Lambda.get;a.P.lambda$get": 2, "a.Thread.run;a.Q.run": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadFolded = %v, want %v", got, want)
	}
}

func TestFoldedRoundTripsAndRejectsBadLines(t *testing.T) {
	f := Folded{"a;b;c": 3, "a;b": 10, "x": 1}
	var b bytes.Buffer
	if _, err := f.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if want := "a;b 10\na;b;c 3\nx 1\n"; b.String() != want {
		t.Errorf("WriteTo = %q, want %q (sorted, one stack a line)", b.String(), want)
	}
	back, err := ReadFolded(&b)
	if err != nil || !reflect.DeepEqual(back, f) {
		t.Errorf("ReadFolded(WriteTo(f)) = %v, %v; want %v", back, err, f)
	}
	path := filepath.Join(t.TempDir(), "sub", "cpu.folded")
	if err := WriteFoldedFile(path, f); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "a;b 10\na;b;c 3\nx 1\n" {
		t.Errorf("WriteFoldedFile wrote %q", got)
	}
	for _, bad := range []string{"a;b", "a;b x", "a;b -1", " 5"} {
		if _, err := ReadFolded(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("ReadFolded(%q) error = %v, want one naming line 1", bad, err)
		}
	}
}

// FuzzParseJSON seeds with small inputs: with the fixtures (kilobytes of
// JSON) as seeds the fuzzer stalled at a few executions on this machine.
func TestMergeSumsRegionServers(t *testing.T) {
	got := Merge(Folded{"a;b": 2, "c": 1}, nil, Folded{"a;b": 3, "d": 4})
	if want := (Folded{"a;b": 5, "c": 1, "d": 4}); !reflect.DeepEqual(got, want) {
		t.Errorf("Merge = %v, want %v", got, want)
	}
	if got := Merge(); got == nil || len(got) != 0 {
		t.Errorf("Merge() = %v, want an empty profile", got)
	}
}

func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(`{"recording":{"events":[{"type":"jdk.ExecutionSample","values":{"stackTrace":{"frames":[{"method":{"type":{"name":"a/B"},"name":"c"}}]}}}]}}`))
	f.Add([]byte(`{"recording":{"events":[{"type":"jdk.ObjectAllocationInNewTLAB","values":{"tlabSize":"512","stackTrace":{"truncated":true,"frames":[{"method":{"type":{"name":"a/B$$Lambda$1/0x1"},"name":"c"}}]}}}]}}`))
	f.Add([]byte(`{"recording":{"events":[{"type":"jdk.NativeMethodSample","values":{"stackTrace":{"truncated":true,"frames":[{"method":{"type":{"name":"sun/nio/ch/EPoll"},"name":"wait"}},{"method":{"type":{"name":"org/apache/hadoop/hbase/ipc/CallRunner"},"name":"run"}}]}}}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseJSON(bytes.NewReader(b))
		if err == nil && (p.CPU == nil || p.Alloc == nil || p.NativeWait == nil) {
			t.Fatal("ParseJSON returned no error and a nil profile map")
		}
	})
}

func FuzzReadFolded(f *testing.F) {
	f.Add([]byte("a;b;c 3\nx 1\n"))
	f.Add([]byte("a.B$$Lambda$1+0x1f/2.get;a.B.lambda$c$1$2 3\n.0x1.m 1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ReadFolded(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := got.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		again, err := ReadFolded(&out)
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("folded %q did not round-trip: %v, %v vs %v", b, err, again, got)
		}
	})
}

// TestCanonicalFrameIsStable: a canonical name names itself, so a stored
// stack reads back under the key it was written with (the fuzzer's finds:
// a method ending in a space once its number went).
func TestCanonicalFrameIsStable(t *testing.T) {
	for _, in := range []string{".lambda$0 $0", ".lambda$$0 $0", ".lambda$\f$0", "a.B.lambda$get$3", "a.B$$Lambda$1/0x1f.get"} {
		once := CanonicalFrame(in)
		if twice := CanonicalFrame(once); twice != once || strings.TrimSpace(once) != once {
			t.Errorf("%q: %q, then %q", in, once, twice)
		}
	}
}
