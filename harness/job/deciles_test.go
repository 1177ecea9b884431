package job

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
)

// writeTaggedHlog writes an interval log of two 1 s intervals from start,
// each tag's values split between them.
func writeTaggedHlog(t *testing.T, path string, start time.Time, values map[string][]int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := hdr.NewHistogramLogWriter(f)
	if err := w.OutputLogFormatVersion(); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		for _, tag := range []string{"READ.intended", "READ.service", "READ-FAILED.intended", "UPDATE.intended"} {
			h := hdr.New(1, 60_000_000, 3)
			vs := values[tag]
			for _, v := range vs[i*len(vs)/2 : (i+1)*len(vs)/2] {
				if err := h.RecordValue(v); err != nil {
					t.Fatal(err)
				}
			}
			h.SetTag(tag)
			h.SetStartTimeMs(start.UnixMilli() + int64(i)*1000)
			h.SetEndTimeMs(start.UnixMilli() + int64(i+1)*1000)
			if err := w.OutputIntervalHistogram(h); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// spread is n latencies evenly from lo to lo+n-1 µs, each times f.
func spread(n int, lo, f float64, above float64, by float64) []int64 {
	out := make([]int64, n)
	for i := range out {
		v := lo + float64(i)
		if v > above {
			v *= by
		}
		out[i] = int64(math.Round(v * f))
	}
	return out
}

// shiftStore stores pairs of trials of workloada whose READ latencies are
// 200..2199 µs on the baseline and the same on the candidate except that
// those above the baseline's p70 (1600 µs) are 20% slower; UPDATE is the
// same on both sides. Each pair has its own level (drift both sides share)
// and each candidate trial a small noise of its own, so the intervals have
// a width. skipLog leaves out the given pair's candidate log (-1: none).
func shiftStore(t *testing.T, pairs int, skipLog int) (*results.Store, *results.Manifest, *results.Manifest) {
	t.Helper()
	dir := t.TempDir()
	store, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	noise := []float64{-0.004, 0.002, 0.001, -0.001, 0.003, -0.002}
	var ms []*results.Manifest
	for side, version := range []string{"2.6.1", "2.6.2"} {
		m, err := store.Ensure(&results.Manifest{Version: version, Suite: results.SuiteInfo{Name: "s", Fingerprint: "0123456789abcdef"}})
		if err != nil {
			t.Fatal(err)
		}
		for pair := range pairs {
			level := 1 + 0.05*float64(pair%3) // drift both trials of a pair share
			f, by := level, 1.0
			if side == 1 {
				f, by = level*(1+noise[pair%len(noise)]), 1.2
			}
			values := map[string][]int64{
				"READ.intended":        spread(2000, 200, f, 1600, by),
				"READ.service":         spread(2000, 10, 1, 0, 1), // service time is not what is compared
				"READ-FAILED.intended": spread(20, 100000, 1, 0, 1),
				"UPDATE.intended":      spread(400, 1000, f, 0, 1),
			}
			tr := results.Trial{ID: fmt.Sprintf("r-workloada-p%02d", pair), RunID: "r", Workload: "workloada", Pair: pair, Order: (pair + side) % 2,
				Start: start.Add(time.Duration(pair) * time.Minute), DurationMillis: 2000,
				Ops: map[string]results.OpStats{"READ": {Count: 2020}, "UPDATE": {Count: 400}}}
			if side == 1 && pair == skipLog {
				if _, err := store.AppendTrial(results.KeyOf(m), tr, nil); err != nil {
					t.Fatal(err)
				}
				continue
			}
			hlog := filepath.Join(dir, "t.hlog")
			writeTaggedHlog(t, hlog, tr.Start, values)
			if _, err := store.AppendTrialFile(results.KeyOf(m), tr, hlog); err != nil {
				t.Fatal(err)
			}
		}
		if m, err = store.Load(results.KeyOf(m)); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return store, ms[0], ms[1]
}

// TestLatencyShiftsSeeTheTailAlone: a change of the upper deciles only is
// read as such: p10..p70 unchanged with intervals about 1, p80, p90 and p95
// 20% slower with intervals about 1.2; p99 is left out (2000 operations a
// trial hold 20 samples beyond it, 50 needed), UPDATE stops at p80 (400
// operations), and neither service time nor failures are read.
func TestLatencyShiftsSeeTheTailAlone(t *testing.T) {
	store, bm, cm := shiftStore(t, 6, -1)
	c := &compare.Comparison{Paired: true, LookAlpha: 0.025}
	shifts, notes := LatencyShifts(store, bm, cm, c)
	if len(notes) != 0 {
		t.Errorf("notes %q, want none", notes)
	}
	if len(shifts) != 2 || shifts[0].Op != "READ" || shifts[1].Op != "UPDATE" {
		t.Fatalf("shifts %+v, want READ and UPDATE of workloada", shifts)
	}
	want := func(op string, q []float64, slower float64) {
		t.Helper()
		var s report.LatencyShift
		for _, x := range shifts {
			if x.Op == op {
				s = x
			}
		}
		if s.Pairs != 6 || s.Alpha != 0.025 || s.Workload != "workloada" {
			t.Errorf("%s: %d pairs at alpha %g of %q, want 6 at 0.025 of workloada", op, s.Pairs, s.Alpha, s.Workload)
		}
		if len(s.Quantiles) != len(q) {
			t.Fatalf("%s: %d quantiles %+v, want %v", op, len(s.Quantiles), s.Quantiles, q)
		}
		for i, got := range s.Quantiles {
			exp := 1.0
			if got.Quantile > 0.7+1e-9 {
				exp = slower
			}
			if got.Quantile != q[i] {
				t.Errorf("%s quantile %d is %g, want %g", op, i, got.Quantile, q[i])
			}
			if math.Abs(got.Ratio/exp-1) > 0.003 {
				t.Errorf("%s p%g: ratio %.4f, want %.2f", op, 100*got.Quantile, got.Ratio, exp)
			}
			// The interval holds the shift and is as narrow as the candidate's 0.1-0.4% noise allows.
			if !(got.Low <= exp*1.001 && got.High >= exp*0.999) || got.High/got.Low > 1.02 || !(got.Low < got.Ratio && got.Ratio < got.High) {
				t.Errorf("%s p%g: interval [%.4f, %.4f] around %.4f, want a narrow one holding %.2f", op, 100*got.Quantile, got.Low, got.High, got.Ratio, exp)
			}
			if got.BaselineMicros <= 0 || math.Abs(got.CandidateMicros/got.BaselineMicros/got.Ratio-1) > 0.01 {
				t.Errorf("%s p%g: sides %.0f and %.0f µs do not make ratio %.3f", op, 100*got.Quantile, got.BaselineMicros, got.CandidateMicros, got.Ratio)
			}
		}
	}
	want("READ", []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95}, 1.2)
	want("UPDATE", []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}, 1)
}

// TestLatencyShiftsSayWhyNot: an unpaired comparison, a workload of one
// pair and a trial without its log give a note and no shift; a descriptive
// comparison gives neither.
func TestLatencyShiftsSayWhyNot(t *testing.T) {
	store, bm, cm := shiftStore(t, 3, 1)
	oneStore, one, oneC := shiftStore(t, 1, -1)
	for _, tc := range []struct {
		name     string
		store    *results.Store
		b, c     *results.Manifest
		cmp      compare.Comparison
		wantNote string
	}{
		{"unpaired", store, bm, cm, compare.Comparison{LookAlpha: 0.025}, "this comparison is unpaired"},
		{"descriptive", store, bm, cm, compare.Comparison{Descriptive: true}, ""},
		{"log missing", store, bm, cm, compare.Comparison{Paired: true, LookAlpha: 0.025}, "trial r-workloada-p01 stored no interval log"},
		{"one pair", oneStore, one, oneC, compare.Comparison{Paired: true, LookAlpha: 0.025}, "1 pair, and an interval needs 2 or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shifts, notes := LatencyShifts(tc.store, tc.b, tc.c, &tc.cmp)
			if len(shifts) != 0 {
				t.Errorf("%d shifts, want none", len(shifts))
			}
			switch {
			case tc.wantNote == "" && len(notes) != 0:
				t.Errorf("notes %q, want none", notes)
			case tc.wantNote != "" && (len(notes) != 1 || !strings.Contains(notes[0], tc.wantNote)):
				t.Errorf("notes %q, want one saying %q", notes, tc.wantNote)
			}
		})
	}
}
