package compare

import "github.com/regress-hbase/regress/harness/noise"

// Status is the decision for one metric.
type Status string

// Metric statuses, from the confidence interval of the ratio against the tolerance.
const (
	Regressed Status = "REGRESSED"
	Improved  Status = "IMPROVED"
	Unchanged Status = "UNCHANGED"
	// NotWorse marks a metric shown to be no worse than its tolerance
	// (non-inferiority: its worse-direction bound is within 1+tau) whose
	// interval still reaches past the better side of the band, so neither
	// UNCHANGED (equivalence) nor IMPROVED can be claimed. It lets a gate PASS.
	NotWorse     Status = "NOT WORSE"
	Inconclusive Status = "INCONCLUSIVE"
	// Descriptive marks a metric compared without significance (imported summaries).
	Descriptive Status = "DESCRIPTIVE"
)

// Verdict is the overall decision over the gated metrics.
type Verdict string

// Overall verdicts.
const (
	Pass                Verdict = "PASS"
	Regression          Verdict = "REGRESSION"
	VerdictInconclusive Verdict = "INCONCLUSIVE"
	// VerdictDescriptive is the only verdict of a descriptive comparison
	// (imported summaries without trials): ratios are shown, nothing is decided.
	VerdictDescriptive Verdict = "DESCRIPTIVE"
	// VerdictInvalid says the trials cannot be judged: neither side held the
	// target rate, so both measured a saturated cluster.
	VerdictInvalid Verdict = "INVALID"
)

// Side describes one side of a comparison.
type Side struct {
	Name   string `json:"name"` // version or label
	Trials int    `json:"trials"`
}

// MetricResult is the comparison of one metric of one operation of one
// workload. Its fields are in the order report.json writes them (the JSON
// report derives its rows from this type).
type MetricResult struct {
	Workload string `json:"workload"`
	Op       string `json:"op"`     // READ, UPDATE, ..., or "ALL" for throughput
	Metric   string `json:"metric"` // a name of the metric catalogue (harness/metric)
	Unit     string `json:"unit"`   // the catalogue's: us, ops/s or B
	// Baseline and Candidate are geometric means of the per-trial values.
	Baseline  float64 `json:"baseline"`
	Candidate float64 `json:"candidate"`
	// Ratio is candidate/baseline (geometric-mean ratio), with its confidence
	// interval; the interval (and P) are zero in a descriptive comparison.
	// Each end of [CILow, CIHigh] is a one-sided bound at the look's alpha
	// (Comparison.LookAlpha), so the worse end is PassBound.
	Ratio     float64 `json:"ratio"`
	CILow     float64 `json:"ci_low"`
	CIHigh    float64 `json:"ci_high"`
	Tolerance float64 `json:"tolerance"` // fraction, 0.10 = 10%
	Status    Status  `json:"status"`
	Gated     bool    `json:"gated"`
	// Primary marks a server cost over several workloads that gate it: all
	// of them (Workload AllWorkloads), or those made mostly of one
	// operation (HeavyWorkloads), tested outside the Holm family (primary.go).
	Primary bool `json:"primary,omitempty"`
	// DetectOnly marks a gated row that only detects (Config.DetectOnly):
	// REGRESSED makes the verdict REGRESSION, undecided it never holds a
	// PASS back.
	DetectOnly bool `json:"detect_only,omitempty"`
	// Pools names the workloads a primary row pools.
	Pools []string `json:"pools,omitempty"`
	P     float64  `json:"p"`     // p-value of the one-sided regression test, Holm-adjusted when gated
	Pairs int      `json:"pairs"` // pairs (or trials a side when unpaired) the decision used
	// PassBound is the non-inferiority bound: the one-sided (1-LookAlpha)
	// bound of the ratio in the worse direction (upper for latency, lower for
	// throughput). A gated metric lets the gate PASS when it is within
	// tolerance: at most 1+tau (latency), at least 1/(1+tau) (throughput).
	PassBound float64 `json:"pass_bound"`
	// RegressionBound is the bound of the ratio on the better side at the
	// level of the metric's Holm step (LookAlpha when not gated): REGRESSED
	// exactly when it lies beyond tolerance (above 1+tau for latency, below
	// 1/(1+tau) for throughput).
	RegressionBound float64 `json:"regression_bound"`
	// OpsPerTrial is the fewest operations of this type any trial of either
	// side recorded (0 for throughput): what a percentile rests on.
	OpsPerTrial int64 `json:"ops_per_trial,omitempty"`
	// BaselineBelow and CandidateBelow say the side's figure is only known to
	// lie below Baseline (Candidate): an imported percentile printed as 0 ms.
	BaselineBelow  bool `json:"baseline_below,omitempty"`
	CandidateBelow bool `json:"candidate_below,omitempty"`
	// GatedFor names the metric this one gates in place of, when the gate
	// fell back to it (e.g. "p99": too few samples beyond p99 in some trial).
	GatedFor string `json:"gated_for,omitempty"`
	// Note says why a metric the gate selects is not gated, or why it gates
	// in place of another (the tail-sample rule, a held target rate).
	Note string `json:"note,omitempty"`
	// Detectable is the smallest change in the worse direction (a fraction:
	// 0.08 = 8% slower, costlier or less throughput) this run's test would
	// have flagged as a regression with power 0.8, given the spread between
	// its pairs: what the run could see. 0 when not estimated.
	Detectable float64 `json:"detectable,omitempty"`
	// SlotEffect is what slot 1 was worth against slot 2 in a duet, a ratio
	// (0.97: a trial in slot 1 read 3% less), estimated from the pairs and
	// taken out of Ratio and its interval (slots.go); 0 when not fitted (the
	// slots not recorded, or too few pairs of each order).
	SlotEffect float64 `json:"slot_effect,omitempty"`
	// BaselineValues and CandidateValues are the per-trial values, in pair
	// order when paired (element i of both is pair i).
	BaselineValues  []float64 `json:"baseline_values,omitempty"`
	CandidateValues []float64 `json:"candidate_values,omitempty"`
}

