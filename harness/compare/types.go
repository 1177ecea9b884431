package compare

// Status is the decision for one metric.
type Status string

// Metric statuses, from the confidence interval of the ratio against the tolerance.
const (
	Regressed    Status = "REGRESSED"
	Improved     Status = "IMPROVED"
	Unchanged    Status = "UNCHANGED"
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
)

// Side describes one side of a comparison.
type Side struct {
	Name   string `json:"name"` // version or label
	Trials int    `json:"trials"`
}

// MetricResult is the comparison of one metric of one operation of one workload.
type MetricResult struct {
	Workload string `json:"workload"`
	Op       string `json:"op"`     // READ, UPDATE, ..., or "ALL" for throughput
	Metric   string `json:"metric"` // p50, p95, p99, p99.9, mean, throughput
	Unit     string `json:"unit"`   // us or ops/s
	// Baseline and Candidate are geometric means of the per-trial values.
	Baseline  float64 `json:"baseline"`
	Candidate float64 `json:"candidate"`
	// Ratio is candidate/baseline (geometric-mean ratio), with its confidence
	// interval; the interval (and P) are zero in a descriptive comparison.
	Ratio     float64 `json:"ratio"`
	CILow     float64 `json:"ci_low"`
	CIHigh    float64 `json:"ci_high"`
	Tolerance float64 `json:"tolerance"` // fraction, 0.10 = 10%
	Status    Status  `json:"status"`
	Gated     bool    `json:"gated"`
	P         float64 `json:"p"`     // p-value of the one-sided regression test, Holm-adjusted when gated
	Pairs     int     `json:"pairs"` // pairs (or trials a side when unpaired) the decision used
}

// Comparison is the whole result of comparing a candidate with a baseline.
type Comparison struct {
	Verdict     Verdict        `json:"verdict"`
	Baseline    Side           `json:"baseline"`
	Candidate   Side           `json:"candidate"`
	Suite       string         `json:"suite"`
	Paired      bool           `json:"paired"`
	Descriptive bool           `json:"descriptive"` // no significance: imported summaries
	Alpha       float64        `json:"alpha"`
	Metrics     []MetricResult `json:"metrics"`
	Warnings    []string       `json:"warnings,omitempty"`
	// Interleaved is true when the pairs were verified to have run back to back
	// (start times), so pairing cancels drift; false when unpaired or unverified.
	Interleaved bool `json:"interleaved"`
	// Looks is the number of planned looks alpha was split over (adaptive pairs).
	Looks int `json:"looks"`
	// LookAlpha is the family-wise error rate each look spends: Alpha/Looks.
	LookAlpha float64 `json:"look_alpha"`
}
