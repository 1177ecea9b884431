package ycsbfmt

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// runNoop runs a short paced run of reads and updates against nothing,
// writing its interval log to hlog and flushing the splitter on every tick as
// the CLI does.
func runNoop(t *testing.T, s *Splitter) *loadgen.Result {
	t.Helper()
	var flushErr error
	res, err := loadgen.Run(context.Background(), loadgen.Config{
		Schedule: loadgen.Schedule{TargetRate: 2000, Workers: 2, MaxOps: 600}, Tick: 50 * time.Millisecond, Hlog: s,
		NewWorker: func(id int) (loadgen.Worker, error) {
			n := 0
			return loadgen.WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
				n++
				now := time.Now()
				op := workload.Read
				if n%3 == 0 {
					op = workload.Update
				}
				rec.Record(op, now, now.Add(100*time.Microsecond), workload.OK)
				return nil
			}), nil
		},
		Progress: func(loadgen.Progress) {
			if flushErr == nil {
				flushErr = s.Flush()
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if flushErr != nil {
		t.Fatal(flushErr)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSplitterNamesIntervalsAsYCSB(t *testing.T) {
	for _, tc := range []struct {
		iv   Interval
		want map[string]loadgen.Kind // measurement name -> which latency it must carry
	}{
		{MeasureOp, map[string]loadgen.Kind{"READ": loadgen.Service, "UPDATE": loadgen.Service}},
		{MeasureIntended, map[string]loadgen.Kind{"READ": loadgen.Intended, "UPDATE": loadgen.Intended}},
		{MeasureBoth, map[string]loadgen.Kind{"READ": loadgen.Service, "UPDATE": loadgen.Service,
			"Intended-READ": loadgen.Intended, "Intended-UPDATE": loadgen.Intended}},
	} {
		t.Run(tc.iv.String(), func(t *testing.T) {
			got := map[string]*hdr.Histogram{}
			intervals := 0
			s := NewSplitter(tc.iv, func(name string, h *hdr.Histogram) error {
				intervals++
				if h.Tag() != "" || h.EndTimeMs() <= h.StartTimeMs() || h.StartTimeMs() < time.Now().Add(-time.Minute).UnixMilli() {
					t.Errorf("%s interval: tag %q, %d..%d ms; want no tag and absolute times", name, h.Tag(), h.StartTimeMs(), h.EndTimeMs())
				}
				if m, ok := got[name]; ok {
					m.Merge(h)
				} else {
					got[name] = h
				}
				return nil
			})
			res := runNoop(t, s)
			if len(got) != len(tc.want) {
				t.Fatalf("measurements %v, want %v", keys(got), tc.want)
			}
			if intervals < 2*len(tc.want) {
				t.Errorf("%d intervals over a 300 ms run with a 50 ms tick: the log was not split per tick", intervals)
			}
			for name, kind := range tc.want {
				op, _ := workload.ParseOp(strings.TrimPrefix(name, IntendedPrefix))
				want := res.PerOp[op].Service
				if kind == loadgen.Intended {
					want = res.PerOp[op].Intended
				}
				h := got[name]
				if h == nil || h.TotalCount() != want.TotalCount() || h.Max() != want.Max() || h.Mean() != want.Mean() {
					t.Errorf("%s: merged intervals %v, want the run's %v histogram (count %d, max %d)", name, summary(h), kind, want.TotalCount(), want.Max())
				}
			}
		})
	}
}

func TestSplitterRejectsDamagedLog(t *testing.T) {
	for _, line := range []string{
		"Tag=READ.service,0.0,1.0\n",
		"Tag=READ.sideways,0.0,1.0,0.1,HISTFAAAAB\n",
		"0.000,1.000,0.100,HISTFAAAAB\n",
		"Tag=READ.service,0.0,1.0,0.1,not-base64\n",
	} {
		s := NewSplitter(MeasureOp, func(string, *hdr.Histogram) error { return nil })
		if _, err := s.Write([]byte("#[BaseTime: 1700000000.000 (seconds since epoch)]\n" + line)); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: error %v, want one naming line 2", line, err)
		}
	}
}

func TestHdrFilesReadBackWithImporter(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "run1-")
	files := NewHdrFiles(prefix, time.Now())
	res := runNoop(t, NewSplitter(MeasureBoth, files.Write))
	if err := files.Close(); err != nil {
		t.Fatal(err)
	}
	if len(files.Paths()) != 4 {
		t.Fatalf("files %v, want READ, UPDATE and their Intended- logs", files.Paths())
	}
	for _, tc := range []struct {
		name     string
		want     *hdr.Histogram
		intended bool
	}{
		{"READ", res.PerOp[workload.Read].Service, false},
		{"Intended-READ", res.PerOp[workload.Read].Intended, true},
		{"UPDATE", res.PerOp[workload.Update].Service, false},
		{"Intended-UPDATE", res.PerOp[workload.Update].Intended, true},
	} {
		runs, err := ReadFile(prefix + tc.name + ".hdr")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		op := strings.TrimPrefix(tc.name, IntendedPrefix)
		o := runs[0].Ops[op]
		if o == nil {
			t.Fatalf("%s.hdr: importer found ops %v", tc.name, runs[0].OpNames())
		}
		h := o.Histogram
		if o.Intended != nil {
			h = o.Intended.Histogram
		}
		if (o.Intended != nil) != tc.intended || h == nil || h.TotalCount() != tc.want.TotalCount() || h.Max() != tc.want.Max() {
			t.Errorf("%s.hdr read back as %s (intended block %v): %v, want count %d max %d", tc.name, op, o.Intended != nil, summary(h), tc.want.TotalCount(), tc.want.Max())
		}
	}
}

func TestHdrFilesMissingDirectoryIsClearError(t *testing.T) {
	files := NewHdrFiles(filepath.Join(t.TempDir(), "no", "such", "dir")+"/", time.Now())
	err := files.Write("READ", hdr.New(1, 1000, 3))
	if err == nil || !strings.Contains(err.Error(), "hdrhistogram.output.path") {
		t.Errorf("error %v, want one naming hdrhistogram.output.path", err)
	}
}

func keys(m map[string]*hdr.Histogram) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func summary(h *hdr.Histogram) string {
	if h == nil {
		return "none"
	}
	return "count " + strconv.FormatInt(h.TotalCount(), 10) + " max " + strconv.FormatInt(h.Max(), 10)
}

// FuzzSplitter feeds damaged interval logs: the splitter must return an error
// or intervals, never panic or hang.
func FuzzSplitter(f *testing.F) {
	var log bytes.Buffer
	w := hdr.NewHistogramLogWriter(&log)
	_ = w.OutputLogFormatVersion()
	_ = w.OutputComment("[BaseTime: 1700000000.000 (seconds since epoch)]")
	_ = w.OutputLegend()
	h := histOf(100, 200, 300)
	h.SetTag("READ.service")
	h.SetStartTimeMs(0)
	h.SetEndTimeMs(1000)
	_ = w.OutputIntervalHistogram(h)
	f.Add(log.Bytes())
	f.Add([]byte("Tag=READ.intended,0.0,1.0,0.1,HISTFAAAACl42pNpmSzMwMDAxAABzFCaEUzOmTJ5MkaMYwRzuAAAAmcCJA==\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		s := NewSplitter(MeasureBoth, func(name string, h *hdr.Histogram) error {
			if name == "" || h == nil {
				t.Fatalf("interval named %q (histogram nil: %v): every interval needs a measurement name", name, h == nil)
			}
			n++
			return nil
		})
		_, _ = s.Write(data)
		_ = s.Flush()
	})
}
