package servercost

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGCPausesOfARealLog reads the pauses of a real HBase 2.6.1 region
// server's GC log (JDK 17, G1, the options GCLogOptions gives): every
// "Pause" line, young, remark and cleanup, and no concurrent phase.
func TestGCPausesOfARealLog(t *testing.T) {
	log, err := os.ReadFile("testdata/hbase-2.6.1-gc.log")
	if err != nil {
		t.Fatal(err)
	}
	got := gcPauses(log, "rs1")
	if want := strings.Count(string(log), ") Pause "); len(got) != want || want < 10 {
		t.Fatalf("%d pauses parsed, the log has %d pause lines", len(got), want)
	}
	for _, tc := range []struct {
		i      int
		endMs  int64
		d      time.Duration
		detail string
	}{
		{0, 1796182731308, 15913 * time.Microsecond, "Pause Young (Normal) (G1 Evacuation Pause)"},
		{len(got) - 3, 1796182735679, 10013 * time.Microsecond, "Pause Remark"},
		{len(got) - 2, 1796182735689, 225 * time.Microsecond, "Pause Cleanup"},
	} {
		e := got[tc.i]
		if e.Kind != EventGC || e.Duration != tc.d || !e.At.Add(e.Duration).Equal(time.UnixMilli(tc.endMs)) || e.Detail != tc.detail || e.Server != "rs1" {
			t.Errorf("pause %d: %+v, want %q of %v ending at %d ms", tc.i, e, tc.detail, tc.d, tc.endMs)
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i].At.Before(got[i-1].At) {
			t.Errorf("pause %d starts before pause %d", i, i-1)
		}
	}
}

// TestLogEventsOfARealLog reads a real HBase 2.6.1 log (a seed's regions
// opening, flushed and compacted): each kind's count as the lines say, a
// flush placed at its start by the time it logged, and the stamp read in
// the zone given.
func TestLogEventsOfARealLog(t *testing.T) {
	log, err := os.ReadFile("testdata/hbase-2.6.1-rs.log")
	if err != nil {
		t.Fatal(err)
	}
	got := logEvents(log, "rs1", time.UTC)
	n := map[EventKind]int{}
	for _, e := range got {
		n[e.Kind]++
	}
	text := string(log)
	want := map[EventKind]int{
		EventFlush:      strings.Count(text, "HRegion: Finished flush of"),
		EventCompaction: strings.Count(text, "HStore: Completed major compaction of") + strings.Count(text, "HStore: Completed compaction of"),
		EventMove:       strings.Count(text, "AssignRegionHandler: Opened"),
	}
	for k, w := range want {
		if n[k] != w || w == 0 {
			t.Errorf("%d %s events, the log has %d", n[k], k, w)
		}
	}
	if n[EventSplit] != 0 || len(got) != want[EventFlush]+want[EventCompaction]+want[EventMove] {
		t.Errorf("events %v, want only %v", n, want)
	}
	// 03:39:09,382 "... for d2f29ee5e0f5ba7d9f3e43f256139345 in 327ms, ..."
	var flush *Event
	for i := range got {
		if got[i].Kind == EventFlush {
			flush = &got[i]
			break
		}
	}
	end := time.Date(2026, 12, 2, 3, 39, 9, 382e6, time.UTC)
	if flush == nil || flush.Duration != 327*time.Millisecond || !flush.At.Equal(end.Add(-327*time.Millisecond)) ||
		!strings.HasPrefix(flush.Detail, "Finished flush of dataSize ~3.69 MB") {
		t.Errorf("first flush %+v, want 327ms ending at %v", flush, end)
	}
	if len(flush.Detail) > maxDetail+len("…") {
		t.Errorf("detail of %d bytes, want at most %d", len(flush.Detail), maxDetail)
	}
	east := time.FixedZone("UTC+2", 2*3600)
	if e := logEvents(log, "rs1", east); len(e) != len(got) || got[0].At.Sub(e[0].At) != 2*time.Hour {
		t.Errorf("the same log read in UTC+2 must place every event 2 h earlier in absolute time")
	}
}

