package compare

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// The suites' families: the workloads each shipped suite runs, with the
// operations one of its trials records, so the tail-sample rule and the
// gate's size are those of a real run. rc's 10M operations per trial cannot
// be simulated a thousand times; 20k per trial keeps more sampling noise than
// rc has, so its rows are conservative (and its 5%-operations gate on p95).

func mix(name string, requests int, ops ...simOp) simWorkload {
	return simWorkload{name: name, ops: ops, requests: requests}
}

// coreFamily is YCSB's core workloads at n operations per trial.
func coreFamily(n int, names ...string) []simWorkload {
	all := map[string]simWorkload{
		"A": mix("A", n, simOp{"READ", 400, 0.5}, simOp{"UPDATE", 700, 0.5}),
		"B": mix("B", n, simOp{"READ", 400, 0.95}, simOp{"UPDATE", 700, 0.05}),
		"C": mix("C", n, simOp{"READ", 400, 1}),
		"D": mix("D", n, simOp{"READ", 400, 0.95}, simOp{"INSERT", 700, 0.05}),
		"E": mix("E", n, simOp{"SCAN", 3000, 0.95}, simOp{"INSERT", 700, 0.05}),
		"F": mix("F", n, simOp{"READ", 400, 0.5}, simOp{"READ-MODIFY-WRITE", 1100, 0.5}),
	}
	var out []simWorkload
	for _, w := range names {
		out = append(out, all[w])
	}
	return out
}

// The per-pair spread of the servers' cost on smoke duets, measured on the
// development VM (docs/noise.md): sd of log(candidate/baseline) per pair.
// On noisy days (a one-core burner beside the run, or the VM's neighbours
// busy) the CPU per op spread by 0.032 to 0.051 a pair instead: the noisy
// rows take the worst of it.
const (
	smokeCPUPairSD      = 0.017
	smokeAllocPairSD    = 0.078
	smokeNoisyCPUPairSD = 0.051
	// The release suite's, measured in its A/A of 2026-12-03 (the request
	// threads' CPU and allocation, 10 s at 1000 ops/s, load 6-13).
	releaseCPUPairSD   = 0.027
	releaseAllocPairSD = 0.024
	// The offset between two server JVMs of one release over a whole run
	// (sd of the run's mean log ratio, every workload alike). CPU: four
	// release A/As of 2026-12-03 put the candidate's cpu_per_op over the
	// workloads at -2.0%, -1.2%, +0.5% and +2.4% (sd 1.3% net of the pairs'
	// own noise); eight A/As by the sixth session spread 0.9%, and the
	// larger is kept. Allocation: those four lay within -0.9% and -0.2%
	// (0.4%), but later A/As put one JVM at +2.4% and +2.5% for a whole
	// run: eight A/As, -0.5% to +2.5%, sd 1.2%. Both are
	// scenarios/suites/release.yaml's compare.instance_sd.
	releaseInstanceCPUSD   = 0.013
	releaseInstanceAllocSD = 0.012
)

// twoInstances starts each side twice over a release run (--instances 2):
// the offsets as measured, drawn per instance, and the suite's prior on them.
func twoInstances(s *simScenario) {
	instances(s)
	s.instances = 2
	s.cfg.InstanceSD = map[string]float64{MetricCPUPerOp: releaseInstanceCPUSD, MetricAllocPerOp: releaseInstanceAllocSD}
	s.cfg.InstanceRuns = 8
}

// instances gives a release scenario the measured offsets between server
// JVMs (releaseInstanceCPUSD, releaseInstanceAllocSD).
func instances(s *simScenario) {
	s.instanceCPUSD, s.instanceAllocSD = releaseInstanceCPUSD, releaseInstanceAllocSD
}

// getPath is a cost of Gets alone that makes C's cpu_per_op f times the
// baseline's: B and D (95% reads) carry 95% of it, A and F (half reads, F's
// other half reads too but writes) half, E (scans) none.
func getPath(f float64) map[string]float64 {
	half := 1 + (f-1)/2
	return map[string]float64{"A": half, "B": 1 + (f-1)*0.95, "C": f, "D": 1 + (f-1)*0.95, "E": 1, "F": half}
}

