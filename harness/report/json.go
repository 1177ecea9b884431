package report

import (
	"encoding/json"
	"io"
	"math"

	"github.com/regress-hbase/regress/harness/compare"
)

// jsonNumber marshals NaN and infinities (and absent values) as null, which
// encoding/json would otherwise refuse.
type jsonNumber struct {
	v  float64
	ok bool
}

func num(v float64) jsonNumber { return jsonNumber{v: v, ok: !math.IsNaN(v) && !math.IsInf(v, 0)} }

func nums(vs []float64) []jsonNumber {
	if len(vs) == 0 {
		return nil
	}
	out := make([]jsonNumber, len(vs))
	for i, v := range vs {
		out[i] = num(v)
	}
	return out
}

func (n jsonNumber) MarshalJSON() ([]byte, error) {
	if !n.ok {
		return []byte("null"), nil
	}
	return json.Marshal(n.v)
}

type jsonMetric struct {
	Workload  string         `json:"workload"`
	Op        string         `json:"op"`
	Metric    string         `json:"metric"`
	Unit      string         `json:"unit"`
	Baseline  jsonNumber     `json:"baseline"`
	Candidate jsonNumber     `json:"candidate"`
	Ratio     jsonNumber     `json:"ratio"`
	CILow     jsonNumber     `json:"ci_low"`
	CIHigh    jsonNumber     `json:"ci_high"`
	Tolerance jsonNumber     `json:"tolerance"`
	Status    compare.Status `json:"status"`
	Gated     bool           `json:"gated"`
	P         jsonNumber     `json:"p"`
	Pairs     int            `json:"pairs"`
	// PassBound and RegressionBound are the bounds the PASS and REGRESSED
	// rules read (null when there is no interval).
	PassBound       jsonNumber `json:"pass_bound"`
	RegressionBound jsonNumber `json:"regression_bound"`
	OpsPerTrial     int64      `json:"ops_per_trial,omitempty"`
	BaselineBelow   bool       `json:"baseline_below,omitempty"`
	CandidateBelow  bool       `json:"candidate_below,omitempty"`
	GatedFor        string     `json:"gated_for,omitempty"`
	Note            string     `json:"note,omitempty"`
	// Detectable is the smallest change in the worse direction this run
	// would have flagged with power 0.8 (a fraction; absent when not estimated).
	Detectable      float64      `json:"detectable,omitempty"`
	BaselineValues  []jsonNumber `json:"baseline_values,omitempty"`
	CandidateValues []jsonNumber `json:"candidate_values,omitempty"`
}

type jsonReport struct {
	Verdict     compare.Verdict `json:"verdict"`
	Note        string          `json:"note,omitempty"`
	Baseline    compare.Side    `json:"baseline"`
	Candidate   compare.Side    `json:"candidate"`
	Suite       string          `json:"suite"`
	Paired      bool            `json:"paired"`
	Interleaved bool            `json:"interleaved"`
	Duet        bool            `json:"duet,omitempty"`
	Descriptive bool            `json:"descriptive"`
	Alpha       jsonNumber      `json:"alpha"`
	Looks       int             `json:"looks"`
	LookAlpha   jsonNumber      `json:"look_alpha"`
	Runs        int             `json:"runs,omitempty"`
	Invalid     string          `json:"invalid,omitempty"`
	// NotCompared lists the gated metrics no row compares, with why.
	NotCompared []string           `json:"gated_not_compared,omitempty"`
	HeldRate    []compare.HeldRate `json:"held_rate,omitempty"`
	Metrics     []jsonMetric       `json:"metrics"`
	Warnings    []string           `json:"warnings"`
	Generated   string             `json:"generated,omitempty"`
	// ServerCounts are each side's server-counted requests and block cache lookups per workload.
	ServerCounts     []compare.ServerCounts `json:"server_counts,omitempty"`
	ServerCountNotes []string               `json:"server_count_notes,omitempty"`
	// Capacity is the rate sweep of `regress capacity`: every search and step,
	// as the capacity package marshals it.
	Capacity Section `json:"capacity,omitempty"`
	// Profiles are the differential profiles per workload (--profile).
	Profiles     []jsonProfile `json:"profiles,omitempty"`
	ProfileNotes []string      `json:"profile_notes,omitempty"`
	// Timelines are the trials the HTML draws latency and server events of
	// (each workload and side's worst-p99 trial), as data.
	Timelines []jsonTimeline `json:"timelines,omitempty"`
}