// TestLogEventsOtherForms: the space-separated stamp of older log4j
// layouts, a split, and lines that are not events.
func TestLogEventsOtherForms(t *testing.T) {
	log := `2026-12-01 10:00:03,001 INFO  [PEWorker-1] procedure2.ProcedureExecutor: Finished pid=12, state=SUCCESS; SplitTableRegionProcedure table=t, parent=abc
2026-12-01 10:00:04,001 INFO  [RS_OPEN_REGION-regionserver/h:16020-0] handler.AssignRegionHandler: Opened t,,1.abc.
2026-12-01 10:00:05,001 INFO  [RpcServer] ipc.RpcServer: nothing of note
Finished flush of a line with no stamp
`
	got := logEvents([]byte(log), "hbase", time.UTC)
	if len(got) != 2 || got[0].Kind != EventSplit || got[1].Kind != EventMove || got[1].Detail != "Opened t,,1.abc." {
		t.Fatalf("events %+v, want a split and a move", got)
	}
	if !got[0].At.Equal(time.Date(2026, 12, 1, 10, 0, 3, 1e6, time.UTC)) {
		t.Errorf("split at %v", got[0].At)
	}
}

// TestTimelineOfAServer reads a window's stretch of both logs, and says
// "not known" for a server read through /jmx.
func TestTimelineOfAServer(t *testing.T) {
	dir := t.TempDir()
	gc, rs := filepath.Join(dir, "gc.log"), filepath.Join(dir, "rs.log")
	gcText, _ := os.ReadFile("testdata/hbase-2.6.1-gc.log")
	rsText, _ := os.ReadFile("testdata/hbase-2.6.1-rs.log")
	// Readings taken at a third and at the end of each log: the window holds what lies between.
	if err := os.WriteFile(gc, gcText, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rs, rsText, 0o644); err != nil {
		t.Fatal(err)
	}
	s := Server{Name: "rs1", PID: 1, GCLog: gc, Log: rs}
	a := Reading{gcLogAt: int64(len(gcText) / 3), logAt: int64(len(rsText) / 3)}
	b := Reading{gcLogAt: int64(len(gcText)), logAt: int64(len(rsText))}
	ev, ok := s.timeline(a, b)
	if !ok {
		t.Fatal("a local server's timeline not read")
	}
	wantGC := len(gcPauses(gcText[a.gcLogAt:], "rs1"))
	wantLog := len(logEvents(rsText[a.logAt:], "rs1", time.Local))
	if len(ev) != wantGC+wantLog || wantGC == 0 || wantLog == 0 || wantGC >= len(gcPauses(gcText, "")) {
		t.Errorf("%d events in the window, want %d pauses and %d log events after the first reading", len(ev), wantGC, wantLog)
	}
	merged, ok := MergeTimelines([]Cost{{Timeline: ev, TimelineRead: true}, {TimelineRead: true}})
	if !ok || len(merged) != len(ev) {
		t.Fatalf("merged %d events (ok %v), want %d", len(merged), ok, len(ev))
	}
	for i := 1; i < len(merged); i++ {
		if merged[i].At.Before(merged[i-1].At) {
			t.Fatalf("merged timeline out of order at %d", i)
		}
	}
	if _, ok := (Server{Name: "remote", JMX: "h:16030"}).timeline(Reading{jmx: &jmxEvents{}}, Reading{jmx: &jmxEvents{}}); ok {
		t.Error("a server read through /jmx claims a timeline")
	}
	if _, ok := MergeTimelines([]Cost{{TimelineRead: true}, {}}); ok {
		t.Error("a side with one server's timeline unknown claims the whole")
	}
}

// FuzzTimelineParsers: no log line makes the parsers panic, and every
// event they return has a kind and a non-negative duration.
func FuzzTimelineParsers(f *testing.F) {
	for _, p := range []string{"testdata/hbase-2.6.1-gc.log", "testdata/hbase-2.6.1-rs.log"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)])
	}
	f.Add([]byte("[99999999999999999999ms][gc] GC(1) Pause Young 1M->1M(2M) 1e309ms\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, e := range append(gcPauses(b, "x"), logEvents(b, "x", time.UTC)...) {
			if e.Kind == "" || e.Duration < 0 {
				t.Errorf("bad event %+v", e)
			}
		}
	})
}