// hiccups gives one trial in fifty a server CPU per operation 1.4 times the
// usual, as one side's JVM hiccups now and then (five of six release runs
// here held one such pair, 8% to 50% off).
func hiccups(s *simScenario) { s.model.hiccupRate, s.model.hiccupFactor = 0.02, 1.4 }

// tolerance3 sets a release scenario's server-cost tolerances to 3%.
func tolerance3(s *simScenario) {
	s.cfg.Tolerances[MetricCPUPerOp], s.cfg.Tolerances[MetricAllocPerOp] = 0.03, 0.03
}

// noisyDay widens a smoke scenario's CPU per op spread to a noisy day's.
func noisyDay(s *simScenario) { s.model.cpuSD = smokeNoisyCPUPairSD / math.Sqrt2 }

// suiteScenario is a scenario shaped like a shipped suite (see scenarios/suites).
func suiteScenario(suite string) simScenario {
	m := defaultModel()
	m.targetOps = 1000
	s := simScenario{model: m, sched: schedRMIT}
	tol := map[string]float64{MetricP50: 0.05, MetricMean: 0.05, MetricP95: 0.10, MetricP99: 0.10, MetricP999: 0.20, MetricThroughput: 0.05}
	switch suite {
	case "smoke": // 8 s at 300 ops/s in duets: 2400 operations a trial, 6 to 8 pairs, 2 looks, gate p95 and the servers' cost
		s.family = coreFamily(2400, "A", "B", "C", "D", "E", "F")
		s.pairs, s.adaptive = 6, true
		// The servers' cost per operation moves between trials as measured
		// on smoke duets here (docs/noise.md): a pair's log ratio spreads by
		// smokeCPUPairSD and smokeAllocPairSD, so a trial by 1/sqrt(2) of it.
		s.model.cpuSD, s.model.allocSD = smokeCPUPairSD/math.Sqrt2, smokeAllocPairSD/math.Sqrt2
		s.cfg = Config{Alpha: 0.05, Gate: []string{MetricP95, MetricThroughput, MetricCPUPerOp}, Looks: 2, MaxPairs: 8,
			Tolerances: map[string]float64{MetricP50: 0.25, MetricMean: 0.25, MetricP95: 0.20, MetricP99: 0.50, MetricP999: 1.0, MetricThroughput: 0.05,
				MetricCPUPerOp: 0.10, MetricAllocPerOp: 0.15}}
	case "release": // 10 s at 1000 ops/s in duets, 8 to 10 pairs, 2 looks: the servers' cost gate (and its primary rows)
		// The cost half of the shipped gate (release-latency below adds
		// the latency half, with its own noise model); 2400 operations a
		// trial keep the simulation quick without changing a gated row.
		// The servers' cost spreads as measured in the release A/A of
		// 2026-12-03 (load 6-13): cpu_per_op 2-3% a pair (scans more), the
		// request threads' allocation 0.1-2.4%.
		s.family = coreFamily(2400, "A", "B", "C", "D", "E", "F")
		s.pairs, s.adaptive = 8, true
		s.model.cpuSD, s.model.allocSD = releaseCPUPairSD/math.Sqrt2, releaseAllocPairSD/math.Sqrt2
		s.cfg = Config{Alpha: 0.05, Gate: []string{MetricThroughput, MetricCPUPerOp, MetricAllocPerOp}, Looks: 2, MaxPairs: 10,
			Tolerances: map[string]float64{MetricP50: 0.10, MetricMean: 0.10, MetricP95: 0.30, MetricP99: 0.50, MetricP999: 1.0, MetricThroughput: 0.05,
				MetricCPUPerOp: 0.05, MetricAllocPerOp: 0.05},
			PrimaryTolerances: map[string]float64{MetricCPUPerOp: 0.03}}
	case "release-latency": // the shipped release gate whole: latency (p50, p95, p99 and the class rows) and the servers' cost
		// Latency noise as a release duet A/A measured it on a loaded VM
		// (2026-12-06, load 6-16): READ's p50 about 1.2% a pair, READ's
		// p95 about 7%. Requests within a trial correlate far less in a
		// duet at 1000 ops/s than the default model's AR(1) 0.95 (which
		// gives a p50 5% apart from trial to trial at 2400 requests): phi
		// 0.5 over 5000 requests gives the measured spread with a 0.4%
		// trial effect. The five workloads that carry READ (E's scans are
		// the cost half's), R=300: every trial is simulated whole.
		s.family = coreFamily(5000, "A", "B", "C", "D", "F")
		s.model.phi, s.model.trialSD = 0.5, 0.004
		s.pairs, s.adaptive = 8, true
		s.reps = 300
		s.model.cpuSD, s.model.allocSD = releaseCPUPairSD/math.Sqrt2, releaseAllocPairSD/math.Sqrt2
		s.cfg = Config{Alpha: 0.05, Gate: []string{MetricP50, MetricP95, MetricP99, MetricThroughput, MetricCPUPerOp, MetricAllocPerOp}, Looks: 2, MaxPairs: 10,
			DetectOnly: []string{MetricP50, MetricP95, MetricP99},
			Tolerances: map[string]float64{MetricP50: 0.10, MetricMean: 0.10, MetricP95: 0.30, MetricP99: 0.50, MetricP999: 1.0, MetricThroughput: 0.05,
				MetricCPUPerOp: 0.05, MetricAllocPerOp: 0.05},
			PrimaryTolerances: map[string]float64{MetricCPUPerOp: 0.03, MetricAllocPerOp: 0.05, MetricP50: 0.03, MetricP95: 0.10, MetricP99: 0.20}}
	case "quick": // 20 s at 2000 ops/s: 40k operations a trial, 5 to 12 pairs, 2 looks
		s.family = coreFamily(40000, "A", "B", "C", "E")
		s.pairs, s.adaptive = 5, true
		s.cfg = Config{Alpha: 0.05, Gate: []string{MetricP99, MetricThroughput}, Looks: 2, MaxPairs: 12, Tolerances: tol}
	case "rc":
		s.family = coreFamily(20000, "A", "B", "C", "D", "E", "F")
		s.pairs, s.adaptive = 5, true
		s.cfg = Config{Alpha: 0.05, Gate: []string{MetricP99, MetricThroughput}, Looks: 3, MaxPairs: 15, Tolerances: tol}
	default:
		panic("unknown suite " + suite)
	}
	return s
}