// jsonTimeline is one trial's latency by interval and its servers' events.
type jsonTimeline struct {
	Workload     string            `json:"workload"`
	Side         string            `json:"side"`
	Name         string            `json:"name"`
	TrialID      string            `json:"trial_id"`
	Pair         int               `json:"pair"`
	WindowMillis float64           `json:"window_ms"`
	Why          string            `json:"why,omitempty"`
	Intervals    []jsonInterval    `json:"intervals"`
	Events       []jsonServerEvent `json:"server_events"`
	OmittedGCs   int               `json:"omitted_gc_pauses,omitempty"`
	Note         string            `json:"note,omitempty"`
}

// jsonInterval is one interval of a trial's latency log.
type jsonInterval struct {
	StartMillis float64 `json:"start_ms"`
	EndMillis   float64 `json:"end_ms"`
	P99Micros   float64 `json:"p99_us"`
	MaxMicros   float64 `json:"max_us"`
	Count       int64   `json:"count"`
}

// jsonServerEvent is one GC pause, flush, compaction, split or region opened.
type jsonServerEvent struct {
	Kind           string  `json:"kind"`
	AtMillis       float64 `json:"at_ms"`
	DurationMillis float64 `json:"duration_ms"`
	Server         string  `json:"server"`
	Detail         string  `json:"detail,omitempty"`
}

// jsonTimelines turns the report's timelines into their JSON form.
func jsonTimelines(ts []TrialTimeline) []jsonTimeline {
	var out []jsonTimeline
	for _, t := range ts {
		jt := jsonTimeline{Workload: t.Workload, Side: t.Side, Name: t.Name, TrialID: t.TrialID, Pair: t.Pair,
			WindowMillis: t.WindowMillis, Why: t.Why, Intervals: []jsonInterval{}, Events: []jsonServerEvent{}}
		for _, iv := range t.Intervals {
			jt.Intervals = append(jt.Intervals, jsonInterval(iv))
		}
		if t.Server == nil {
			jt.Note = timelineNote
		} else {
			jt.OmittedGCs = t.Server.OmittedGCs
			for _, e := range t.Server.Events {
				jt.Events = append(jt.Events, jsonServerEvent(e))
			}
		}
		out = append(out, jt)
	}
	return out
}

// renderJSON writes the verdict object. Descriptive metrics carry null
// ci_low, ci_high and p: they have no interval and no test.
func renderJSON(w io.Writer, r Report) error {
	c := r.Comparison
	out := jsonReport{Verdict: c.Verdict, Baseline: c.Baseline, Candidate: c.Candidate, Suite: c.Suite,
		Paired: c.Paired, Interleaved: c.Interleaved, Duet: c.Duet, Descriptive: c.Descriptive, Alpha: num(c.Alpha),
		Looks: c.Looks, LookAlpha: num(c.LookAlpha), Runs: c.Runs, Invalid: c.Invalid, NotCompared: c.NotCompared, HeldRate: c.HeldRate,
		Metrics: []jsonMetric{}, Warnings: c.Warnings, Capacity: r.Capacity,
		Profiles: jsonProfiles(r), ProfileNotes: r.ProfileNotes, Timelines: jsonTimelines(r.Timelines), ServerCounts: c.ServerCounts, ServerCountNotes: c.ServerCountNotes}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	if c.Descriptive {
		out.Note = DescriptiveNote
		out.Alpha, out.LookAlpha = jsonNumber{}, jsonNumber{}
	}
	if !r.Generated.IsZero() {
		out.Generated = r.Generated.UTC().Format("2006-01-02T15:04:05Z")
	}
	for _, m := range c.Metrics {
		jm := jsonMetric{Workload: m.Workload, Op: m.Op, Metric: m.Metric, Unit: m.Unit,
			Baseline: num(m.Baseline), Candidate: num(m.Candidate), Ratio: num(m.Ratio),
			CILow: num(m.CILow), CIHigh: num(m.CIHigh), Tolerance: num(m.Tolerance),
			Status: m.Status, Gated: m.Gated, P: num(m.P), Pairs: m.Pairs,
			PassBound: num(m.PassBound), RegressionBound: num(m.RegressionBound),
			OpsPerTrial: m.OpsPerTrial, GatedFor: m.GatedFor, Note: m.Note, Detectable: m.Detectable,
			BaselineBelow: m.BaselineBelow, CandidateBelow: m.CandidateBelow,
			BaselineValues: nums(m.BaselineValues), CandidateValues: nums(m.CandidateValues)}
		if !hasCI(m) {
			jm.CILow, jm.CIHigh, jm.PassBound, jm.RegressionBound = jsonNumber{}, jsonNumber{}, jsonNumber{}, jsonNumber{}
		}
		if m.Status == compare.Descriptive {
			jm.P = jsonNumber{}
		}
		out.Metrics = append(out.Metrics, jm)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
