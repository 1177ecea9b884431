package results

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// The store's mapping of a load generator run: loadgen knows nothing of the
// store, so the store's schema lives here alone.

// OpStatsOf converts a run's per-op results to the stored form, keyed by YCSB's op names.
// Errors counts ERROR only; NOT_FOUND is a status, not an error.
func OpStatsOf(r *loadgen.Result) map[string]OpStats {
	out := make(map[string]OpStats)
	for _, o := range r.PerOp {
		if o == nil {
			continue
		}
		st := make(map[string]int64)
		for i, c := range o.Statuses {
			if c > 0 {
				st[workload.Status(i).String()] = c
			}
		}
		out[o.Op.String()] = OpStats{
			Count:    o.Count(),
			Errors:   o.Statuses[workload.Error],
			Statuses: st,
			Intended: LatencyOf(o.Intended),
			Service:  LatencyOf(o.Service),
		}
		if n := o.FailedIntended.TotalCount(); n > 0 {
			s := out[o.Op.String()]
			s.Failed = &FailedStats{Count: n, Intended: LatencyOf(o.FailedIntended), Service: LatencyOf(o.FailedService)}
			out[o.Op.String()] = s
		}
	}
	return out
}

// FillTrial copies a run's measurement window into t: start, duration, target and
// achieved rates, and per-op stats. Identity fields (ID, workload, pair) are the caller's.
func FillTrial(t *Trial, r *loadgen.Result) {
	t.Start = r.Start
	t.DurationMillis = r.Duration.Milliseconds()
	t.TargetOpsPerSec = r.Rate
	t.AchievedOpsPerSec = r.Achieved()
	t.Ops = OpStatsOf(r)
	t.Client = clientStatsOf(r)
}

// LoadHostOf is one load host's part of a trial that several hosts ran:
// its own rates and client share; its histograms are in the trial's.
func LoadHostOf(host string, share int, r *loadgen.Result) LoadHost {
	return LoadHost{Host: host, Share: share, Ops: r.Ops, TargetOpsPerSec: r.Rate, AchievedOpsPerSec: r.Achieved(), Client: *clientStatsOf(r)}
}

func clientStatsOf(r *loadgen.Result) *ClientStats {
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	c := &ClientStats{
		CPUPerOpMicros: us(r.CPUPerOp()),
		GCs:            r.Client.GCs, GCPauseTotalMicros: us(r.Client.GCPauses), GCPauseMaxMicros: us(r.Client.GCPauseMax),
	}
	if l := r.Lateness; l != nil && l.TotalCount() > 0 {
		c.LatenessP50Micros = float64(l.ValueAtQuantile(50))
		c.LatenessP99Micros = float64(l.ValueAtQuantile(99))
		c.LatenessMaxMicros = float64(l.Max())
	}
	return c
}

// LatencyOf summarises a µs histogram: p50, p95, p99, p99.9, max, min and mean.
// An empty or nil histogram gives the zero Latency.
func LatencyOf(h *hdr.Histogram) Latency {
	if h == nil || h.TotalCount() == 0 {
		return Latency{}
	}
	return Latency{
		P50Micros:  float64(h.ValueAtQuantile(50)),
		P95Micros:  float64(h.ValueAtQuantile(95)),
		P99Micros:  float64(h.ValueAtQuantile(99)),
		P999Micros: float64(h.ValueAtQuantile(99.9)),
		MaxMicros:  float64(h.Max()),
		MinMicros:  float64(h.Min()),
		MeanMicros: h.Mean(),
	}
}