func TestValidationFamilies(t *testing.T) {
	R, Rp := reps(t)
	// Under the race detector (make test) the families run a few
	// replications each: the same code path, watched for races and errors,
	// too few for the statistical checks, which make validate-stats holds.
	checks := !raceEnabled || *validateReps > 0
	if !checks {
		R, Rp = 6, 6
	}
	const alpha = 0.05
	type row struct {
		s       simScenario
		role    string   // aa, pass-target, false-pass, power, held-aa, shown
		targets []string // changed gated metrics (power)
	}
	mk := func(suite, name string, eff simEffect, f func(*simScenario)) simScenario {
		s := suiteScenario(suite)
		s.name, s.effect = suite+": "+name, eff
		if f != nil {
			f(&s)
		}
		return s
	}
	aaRows := []row{
		{mk("smoke", "A/A", simEffect{}, nil), "aa", nil},
		{mk("smoke", "A/A, noisy day (cpu sd 0.051)", simEffect{}, noisyDay), "aa", nil},
		{mk("quick", "A/A", simEffect{}, nil), "pass-target", nil},
		{mk("rc", "A/A", simEffect{}, nil), "aa", nil},
		{mk("release", "A/A", simEffect{}, nil), "pass-target", nil},
		{mk("release-latency", "A/A", simEffect{}, nil), "pass-target", nil},
		{mk("release", "A/A, JVM instance offsets", simEffect{}, instances), "pass-target", nil},
		// One trial in fifty with its request threads' CPU 1.4 times the
		// usual (a JIT hiccup on one side, as seen in five of six release
		// runs here): that pair is left out of its row, so it still PASSes.
		{mk("release", "A/A, offsets, 2% of trials cpu x1.4", simEffect{}, func(s *simScenario) { instances(s); hiccups(s) }), "pass-target", nil},
		// Why the release suite's per-workload tolerance is 5%, not 3% (the
		// primary rows' is 3%): with the measured offsets between JVMs an A/A
		// at 3% in every workload PASSes about a third of runs.
		{mk("release", "A/A, instance offsets, tau 3%", simEffect{}, func(s *simScenario) { instances(s); tolerance3(s) }), "aa", nil},
		// Two instances a side, the offset inside the intervals (nested
		// estimate with the suite's prior): shown; it PASSed 79% at R=300.
		{mk("release", "A/A, 2 instances a side", simEffect{}, twoInstances), "aa", nil},
	}
	qA := []string{"A/UPDATE/p99"}
	cpuC, allocC := []string{"C/ALL/" + MetricCPUPerOp}, []string{"C/ALL/" + MetricAllocPerOp}
	edgeRows := []row{
		{mk("quick", "A/A, 10% of trials miss the rate", simEffect{}, func(s *simScenario) { s.model.missRate = 0.10 }), "held-aa", nil},
		{mk("quick", "all requests x1.10 (= tau)", simEffect{all: 1.10}, nil), "false-pass", nil},
		{mk("quick", "A UPDATE only x1.10 (= tau)", simEffect{workload: "A", op: "UPDATE", opFactor: 1.10}, nil), "false-pass", nil},
		{mk("rc", "A UPDATE only x1.10 (= tau)", simEffect{workload: "A", op: "UPDATE", opFactor: 1.10}, nil), "false-pass", nil},
		{mk("quick", "all requests x1.20 (2 tau)", simEffect{all: 1.20}, nil), "power", nil},
		{mk("quick", "tail (> base p90) x1.20 (2 tau)", simEffect{tail: 1.20}, nil), "power", nil},
		{mk("quick", "A UPDATE only x1.20 (2 tau)", simEffect{workload: "A", op: "UPDATE", opFactor: 1.20}, nil), "power", qA},
		{mk("rc", "all requests x1.20 (2 tau)", simEffect{all: 1.20}, nil), "power", nil},
		{mk("rc", "A UPDATE only x1.20 (2 tau)", simEffect{workload: "A", op: "UPDATE", opFactor: 1.20}, nil), "power", qA},
		{mk("quick", "candidate misses the rate in 60% of trials", simEffect{missRate: 0.6}, nil), "shown", []string{"A/held rate"}},
		// Latency (issue 39): a wait on every Get, or after every Put, at
		// twice the class rows' 3% is REGRESSION. Latency only detects in
		// the release suite (compare.detect_only), so a change at a
		// tolerance is shown, not promised never to PASS.
		{mk("release-latency", "every READ x1.06 (2 class tau)", simEffect{op: "READ", opFactor: 1.06}, nil), "power", nil},
		// A wait after the WAL append slows every Put: UPDATE and INSERT.
		{mk("release-latency", "every write x1.06 (2 class tau)", simEffect{op: "UPDATE|INSERT", opFactor: 1.06}, nil), "power", nil},
		// Reads and writes at x1.03, x1.05, x1.10 and x1.25: the detection
		// curve (TestValidationLatencyCurve).
		{mk("release", "every cpu_per_op x1.05 (= tau)", simEffect{cpu: 1.05}, nil), "false-pass", nil},
		// The CPU primary row's 3%: a change of it in every workload, the
		// pairs' noise alone, is never PASS beyond alpha's rate.
		{mk("release", "every cpu_per_op x1.03 (= primary tau)", simEffect{cpu: 1.03}, nil), "false-pass", nil},
		{mk("release", "C cpu_per_op x1.05 (= tau)", simEffect{workload: "C", cpu: 1.05}, nil), "false-pass", nil},
		{mk("release", "every cpu_per_op x1.10 (2 tau)", simEffect{cpu: 1.10}, nil), "power", nil},
		{mk("release", "C cpu_per_op x1.10 (2 tau)", simEffect{workload: "C", cpu: 1.10}, nil), "power", cpuC},
		{mk("release", "C alloc_per_op x1.10 (2 tau)", simEffect{workload: "C", alloc: 1.10}, nil), "power", allocC},
		// With the offsets between JVMs (instances as measured), which the
		// interval does not see, shown, not promised: at R=300 a change of
		// tau everywhere passed 4% of runs, and 2 tau in C alone was
		// REGRESSED in 72% (80.7% without offsets). Instances as a level in
		// the interval is what would make these rows hold (issue 31).
		{mk("release", "instances: every cpu_per_op x1.05 (= tau)", simEffect{cpu: 1.05}, instances), "shown", nil},
		{mk("release", "instances: C cpu_per_op x1.10 (2 tau)", simEffect{workload: "C", cpu: 1.10}, instances), "shown", cpuC},
		// The primary rows with the offsets: twice their tolerance in every
		// workload is REGRESSION (power), the tolerance itself is shown
		// (the offset, unseen, passes it now and then; 5% everywhere is the
		// row above), and a cost of Gets
		// alone at 5% and 8% of C's cpu_per_op (B and D 95% of it, A and F
		// half, E none), which the mean over workloads dilutes.
		{mk("release", "instances: every cpu_per_op x1.06 (2 primary tau)", simEffect{cpu: 1.06}, instances), "power", nil},
		{mk("release", "hiccups: every cpu_per_op x1.06 (2 primary tau)", simEffect{cpu: 1.06}, func(s *simScenario) { instances(s); hiccups(s) }), "power", nil},
		// A hiccup pair left out is a pair less: 2 tau in C alone falls
		// from 81% to about 77% (shown).
		{mk("release", "hiccups: C cpu_per_op x1.10 (2 tau)", simEffect{workload: "C", cpu: 1.10}, hiccups), "shown", cpuC},
		{mk("release", "instances: every cpu_per_op x1.03 (= primary tau)", simEffect{cpu: 1.03}, instances), "shown", nil},
		{mk("release", "instances: Gets cost +5% of C's cpu_per_op", simEffect{cpuBy: getPath(1.05)}, instances), "shown", nil},
		{mk("release", "instances: Gets cost +8% of C's cpu_per_op", simEffect{cpuBy: getPath(1.08)}, instances), "shown", nil},
		{mk("release", "instances: Gets cost +15% of C's cpu_per_op", simEffect{cpuBy: getPath(1.15)}, instances), "shown", nil},
		// Two instances a side: the offset is in the interval, so a change
		// of tau everywhere no longer passes as REGRESSION a quarter of the
		// time; the price is power in one workload alone.
		{mk("release", "2 instances: every cpu_per_op x1.05 (= tau)", simEffect{cpu: 1.05}, twoInstances), "false-pass", nil},
		{mk("release", "2 instances: every cpu_per_op x1.10 (2 tau)", simEffect{cpu: 1.10}, twoInstances), "shown", nil},
		{mk("release", "2 instances: C cpu_per_op x1.10 (2 tau)", simEffect{workload: "C", cpu: 1.10}, twoInstances), "shown", cpuC},
		{mk("smoke", "C cpu_per_op x1.10 (= tau)", simEffect{workload: "C", cpu: 1.10}, nil), "false-pass", nil},
		{mk("smoke", "every cpu_per_op x1.10 (= tau)", simEffect{cpu: 1.10}, nil), "false-pass", nil},
		{mk("smoke", "C cpu_per_op x1.20 (2 tau)", simEffect{workload: "C", cpu: 1.20}, nil), "power", cpuC},
		{mk("smoke", "C alloc_per_op x1.30, not gated", simEffect{workload: "C", alloc: 1.30}, nil), "shown", allocC},
		{mk("smoke", "noisy: C cpu_per_op x1.10 (= tau)", simEffect{workload: "C", cpu: 1.10}, noisyDay), "false-pass", nil},
		// 8 pairs see 2 tau in one workload two times in three on a noisy day (measured: 66%); 3 tau always.
		{mk("smoke", "noisy: C cpu_per_op x1.20 (2 tau)", simEffect{workload: "C", cpu: 1.20}, noisyDay), "shown", cpuC},
		{mk("smoke", "noisy: C cpu_per_op x1.30 (3 tau)", simEffect{workload: "C", cpu: 1.30}, noisyDay), "power", cpuC},
	}
	// Rows print as they are computed: a slow machine still shows the finished ones.
	b := os.Stdout
	fail := []string{}
	fmt.Fprintf(b, "\nSuites' families: gated metrics after the tail-sample rule, alpha=FWER=%.2f, PASS = every gated metric's one-sided bound at alpha/looks within 1+tau\n", alpha)
	fmt.Fprintf(b, "smoke: 6 workloads x 2400 ops/trial, 6-8 duet pairs, 2 looks, gate p95 (p50 or mean for 5%%-operations) and cpu_per_op (per-pair spread of cpu and alloc %.3f and %.3f, measured; cpu %.3f on a noisy day); quick: 4 x 40k, 5-12 pairs, 2 looks, gate p99 (p95 for 5%%-operations);\nrc: 6 x 20k (rc runs 10M), 5-15 pairs, 3 looks; all at a held target rate (the held-rate check gates instead of throughput)\n", smokeCPUPairSD, smokeAllocPairSD, smokeNoisyCPUPairSD)
	fmt.Fprintf(b, "\nA/A, R=%d: false REGRESSED of any gated metric (family) and of the worst metric; bound alpha+3sigma=%s; target A/A PASS >= 80%% for quick\n", R, strings.TrimSpace(pct(bound(alpha, R))))
	fmt.Fprintf(b, "%-46s %6s %7s %7s %7s %6s %5s %s\n", "scenario", "gated", "family", "worst", "PASS", "INCONC", "pairs", "check")
	for _, rw := range aaRows {
		R := scenarioReps(rw.s, R)
		ty := runScenario(t, rw.s, R)
		fam := float64(ty.family) / float64(R)
		worst, at := 0.0, ""
		for _, k := range ty.keys() {
			if r := ty.rate(k, Regressed); r > worst {
				worst, at = r, k
			}
		}
		passRate := float64(ty.verdicts[Pass]) / float64(R)
		check := "ok"
		bad := func(format string, a ...any) {
			fail = append(fail, rw.s.name+": "+fmt.Sprintf(format, a...))
			check = "FAIL"
		}
		if fam > bound(alpha, R) {
			bad("family-wise false REGRESSED %.3f above %.3f", fam, bound(alpha, R))
		}
		if worst > bound(alpha, R) {
			bad("false REGRESSED of %s at %.3f above %.3f", at, worst, bound(alpha, R))
		}
		if rw.role == "pass-target" && passRate < 0.80 {
			bad("A/A PASS %.3f below the 0.80 target", passRate)
		}
		fmt.Fprintf(b, "%-46s %6.1f %7s %7s %7s %6s %5.1f %s\n", rw.s.name, float64(ty.gated)/float64(R), pct(fam), pct(worst), pct(passRate),
			pct(float64(ty.verdicts[VerdictInconclusive])/float64(R)), float64(ty.pairs)/float64(R), check)
	}
	fmt.Fprintf(b, "\nA real change, R=%d: false PASS must be <= %s at a change of exactly tau; power >= 80%% at 2 tau\n", Rp, strings.TrimSpace(pct(bound(alpha, Rp))))
	fmt.Fprintf(b, "power: verdict REGRESSION for a change of every workload, REGRESSED of the changed metric for one operation (family false REGRESSED for the A/A row);\nIMPROVED: worst changed metric, must stay <= alpha/2\n")
	fmt.Fprintf(b, "%-46s %7s %9s %9s %9s %5s %s\n", "true change", "PASS", "REGRESSED", "verdict-R", "IMPROVED", "pairs", "check")
	for _, rw := range edgeRows {
		Rp := scenarioReps(rw.s, Rp)
		ty := runScenario(t, rw.s, Rp)
		// Power is the verdict REGRESSION for a change of every workload (the
		// schedule stops at the first gated metric it proves regressed), and the
		// changed metric's own REGRESSED rate for a change of one operation.
		minReg, maxImp := float64(ty.verdicts[Regression])/float64(Rp), 0.0
		if rw.targets != nil {
			minReg = 1
			for _, k := range rw.targets {
				minReg = math.Min(minReg, ty.rate(k, Regressed))
			}
		}
		for _, k := range ty.keys() {
			changed := slices.Contains(rw.targets, k) ||
				rw.targets == nil && !strings.HasSuffix(k, "/"+MetricThroughput) && !strings.HasSuffix(k, "held rate")
			if changed {
				maxImp = math.Max(maxImp, ty.rate(k, Improved))
			}
		}
		passRate := float64(ty.verdicts[Pass]) / float64(Rp)
		check := "ok"
		bad := func(format string, a ...any) {
			fail = append(fail, rw.s.name+": "+fmt.Sprintf(format, a...))
			check = "FAIL"
		}
		reg := "-"
		switch rw.role {
		case "held-aa":
			fam := float64(ty.family) / float64(Rp)
			if fam > bound(alpha, Rp) {
				bad("family-wise false REGRESSED %.3f above %.3f with random misses of the rate", fam, bound(alpha, Rp))
			}
			reg = pct(fam)
		case "false-pass":
			if passRate > bound(alpha, Rp) {
				bad("false PASS %.3f at a change of tau, above %.3f", passRate, bound(alpha, Rp))
			}
		case "power":
			reg = pct(minReg)
			if minReg < 0.8 {
				bad("power %.3f below 0.8", minReg)
			}
		default:
			reg = pct(minReg)
			check = "shown only"
		}
		if rw.role != "held-aa" && maxImp > alpha/2 {
			bad("IMPROVED under a real regression at %.3f", maxImp)
		}
		fmt.Fprintf(b, "%-46s %7s %9s %9s %9s %5.1f %s\n", rw.s.name, pct(passRate), reg,
			pct(float64(ty.verdicts[Regression])/float64(Rp)), pct(maxImp), float64(ty.pairs)/float64(Rp), check)
	}
	if !checks {
		t.Logf("race detector on: %d statistical checks not enforced at %d replications (make validate-stats enforces them)", len(fail), R)
		return
	}
	for _, f := range fail {
		t.Error(f)
	}
}

