package compare

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The validation suite: seeded simulations that show the comparison keeps
// its promises (false alarms bounded, real regressions found). `make
// validate-stats` runs it verbosely and the tables it logs are the evidence.

var validateReps = flag.Int("reps", 0, "replications per validation scenario (0: 1000, or 50 under -race)")

const validationSeed = 20261130

// reps returns the replications per scenario: R for the A/A table, and for
// the power table, where the bound of interest (power >= 0.8) is far from the
// observed rates, half as many to keep the suite within a few minutes.
func reps(t *testing.T) (aa, power int) {
	if testing.Short() {
		t.Skip("the validation suite simulates for minutes; run make validate-stats (or go test without -short)")
	}
	if *validateReps > 0 {
		return *validateReps, *validateReps
	}
	if raceEnabled {
		// The race detector slows the generator ~10x; the bounds below widen
		// with 1/sqrt(R), so the checks stay meaningful, only less sharp.
		return 50, 50
	}
	return 1000, 500
}

// rcPairs is the adaptive schedule of the rc suite: 5 pairs, up to 15, 3 looks.
func rcPairs(s *simScenario) {
	s.pairs, s.adaptive, s.cfg.Looks, s.cfg.MaxPairs = 5, true, 3, 15
}

// outcome is what one replication decided.
type outcome struct {
	status   map[string]Status // by op/metric
	gatedReg bool              // any gated metric REGRESSED
	verdict  Verdict
	flagged  bool // the schedule was flagged as not interleaved
	pairs    int  // most pairs any decision used
	gated    int  // gated metrics and held-rate checks
}

// tally aggregates the outcomes of R replications.
type tally struct {
	R        int
	counts   map[string]map[Status]int
	family   int
	verdicts map[Verdict]int
	flagged  int
	pairs    int
	gated    int
}

func (t tally) rate(key string, s Status) float64 {
	return float64(t.counts[key][s]) / float64(t.R)
}

