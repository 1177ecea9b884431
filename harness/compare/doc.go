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
// # Statuses, and how Holm meets the intervals
//
// Let c = log(1+tau) for the metric's tolerance tau, and let the "worse"
// direction be up for latency and down for throughput (throughput's sign is
// flipped before the rules below, so a throughput ratio regresses when its
// interval lies below 1/(1+tau)). Each metric has a one-sided level a; its
// interval is mean ± t(1-a)·se, so each bound is a one-sided (1-a)
// confidence bound and the interval is a (1-2a) two-sided one (90% when a is
// 0.05, as in equivalence testing). Then:
//
//	REGRESSED    lower bound > 1+tau            (one-sided test of H0: ratio ≤ 1+tau)
//	IMPROVED     upper bound < 1/(1+tau)
//	UNCHANGED    interval within [1/(1+tau), 1+tau]   (two one-sided tests)
//	INCONCLUSIVE otherwise
//
// The gated metrics (Config.Gate; by default p99 of every operation and the
// throughput of every workload) form one family. Each gets the raw p-value of
// its one-sided test of H0: ratio ≤ 1+tau (worse direction), and Holm's
// step-down procedure runs on them at the look's alpha: sorted ascending, the
// i-th (from 0) is rejected while p(i) < alpha/(m-i). A gated metric is
// REGRESSED exactly when Holm rejects it, MetricResult.P holds its
// Holm-adjusted p-value, and its interval is read at the level of its Holm
// step, a = alpha/(m-i), or, for every metric at or after the first step that
// is not rejected, at that step's level. With those levels the lower bound
// clears 1+tau exactly when Holm rejects, so the status can be read off the
// interval shown. The same (conservative) interval decides IMPROVED and
// UNCHANGED. P(any false REGRESSED among the gated metrics) ≤ alpha whenever
// every true change is within tolerance. Metrics that are not gated are shown
// with their raw one-sided p-value and an interval at a = the look's alpha
// (no multiplicity correction: they inform, they do not gate).
//
// # Verdict
//
// REGRESSION if any gated metric is REGRESSED; otherwise INCONCLUSIVE if any
// gated metric is INCONCLUSIVE (more pairs are needed to decide, so the gate
// neither passes nor fails); otherwise PASS (every gated metric UNCHANGED or
// IMPROVED).
//
// # Adaptive pairs
//
// Config.Looks = K planned looks splits alpha evenly (Bonferroni): every look,
// the final Compare included, tests at alpha/K, so the family-wise error over
// all looks stays ≤ alpha however the looks were stopped. The scheduler calls
// NeedMorePairs after each look; it asks for more pairs while a gated metric
// is INCONCLUSIVE and none is REGRESSED, up to Config.MaxPairs per workload,
// sized from the current spread. MetricResult.Pairs records how many pairs
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
// trials the comparison is descriptive: geometric-mean ratios only, status
// DESCRIPTIVE, CILow, CIHigh and P zero, Verdict DESCRIPTIVE, and a warning
// that says no significance was computed.
//
// # Evidence
//
// The TestValidation* tests (make validate-stats) simulate trials from a
// lognormal, AR(1), stall-mode, per-trial-effect, drifting latency model
// recorded into HdrHistograms and print the A/A false-alarm and power tables.
package compare