// scenarioReps is the replications a scenario runs in a table of r: its
// own reps when set and fewer (the bounds then widen with them).
func scenarioReps(s simScenario, r int) int {
	if s.reps > 0 && s.reps < r {
		return s.reps
	}
	return r
}

// curveReps is the replications of each dose of the latency curve (-reps
// sets another): the release-latency rows' own 300, not the power table's
// 500, to keep make validate-stats within CI's time (eight doses, every
// trial simulated whole).
const curveReps = 300

// TestValidationLatencyCurve is issue 39's proof as a curve: how often the
// release suite's verdict is REGRESSION, and its class row (reads' or
// writes' p50 over the workloads) REGRESSED, when every read or every write
// waits long enough to move its p50 by 3%, 5%, 10% or 25%, on the latency
// noise measured in release duets (suiteScenario's release-latency). A
// curve is shown, not a target, but three of its claims are sound and
// held: a change at the class rows' tolerance is REGRESSION no more often
// than alpha allows, x1.25 is REGRESSION in 95% or more of runs, and no
// rate falls as the dose grows by more than two of the simulation's
// standard errors.
func TestValidationLatencyCurve(t *testing.T) {
	reps(t) // skips under -short
	R := curveReps
	// Under the race detector (make test) the curve runs a few
	// replications a dose, unchecked, as TestValidationFamilies does.
	checks := !raceEnabled || *validateReps > 0
	switch {
	case *validateReps > 0:
		R = *validateReps
	case !checks:
		R = 6
	}
	const alpha = 0.05
	doses := []float64{1.03, 1.05, 1.10, 1.25}
	classes := []struct{ class, op string }{{ClassReads, "READ"}, {ClassWrites, "UPDATE|INSERT"}}
	base := suiteScenario("release-latency")
	classTau := base.cfg.PrimaryTolerances[MetricP50]
	b := os.Stdout
	var fail []string
	fmt.Fprintf(b, "\nrelease-latency detection curve, R=%d a dose (the release-latency rows' own, fewer than the power table's: CI's time), alpha=FWER=%.2f;\n", R, alpha)
	fmt.Fprintf(b, "every read (READ) or write (UPDATE, INSERT) x dose, p50 tolerance %.0f%% a workload, %.0f%% the class row; 95%% Wilson intervals;\n",
		100*base.cfg.Tolerances[MetricP50], 100*classTau)
	fmt.Fprintf(b, "held: both rates <= %s at the class tolerance, >= 95%% at x1.25, and neither falling with the dose by more than 2 SE\n", strings.TrimSpace(pct(bound(alpha, R))))
	fmt.Fprintf(b, "%-7s %5s %-24s %-24s %7s %9s %4s %s\n", "class", "p50", "verdict REGRESSION", "class row REGRESSED", "PASS", "IMPROVED", "R", "check")
	for _, c := range classes {
		key := AllWorkloads + "/" + c.class + "/" + MetricP50
		var prevVerdict, prevRow float64
		for i, d := range doses {
			s := base
			s.name = fmt.Sprintf("release-latency: every %s x%.2f", c.class, d)
			s.effect = simEffect{op: c.op, opFactor: d}
			ty := runScenario(t, s, R)
			n := ty.verdicts[Regression]
			verdict := float64(n) / float64(R)
			row := ty.rate(key, Regressed)
			passRate := float64(ty.verdicts[Pass]) / float64(R)
			maxImp := 0.0
			for _, k := range ty.keys() {
				if !strings.HasSuffix(k, "/"+MetricThroughput) {
					maxImp = math.Max(maxImp, ty.rate(k, Improved))
				}
			}
			check := "ok"
			bad := func(format string, a ...any) {
				fail = append(fail, s.name+": "+fmt.Sprintf(format, a...))
				check = "FAIL"
			}
			if d <= 1+classTau+1e-9 && math.Max(verdict, row) > bound(alpha, R) {
				bad("REGRESSION %.3f, class row REGRESSED %.3f at the class tolerance, above %.3f", verdict, row, bound(alpha, R))
			}
			if d >= 1.25 && math.Min(verdict, row) < 0.95 {
				bad("REGRESSION %.3f, class row REGRESSED %.3f at x%.2f, below 0.95", verdict, row, d)
			}
			if i > 0 {
				if falls(prevVerdict, verdict, R) {
					bad("REGRESSION fell from %.3f to %.3f as the dose grew", prevVerdict, verdict)
				}
				if falls(prevRow, row, R) {
					bad("%s REGRESSED fell from %.3f to %.3f as the dose grew", key, prevRow, row)
				}
			}
			if maxImp > alpha/2 {
				bad("IMPROVED under a real regression at %.3f", maxImp)
			}
			prevVerdict, prevRow = verdict, row
			fmt.Fprintf(b, "%-7s %+4.0f%% %-24s %-24s %7s %9s %4d %s\n", c.class, 100*(d-1), rateCI(n, R), rateCI(ty.counts[key][Regressed], R),
				pct(passRate), pct(maxImp), R, check)
		}
	}
	if !checks {
		t.Logf("race detector on: %d statistical checks not enforced at %d replications (make validate-stats enforces them)", len(fail), R)
		return
	}
	for _, f := range fail {
		t.Error(f)
	}
}