func (t tally) keys() []string {
	var ks []string
	for k := range t.counts {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// runScenario replicates s R times in parallel; replication i draws from its
// own PCG stream (seed, i), so the result does not depend on scheduling.
func runScenario(t *testing.T, s simScenario, R int) tally {
	t.Helper()
	outs := make([]outcome, R)
	errs := make([]error, R)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := newSimRecorder()
			for {
				i := int(next.Add(1) - 1)
				if i >= R {
					return
				}
				rng := rand.New(rand.NewPCG(validationSeed, uint64(i)))
				c, err := s.run(rng, rec)
				if err != nil {
					errs[i] = err
					continue
				}
				o := outcome{status: map[string]Status{}, verdict: c.Verdict}
				for _, m := range c.Metrics {
					o.status[m.Workload+"/"+m.Op+"/"+m.Metric] = m.Status
					if m.Gated && m.Status == Regressed {
						o.gatedReg = true
					}
					o.pairs = max(o.pairs, m.Pairs)
					if m.Gated {
						o.gated++
					}
				}
				for _, h := range c.HeldRate {
					o.status[h.Workload+"/held rate"] = h.Status
					if h.Gated && h.Status == Regressed {
						o.gatedReg = true
					}
					if h.Gated {
						o.gated++
					}
				}
				for _, w := range c.Warnings {
					if strings.Contains(w, "not interleaved") {
						o.flagged = true
					}
				}
				outs[i] = o
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("scenario %q replication %d: %v", s.name, i, err)
		}
	}
	ty := tally{R: R, counts: map[string]map[Status]int{}, verdicts: map[Verdict]int{}}
	for _, o := range outs {
		for k, st := range o.status {
			if ty.counts[k] == nil {
				ty.counts[k] = map[Status]int{}
			}
			ty.counts[k][st]++
		}
		if o.gatedReg {
			ty.family++
		}
		ty.verdicts[o.verdict]++
		if o.flagged {
			ty.flagged++
		}
		ty.pairs += o.pairs
		ty.gated += o.gated
	}
	return ty
}

// bound is alpha plus three binomial standard errors at R replications.
func bound(alpha float64, R int) float64 {
	return alpha + 3*math.Sqrt(alpha*(1-alpha)/float64(R))
}

func pct(x float64) string { return fmt.Sprintf("%5.1f%%", 100*x) }

// metricColumns are the per-metric columns of the A/A table; each cell is the
// worst (largest) false-REGRESSED rate over the operations.
var metricColumns = []string{MetricP50, MetricP95, MetricP99, MetricP999, MetricMean, MetricThroughput}

func worstRegressed(ty tally, metric string) (float64, string) {
	worst, at := 0.0, ""
	for _, k := range ty.keys() {
		if strings.HasSuffix(k, "/"+metric) {
			if r := ty.rate(k, Regressed); r >= worst {
				worst, at = r, k
			}
		}
	}
	return worst, at
}

func TestValidationAA(t *testing.T) {
	R, _ := reps(t)
	const alpha = 0.05
	base := simScenario{model: defaultModel(), sched: schedRMIT, pairs: 7, cfg: Config{Alpha: alpha}}
	with := func(name string, f func(*simScenario)) simScenario {
		s := base
		s.name = name
		if f != nil {
			f(&s)
		}
		return s
	}
	tiny := map[string]float64{}
	for _, m := range metricColumns {
		tiny[m] = 0.001
	}
	scenarios := []struct {
		s       simScenario
		checked bool // false: shown to make a point, not held to the bound
	}{
		{with("stable, RMIT k=7, phi=0.95", nil), true},
		{with("calibration: tolerance 0.1%", func(s *simScenario) { s.cfg.Tolerances = tiny }), true},
		{with("independent requests, phi=0", func(s *simScenario) { s.model.phi = 0 }), true},
		{with("heavy tail: phi=0.99, 20x stalls", func(s *simScenario) {
			s.model.phi, s.model.stallFactor, s.model.stallIn, s.model.trialSD = 0.99, 20, 0.001, 0.05
		}), true},
		{with("drift 1%/slot, RMIT", func(s *simScenario) { s.drift = 0.01 }), true},
		{with("drift 1%/slot, RMIT, tolerance 0.1%", func(s *simScenario) { s.drift, s.cfg.Tolerances = 0.01, tiny }), true},
		{with("unpaired 5 vs 8 trials (Welch)", func(s *simScenario) { s.sched, s.baseN, s.pairs = schedUnpaired, 5, 8 }), true},
		{with("adaptive (rc): 5 to 15 pairs, 3 looks", rcPairs), true},
		{with("drift 1%/slot, sequential AAAA-BBBB", func(s *simScenario) { s.drift, s.sched = 0.01, schedSequential }), false},
	}
	// Rows print as they are computed: a slow machine still shows the finished ones.
	b := os.Stdout
	fmt.Fprintf(b, "\nA/A: identical systems, false REGRESSED rate (worst op per metric), R=%d, alpha=FWER=%.2f, bound alpha+3sigma=%s\n", R, alpha, strings.TrimSpace(pct(bound(alpha, R))))
	fmt.Fprintf(b, "gated family: p99 of READ and UPDATE, throughput (Holm); per-metric bound applies to every metric\n")
	fmt.Fprintf(b, "%-40s %6s %6s %6s %6s %6s %6s | %6s %6s %6s %7s %5s %s\n",
		"scenario", "p50", "p95", "p99", "p99.9", "mean", "tput", "family", "PASS", "INCONC", "flagged", "pairs", "check")
	type failure struct{ msg string }
	var fails []failure
	for _, sc := range scenarios {
		ty := runScenario(t, sc.s, R)
		fmt.Fprintf(b, "%-40s", sc.s.name)
		for _, m := range metricColumns {
			r, at := worstRegressed(ty, m)
			fmt.Fprintf(b, " %6s", pct(r))
			if sc.checked && r > bound(alpha, R) {
				fails = append(fails, failure{fmt.Sprintf("%s: false REGRESSED rate of %s is %.3f, above the bound %.3f", sc.s.name, at, r, bound(alpha, R))})
			}
		}
		fam := float64(ty.family) / float64(R)
		check := "ok"
		if sc.checked && fam > bound(alpha, R) {
			fails = append(fails, failure{fmt.Sprintf("%s: family-wise false REGRESSED rate %.3f above %.3f", sc.s.name, fam, bound(alpha, R))})
			check = "FAIL"
		}
		flagged := float64(ty.flagged) / float64(R)
		if !sc.checked {
			check = "shown only"
			if flagged != 1 {
				fails = append(fails, failure{fmt.Sprintf("%s: only %.3f of sequential schedules were flagged as not interleaved", sc.s.name, flagged)})
				check = "FAIL"
			}
		} else if ty.flagged != 0 {
			fails = append(fails, failure{fmt.Sprintf("%s: %d interleaved schedules were flagged as not interleaved", sc.s.name, ty.flagged)})
			check = "FAIL"
		}
		fmt.Fprintf(b, " | %6s %6s %6s %7s %5.1f %s\n", pct(fam),
			pct(float64(ty.verdicts[Pass])/float64(R)), pct(float64(ty.verdicts[VerdictInconclusive])/float64(R)),
			pct(flagged), float64(ty.pairs)/float64(R), check)
	}
	for _, f := range fails {
		t.Error(f.msg)
	}
}

func TestValidationPower(t *testing.T) {
	_, R := reps(t)
	const alpha = 0.05
	base := simScenario{model: defaultModel(), sched: schedRMIT, pairs: 7, cfg: Config{Alpha: alpha}}
	type row struct {
		s       simScenario
		targets []string // op/metric the change is meant to move
		others  []string // gated op/metric the change must not flag
		role    string   // "power": delta = 2 tau; "edge": delta = tau; "shown"
	}
	mk := func(name string, eff simEffect, f func(*simScenario)) simScenario {
		s := base
		s.name, s.effect = name, eff
		if f != nil {
			f(&s)
		}
		return s
	}
	p99s := []string{"A/READ/p99", "A/UPDATE/p99"}
	upd := []string{"A/UPDATE/p99"}
	updOthers := []string{"A/READ/p99", "A/ALL/throughput"}
	tput := []string{"A/ALL/throughput"}
	rows := []row{
		{mk("k=7 fixed: all requests x1.20 (2 tau)", simEffect{all: 1.20}, nil), p99s, nil, "shown"},
		{mk("all requests x1.05", simEffect{all: 1.05}, rcPairs), p99s, nil, "shown"},
		{mk("all requests x1.10 (= tau)", simEffect{all: 1.10}, rcPairs), p99s, nil, "edge"},
		{mk("all requests x1.20 (2 tau)", simEffect{all: 1.20}, rcPairs), p99s, nil, "power"},
		{mk("tail (> base p90) x1.10 (= tau)", simEffect{tail: 1.10}, rcPairs), p99s, nil, "edge"},
		{mk("tail (> base p90) x1.20 (2 tau)", simEffect{tail: 1.20}, rcPairs), p99s, nil, "power"},
		{mk("UPDATE only x1.10 (= tau)", simEffect{op: "UPDATE", opFactor: 1.10}, rcPairs), upd, updOthers, "edge"},
		{mk("UPDATE only x1.20 (2 tau)", simEffect{op: "UPDATE", opFactor: 1.20}, rcPairs), upd, updOthers, "power"},
		{mk("throughput x1/1.05 (= tau)", simEffect{tput: 1 / 1.05}, rcPairs), tput, p99s, "edge"},
		{mk("throughput x1/1.10 (2 tau)", simEffect{tput: 1 / 1.10}, rcPairs), tput, p99s, "power"},
	}
	// Rows print as they are computed: a slow machine still shows the finished ones.
	b := os.Stdout
	fmt.Fprintf(b, "\nPower: a real regression of the candidate, R=%d, alpha=FWER=%.2f, tolerance p99 10%%, throughput 5%%,\nadaptive pairs as in the rc suite (5 pairs, up to 15, 3 looks at alpha/3 each) unless marked k=7 fixed\n", R, alpha)
	fmt.Fprintf(b, "REGRESSED = worst (smallest) rate over the changed gated metrics; must be >= 80%% at 2 tau and <= %s at tau\n", strings.TrimSpace(pct(bound(alpha, R))))
	fmt.Fprintf(b, "verdict-R: verdict REGRESSION; other-R: worst REGRESSED rate of gated metrics left unchanged; p50-R: p50 REGRESSED (not gated)\n")
	fmt.Fprintf(b, "%-40s %-26s %9s %9s %9s %9s %6s %5s %s\n", "true change", "changed metric(s)", "REGRESSED", "IMPROVED", "verdict-R", "other-R", "p50-R", "pairs", "check")
	var fails []string
	for _, rw := range rows {
		ty := runScenario(t, rw.s, R)
		minReg, maxImp := 1.0, 0.0
		for _, k := range rw.targets {
			minReg = math.Min(minReg, ty.rate(k, Regressed))
			maxImp = math.Max(maxImp, ty.rate(k, Improved))
		}
		maxReg := 0.0
		for _, k := range rw.targets {
			maxReg = math.Max(maxReg, ty.rate(k, Regressed))
		}
		other := 0.0
		for _, k := range rw.others {
			other = math.Max(other, ty.rate(k, Regressed))
		}
		check := "ok"
		fail := func(format string, args ...any) {
			fails = append(fails, rw.s.name+": "+fmt.Sprintf(format, args...))
			check = "FAIL"
		}
		switch rw.role {
		case "power":
			if minReg < 0.8 {
				fail("power %.3f below 0.8", minReg)
			}
		case "edge":
			if maxReg > bound(alpha, R) {
				fail("REGRESSED rate %.3f at the tolerance edge above %.3f", maxReg, bound(alpha, R))
			}
		default:
			check = "shown only"
		}
		if maxImp > alpha/2 {
			fail("IMPROVED under a real regression at rate %.3f, above alpha/2", maxImp)
		}
		if other > bound(alpha, R) {
			fail("unchanged gated metrics REGRESSED at rate %.3f", other)
		}
		p50, _ := worstRegressed(ty, MetricP50)
		fmt.Fprintf(b, "%-40s %-26s %9s %9s %9s %9s %6s %5.1f %s\n", rw.s.name, strings.Join(rw.targets, ","),
			pct(minReg), pct(maxImp), pct(float64(ty.verdicts[Regression])/float64(R)), pct(other), pct(p50),
			float64(ty.pairs)/float64(R), check)
	}
	for _, f := range fails {
		t.Error(f)
	}
}
