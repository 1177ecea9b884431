// Package compare decides, from per-trial metrics, whether a candidate
// regressed against a baseline beyond tolerance. It never prints.
//
// # Unit of data
//
// One trial is one observation: per workload and operation the p50, p95, p99,
// p99.9 and mean of intended latency, and per workload the achieved
// throughput. Requests inside a trial are autocorrelated and share the
// trial's random effect, so testing them as independent samples calls
// identical systems different (see the project's statistics reference).
//
// # Test and estimate
//
// With interleaved pairs (same workload and pair index on both sides, one run
// first and one second, back to back by start time) each metric is analysed
// with the paired t on d_i = log(candidate_i/baseline_i). Otherwise (a stored
// baseline against a new run, or a schedule that was not interleaved) Welch's
// t on the log values is used. The estimate is the geometric-mean ratio
// exp(mean d) with a Student-t interval.
//
// # Statuses, bounds and the gate
//
// Let c = log(1+tau) for the metric's tolerance tau, and let the "worse"
// direction be up for latency and down for throughput (throughput's sign is
// flipped before the rules below). The look's level is a = alpha/K (K
// planned looks). A metric's interval [L, U] is mean ± t(1-a)·se: each end
// is a one-sided (1-a) bound. Its worse end is the pass bound
// (MetricResult.PassBound). Then:
//
//	REGRESSED    the better end at the metric's Holm level > 1+tau
//	IMPROVED     U < 1/(1+tau)
//	UNCHANGED    [L, U] within [1/(1+tau), 1+tau]      (equivalence)
//	NOT WORSE    U <= 1+tau, L below 1/(1+tau)          (non-inferiority only)
//	INCONCLUSIVE otherwise
//
// The gated metrics (Config.Gate; by default p99 of every operation, and the
// throughput of unthrottled workloads) form one family. Each gets the raw
// p-value of its one-sided test of H0: ratio ≤ 1+tau (worse direction), and
// Holm's step-down procedure runs on them at a: sorted ascending, the i-th
// (from 0) is rejected while p(i) < a/(m-i). A gated metric is REGRESSED
// exactly when Holm rejects it; MetricResult.P holds its Holm-adjusted
// p-value, and MetricResult.RegressionBound is its better-side bound at the
// level of its Holm step (a/(m-i), or the first accepting step's level for
// every metric after it), so the status reads off the bound shown.
// P(any false REGRESSED among the gated metrics) ≤ alpha whenever every true
// change is within tolerance. Metrics that are not gated are shown with
// their raw p-value and bounds at a (they inform, they do not gate).
//
// # Verdict
//
// REGRESSION if any gated metric or gated held-rate check is REGRESSED.
// Otherwise PASS when every gated metric is UNCHANGED, NOT WORSE or
// IMPROVED, i.e. its pass bound at a lies within tolerance (and no gated
// held-rate check is INCONCLUSIVE); otherwise INCONCLUSIVE. PASS claims that
// every gated metric is no worse than its tolerance: an intersection-union
// test, valid with each metric at a and no multiplicity correction, so
// P(PASS) ≤ a per look whenever some gated metric is truly worse by tau or
// more. INVALID when neither side held the target rate (below).
//
// # Held rate
//
// A trial holds its target rate when it achieved results.HoldThreshold of
// it. When every trial of a workload ran at a target, throughput follows the
// target and is not gated; the workload's held-rate check (Comparison.HeldRate)
// gates instead. Paired, its statistic is T = pairs where only the candidate
// missed − pairs where only the baseline missed, and its p-value the supremum
// over the unknown miss probability (4^-n when the candidate alone missed in
// all n pairs); unpaired, Fisher's exact test. It joins the Holm family only
// for workloads where some trial missed (one no trial missed cannot be
// rejected, and counting it would make every other test stricter). A
// candidate that missed in most trials without a significant difference
// makes the check INCONCLUSIVE. When both sides missed in most trials the
// comparison is INVALID: both measured a saturated cluster.
//
// # Tail-sample rule
//
// A percentile gates only where every trial of both sides recorded at least
// MinTailSamples operations beyond it (OpsNeeded: 5000 for p99). Otherwise
// the highest lower percentile that has them gates in its place (else the
// mean), with MetricResult.GatedFor and Note saying which and why.
//
// # Adaptive pairs
//
// Config.Looks = K planned looks splits alpha evenly (Bonferroni): every look,
// the final Compare included, tests at alpha/K, so the family-wise error over
// all looks stays ≤ alpha however the looks were stopped. When the trials of
// several runs are pooled, each run's looks count (alpha/(K·runs)); unpaired
// trials count one look per run. The scheduler calls NeedMorePairs after each
// look; it asks for more pairs while the verdict is INCONCLUSIVE, up to
// Config.MaxPairs per workload, sized from the current spread so that the
// undecided metric would be decided with probability 0.8. MetricResult.Pairs records how many pairs
// (trials a side when unpaired) each decision used.
//
// # Checks
//
// Pairs match by workload, run (Trial.RunID) and pair index; when a baseline
// manifest holds trials of several runs, only those of the runs the candidate
// shares are used. Different suite fingerprints or data specs are refused
// with an error.
// Different environments are a warning. A paired schedule whose pairs did not
// run back to back (by start time) is flagged and analysed unpaired, because
// pairing then cancels nothing; a schedule whose order inside the pairs was
// never randomized is flagged.
//
// # Descriptive mode
//
// Imported YCSB results carry one summary value per metric and no trials:
// there is no between-trial variance to test against. When a side has no
// trials the comparison is descriptive: geometric-mean ratios only (YCSB's
// min and max latency included), status DESCRIPTIVE, CILow, CIHigh and P
// zero, Verdict DESCRIPTIVE, and a warning that says no significance was
// computed. A percentile printed as 0 whole milliseconds is shown as below
// 1 ms (BaselineBelow, CandidateBelow) with no ratio.
//
// # Evidence
//
// The TestValidation* tests (make validate-stats) simulate trials from a
// lognormal, AR(1), stall-mode, per-trial-effect, drifting latency model
// recorded into HdrHistograms and print the A/A false-alarm, PASS, false
// PASS and power tables, for one workload and for the shipped suites'
// families of workloads. PlanPairs projects the pairs a suite needs.
package compare