// falls reports whether a rate fell from p to q (both of R replications)
// by more than two standard errors of their difference.
func falls(p, q float64, R int) bool {
	se := math.Sqrt((p*(1-p) + q*(1-q)) / float64(R))
	return q < p-2*se
}

// rateCI prints k of n as a rate with its 95% Wilson score interval.
func rateCI(k, n int) string {
	lo, hi := wilson(k, n, 1.96)
	return fmt.Sprintf("%s [%4.1f, %5.1f]", pct(float64(k)/float64(n)), 100*lo, 100*hi)
}

// wilson is the Wilson score interval of k successes in n trials at z: it
// stays inside [0, 1] and is not empty at 0 or n, where the Wald interval
// collapses.
func wilson(k, n int, z float64) (lo, hi float64) {
	p, fn := float64(k)/float64(n), float64(n)
	den := 1 + z*z/fn
	mid := (p + z*z/(2*fn)) / den
	half := z * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn)) / den
	return math.Max(0, mid-half), math.Min(1, mid+half)
}

func TestWilsonAndFalls(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{50, 100, 0.4038, 0.5962}, // the textbook case
		{0, 200, 0, 0.0188},       // not empty at 0, where Wald's is
		{200, 200, 0.9812, 1},
		{131, 300, 0.3817, 0.4932},
	} {
		lo, hi := wilson(c.k, c.n, 1.96)
		if math.Abs(lo-c.lo) > 1e-4 || math.Abs(hi-c.hi) > 1e-4 {
			t.Errorf("wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	for _, c := range []struct {
		p, q float64
		R    int
		want bool
	}{
		{1, 1, 300, false},
		{0.5, 0.45, 300, false}, // 5 points, 2 SE is 8
		{0.5, 0.40, 300, true},
		{0.2, 0.9, 300, false}, // a rise
		{1, 0.97, 300, true},   // from certainty, 2 SE is 2 points
	} {
		if got := falls(c.p, c.q, c.R); got != c.want {
			t.Errorf("falls(%.2f, %.2f, %d) = %v, want %v", c.p, c.q, c.R, got, c.want)
		}
	}
}
