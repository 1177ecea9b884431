package ycsbfmt

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestStatusLinesHaveYCSBShape(t *testing.T) {
	start := time.Date(2026, 11, 30, 18, 0, 0, 0, time.Local)
	var b bytes.Buffer
	s := NewStatus(&b, "", start, 10000)
	s.Print(start, 0)
	s.Add("Intended-READ", histOf(spread(200, 250, 10)...)) // the interval log has intended first; YCSB prints it last
	s.Add("READ", histOf(spread(100, 200, 10)...))
	// Two ticks merge into one line's figures: the 90th of the 200 values is
	// the 180th, 10 from 200..290 then 85 pairs from 300 on: 1140.
	s.Add("READ", histOf(spread(100, 300, 10)...))
	s.Print(start.Add(10*time.Second+4*time.Millisecond), 5000)
	s.Print(start.Add(20*time.Second+8*time.Millisecond), 10000)
	want := []string{
		"2026-11-30 18:00:00:000 0 sec: 0 operations; est completion in 0 second",
		"2026-11-30 18:00:10:004 10 sec: 5000 operations; 499.8 current ops/sec; est completion in 11 seconds " +
			"[READ: Count=200, Max=1290, Min=200, Avg=745, 50=740, 90=1140, 99=1270, 99.9=1290, 99.99=1290] " +
			"[Intended-READ: Count=200, Max=2241, Min=250, Avg=1245.1, 50=1240, 90=2040, 99=2221, 99.9=2241, 99.99=2241]",
		// An idle measurement keeps its place with zeros, as YCSB's do; done, so no estimate.
		"2026-11-30 18:00:20:008 20 sec: 10000 operations; 499.8 current ops/sec; " +
			"[READ: Count=0, Max=0, Min=0, Avg=0, 50=0, 90=0, 99=0, 99.9=0, 99.99=0] " +
			"[Intended-READ: Count=0, Max=0, Min=0, Avg=0, 50=0, 90=0, 99=0, 99.9=0, 99.99=0]",
	}
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), b.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

func TestStatusLabelAndUnknownTotal(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	s := NewStatus(&bytes.Buffer{}, "exp1: ", start, 0)
	got := s.Line(start.Add(1500*time.Millisecond), 30)
	if want := "exp1: 2026-01-02 03:04:06:500 1 sec: 30 operations; 20 current ops/sec;"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestStatusKeepsFirstWriteError(t *testing.T) {
	s := NewStatus(failWriter{}, "", time.Now(), 0)
	s.Print(time.Now(), 0)
	s.Print(time.Now(), 1)
	if err := s.Err(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Err() = %v, want the write error", err)
	}
}

func TestRemainingFormatsLikeYCSB(t *testing.T) {
	for secs, want := range map[int64]string{0: "0 second ", 5: "5 second ", 59: "59 seconds ", 60: "1 minute ", 61: "1 minute ",
		150: "2 minutes ", 3700: "1 hour 1 minute ", 7200: "2 hours ", 90000: "1 day 1 hour ", 2*86400 + 120: "2 days "} {
		if got := remaining(secs); got != want {
			t.Errorf("remaining(%d) = %q, want %q", secs, got, want)
		}
	}
}

func TestDecimal2(t *testing.T) {
	for f, want := range map[float64]string{0: "0", 499.80007996801: "499.8", 1245.055: "1245.06", 12: "12", 0.005: "0.01", 2.675: "2.67"} {
		if got := decimal2(f); got != want {
			t.Errorf("decimal2(%v) = %q, want %q", f, got, want)
		}
	}
}
