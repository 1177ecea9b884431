package profile

import (
	"strings"
	"testing"
	"time"
)

// waitEvent is one `jfr print --json` event of type typ lasting dur, its
// stack given leaf first as "class/Name.method" frames.
func waitEvent(typ, dur string, frames ...string) string {
	var fs []string
	for _, f := range frames {
		i := strings.LastIndexByte(f, '.')
		fs = append(fs, `{"method":{"type":{"name":"`+f[:i]+`"},"name":"`+f[i+1:]+`"}}`)
	}
	return `{"type":"` + typ + `","values":{"duration":"` + dur + `","stackTrace":{"truncated":false,"frames":[` + strings.Join(fs, ",") + `]}}}`
}

// TestWaitsFoldRequestThreadsOnly: a handler's park inside a call is folded
// under the frame that waited (the JDK's park frames cut), weighted by its
// microseconds and counted; a handler idle on its queue (no CallRunner.run)
// and an event with no duration are not.
func TestWaitsFoldRequestThreadsOnly(t *testing.T) {
	call := []string{"org/regress/testdata/WaitObserver.waitFor", "org/apache/hadoop/hbase/ipc/CallRunner.run", "org/apache/hadoop/hbase/ipc/RpcHandler.run"}
	park := append([]string{"jdk/internal/misc/Unsafe.park", "java/util/concurrent/locks/LockSupport.parkNanos"}, call...)
	idle := []string{"jdk/internal/misc/Unsafe.park", "java/util/concurrent/LinkedBlockingQueue.take", "org/apache/hadoop/hbase/ipc/RpcHandler.run"}
	events := []string{
		waitEvent("jdk.ThreadPark", "PT0.000076S", park...),
		waitEvent("jdk.ThreadPark", "PT0.000080S", park...),
		waitEvent("jdk.ThreadPark", "PT0.5S", idle...),
		waitEvent("jdk.JavaMonitorEnter", "PT0.000100S", call...),
		waitEvent("jdk.ThreadPark", "", park...),
	}
	p, err := ParseJSON(strings.NewReader(`{"recording":{"events":[` + strings.Join(events, ",") + `]}}`))
	if err != nil {
		t.Fatal(err)
	}
	stack := "org.apache.hadoop.hbase.ipc.RpcHandler.run;org.apache.hadoop.hbase.ipc.CallRunner.run;org.regress.testdata.WaitObserver.waitFor"
	if got := p.Wait["[park];"+stack]; got != 156 {
		t.Errorf("parks under WaitObserver.waitFor: %d us, want 156; stacks %v", got, p.Wait)
	}
	if got := p.WaitCount["[park];"+stack]; got != 2 {
		t.Errorf("park events: %d, want 2", got)
	}
	if got := p.Wait["[javamonitorenter];"+stack]; got != 100 {
		t.Errorf("monitor enter: %d us, want 100; stacks %v", got, p.Wait)
	}
	if len(p.Wait) != 2 || p.Wait.Total() != 256 {
		t.Errorf("waits %v; want the two request stacks only (the idle handler's park left out)", p.Wait)
	}
}

func TestParseISODuration(t *testing.T) {
	for s, want := range map[string]time.Duration{
		"PT0.001480889S": 1480889 * time.Nanosecond, "PT1M2.5S": 62500 * time.Millisecond, "PT2H": 2 * time.Hour, "PT0S": 0,
	} {
		if got, ok := parseISODuration(s); !ok || got != want {
			t.Errorf("parseISODuration(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "PT", "P1D", "PT1X", "PTxS", "PT-1S", "0.5S"} {
		if _, ok := parseISODuration(s); ok {
			t.Errorf("parseISODuration(%q) accepted", s)
		}
	}
}

// TestFrameNamedNeedsTheWholeToGrow: a frame that grew while the whole
// profile did not (one JVM's JIT moving samples between methods) is not
// named, however small its P; a frame that grew with the whole is; a
// frame that grew more than the whole could have is not.
func TestFrameNamedNeedsTheWholeToGrow(t *testing.T) {
	ops := int64(10000)
	base := Folded{"a;Handler.run;Codec.read": 500, "a;Handler.run;RefCnt.check": 0, "a;Handler.run;Other.work": 1500}
	// A reshuffle: RefCnt.check 0 -> 260 samples, Other.work 1500 -> 1240.
	moved := Folded{"a;Handler.run;Codec.read": 500, "a;Handler.run;RefCnt.check": 260, "a;Handler.run;Other.work": 1240}
	d, err := Diff(CPU, Side{Stacks: base, Ops: ops}, Side{Stacks: moved, Ops: ops}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range d.Frames {
		if f.Frame == "RefCnt.check" && (f.P > FrameAlpha || d.FrameNamed(f)) {
			t.Errorf("a reshuffle: RefCnt.check p %.3g named %v (whole %+.3g..%+.3g); want significant but not named", f.P, d.FrameNamed(f), d.TotalLow, d.TotalHigh)
		}
	}
	// A cost: Burn.spin 0 -> 400 samples on top of everything else.
	cost := Folded{"a;Handler.run;Codec.read": 500, "a;Handler.run;Other.work": 1500, "a;Handler.run;Burn.spin": 400}
	d, err = Diff(CPU, Side{Stacks: base, Ops: ops}, Side{Stacks: cost, Ops: ops}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Frames) == 0 || d.Frames[0].Frame != "Burn.spin" || !d.FrameNamed(d.Frames[0]) {
		t.Errorf("a cost: frames %+v whole %+.3g..%+.3g; want Burn.spin first and named", d.Frames, d.TotalLow, d.TotalHigh)
	}
}

func TestWaitKindFirst(t *testing.T) {
	got := WaitKindFirst(Folded{"a;b;[park]": 3, "[park];a;b": 2, "a;c": 1})
	if len(got) != 2 || got["[park];a;b"] != 5 || got["a;c"] != 1 {
		t.Errorf("WaitKindFirst = %v", got)
	}
}
