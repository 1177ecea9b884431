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
	Verdict     compare.Verdict    `json:"verdict"`
	Note        string             `json:"note,omitempty"`
	Baseline    compare.Side       `json:"baseline"`
	Candidate   compare.Side       `json:"candidate"`
	Suite       string             `json:"suite"`
	Paired      bool               `json:"paired"`
	Interleaved bool               `json:"interleaved"`
	Duet        bool               `json:"duet,omitempty"`
	Descriptive bool               `json:"descriptive"`
	Alpha       jsonNumber         `json:"alpha"`
	Looks       int                `json:"looks"`
	LookAlpha   jsonNumber         `json:"look_alpha"`
	Runs        int                `json:"runs,omitempty"`
	Invalid     string             `json:"invalid,omitempty"`
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
}

// renderJSON writes the verdict object. Descriptive metrics carry null
// ci_low, ci_high and p: they have no interval and no test.
func renderJSON(w io.Writer, r Report) error {
	c := r.Comparison
	out := jsonReport{Verdict: c.Verdict, Baseline: c.Baseline, Candidate: c.Candidate, Suite: c.Suite,
		Paired: c.Paired, Interleaved: c.Interleaved, Duet: c.Duet, Descriptive: c.Descriptive, Alpha: num(c.Alpha),
		Looks: c.Looks, LookAlpha: num(c.LookAlpha), Runs: c.Runs, Invalid: c.Invalid, HeldRate: c.HeldRate,
		Metrics: []jsonMetric{}, Warnings: c.Warnings, Capacity: r.Capacity,
		Profiles: jsonProfiles(r), ProfileNotes: r.ProfileNotes, ServerCounts: c.ServerCounts, ServerCountNotes: c.ServerCountNotes}
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