// HeldRate is one workload's check that each side held the target rate: a
// trial holds it when it achieved at least results.HoldThreshold of its
// target. While every trial holds the rate, throughput only follows the
// target, so this check gates instead of throughput.
type HeldRate struct {
	Workload        string  `json:"workload"`
	TargetOpsPerSec float64 `json:"target_ops_per_sec"`
	BaselineTrials  int     `json:"baseline_trials"`
	CandidateTrials int     `json:"candidate_trials"`
	// BaselineMissed and CandidateMissed count the trials that fell short.
	BaselineMissed  int `json:"baseline_missed"`
	CandidateMissed int `json:"candidate_missed"`
	// CandidateOnly and BaselineOnly count the pairs where only that side
	// missed (paired schedules only).
	CandidateOnly int    `json:"candidate_only_missed,omitempty"`
	BaselineOnly  int    `json:"baseline_only_missed,omitempty"`
	Status        Status `json:"status"`
	Gated         bool   `json:"gated"`
	// P is the one-sided p-value that the candidate misses the rate more
	// often than the baseline (Holm-adjusted when it joined the gated family);
	// 1 when no trial missed.
	P float64 `json:"p"`
}

// Comparison is the whole result of comparing a candidate with a baseline.
type Comparison struct {
	Verdict   Verdict `json:"verdict"`
	Baseline  Side    `json:"baseline"`
	Candidate Side    `json:"candidate"`
	Suite     string  `json:"suite"`
	// Data is the seed data's shape the trials ran on (results.SuiteInfo.DataSpec):
	// rows, cells, regions, the column family's attributes, store files.
	Data        string         `json:"data,omitempty"`
	Paired      bool           `json:"paired"`
	Descriptive bool           `json:"descriptive"` // no significance: imported summaries
	Alpha       float64        `json:"alpha"`
	Metrics     []MetricResult `json:"metrics"`
	Warnings    []string       `json:"warnings,omitempty"`
	// Interleaved is true when the pairs were verified to have run back to back
	// (start times), so pairing cancels drift; false when unpaired or unverified.
	Interleaved bool `json:"interleaved"`
	// Duet is true when every pair's two trials ran at the same time (then
	// Interleaved is true too: the pairs were verified by start time).
	Duet bool `json:"duet,omitempty"`
	// Instances is the most instance blocks any metric's pairs span (fresh
	// server JVMs of a run, or several runs): above 1 the intervals hold
	// the offset between instances (nested estimate); 0 or 1: they do not.
	Instances int `json:"instances,omitempty"`
	// InstanceNoise is the instance sd the comparison assumed, per metric,
	// and where it came from (the sides' HBase lines and JDKs, package noise); nil when
	// the suite gives none or no trials were measured.
	InstanceNoise *noise.Assumed `json:"instance_noise,omitempty"`
	// Looks is the number of planned looks alpha was split over (adaptive pairs).
	Looks int `json:"looks"`
	// LookAlpha is the family-wise error rate each look spends: Alpha/Looks.
	LookAlpha float64 `json:"look_alpha"`
	// Runs is the number of runs whose trials were pooled; each run's planned
	// looks count, so Looks = planned looks per run x Runs.
	Runs int `json:"runs,omitempty"`
	// HeldRate is the held-target check of every workload that ran at a target rate.
	HeldRate []HeldRate `json:"held_rate,omitempty"`
	// FamilyAlpha is the level the Holm family of gated metrics was tested
	// at: LookAlpha, or half of it when primary rows took the other half
	// and not all of them regressed (primary.go).
	FamilyAlpha float64 `json:"family_alpha,omitempty"`
	// NotCompared lists the gated metrics that could not be compared, each
	// with why (absent or zero in some trial, measured differently by the
	// two sides): the verdict is never PASS while one is listed.
	NotCompared []string `json:"gated_not_compared,omitempty"`
	// Invalid says why the trials cannot be judged (Verdict INVALID).
	Invalid string `json:"invalid,omitempty"`
	// ServerCounts are the requests and block cache lookups each side's
	// servers counted per workload, where the trials carry them.
	ServerCounts []ServerCounts `json:"server_counts,omitempty"`
	// ServerCountNotes say which counts were not read and why, per side.
	ServerCountNotes []string `json:"server_count_notes,omitempty"`
}
