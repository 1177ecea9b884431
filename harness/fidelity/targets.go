package fidelity

import (
	"fmt"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// Targets are the fidelity goals a set of runs is checked against.
type Targets struct {
	// At is the rate (ops/s) whose runs the latency targets apply to.
	At float64
	// ReadP95, ReadP99 bound every such run's READ service percentiles.
	ReadP95, ReadP99 time.Duration
	// Spread bounds the largest READ p95 over the smallest among those runs (no bimodal runs).
	Spread float64
	// CPUPerOp bounds the client CPU per operation by workload name prefix (e.g. "workloadc").
	CPUPerOp map[string]time.Duration
	// RateError bounds |achieved-target|/target of every run.
	RateError float64
}

// DefaultTargets are issue 15's targets for this project's 2-core machine.
var DefaultTargets = Targets{
	At: 1000, ReadP95: 500 * time.Microsecond, ReadP99: 1500 * time.Microsecond, Spread: 1.5,
	CPUPerOp:  map[string]time.Duration{"workloadc": 40 * time.Microsecond, "workloada": 50 * time.Microsecond},
	RateError: 0.005,
}

// Check returns one line per target: PASS or MISS, with the figures behind
// it. Runs numbered 0 are warm-up runs and left out.
func Check(runs []Figures, t Targets) []string {
	var out []string
	say := func(ok bool, format string, args ...any) {
		word := "PASS"
		if !ok {
			word = "MISS"
		}
		out = append(out, word+"  "+fmt.Sprintf(format, args...))
	}
	us := func(d time.Duration) int64 { return d.Microseconds() }
	byCase := map[string][]Figures{}
	var order []string
	for _, f := range runs {
		if f.Run == 0 {
			continue // a warm-up run
		}
		if _, seen := byCase[f.Case]; !seen {
			order = append(order, f.Case)
		}
		byCase[f.Case] = append(byCase[f.Case], f)
	}
	for _, c := range order {
		fs := byCase[c]
		if fs[0].Target == t.At {
			var lo, hi int64 = -1, 0
			okP95, okP99 := true, true
			var p95s, p99s []string
			for _, f := range fs {
				r, ok := f.Ops[workload.Read]
				if !ok {
					continue
				}
				okP95 = okP95 && r.Service.P95 <= us(t.ReadP95)
				okP99 = okP99 && r.Service.P99 <= us(t.ReadP99)
				p95s = append(p95s, fmt.Sprint(r.Service.P95))
				p99s = append(p99s, fmt.Sprint(r.Service.P99))
				if lo < 0 || r.Service.P95 < lo {
					lo = r.Service.P95
				}
				hi = max(hi, r.Service.P95)
			}
			if len(p95s) > 0 {
				say(okP95, "%s READ service p95 <= %d us in every run: %s us", c, us(t.ReadP95), strings.Join(p95s, ", "))
				say(okP99, "%s READ service p99 <= %d us in every run: %s us", c, us(t.ReadP99), strings.Join(p99s, ", "))
				spread := float64(hi) / float64(max(lo, 1))
				say(spread <= t.Spread, "%s largest READ p95 / smallest <= %.1f: %.2f", c, t.Spread, spread)
			}
		}
		for prefix, limit := range t.CPUPerOp {
			if !strings.HasPrefix(c, prefix) {
				continue
			}
			ok := true
			var cpus []string
			for _, f := range fs {
				ok = ok && f.CPUPerOp <= limit
				cpus = append(cpus, fmt.Sprintf("%.1f", float64(f.CPUPerOp)/float64(time.Microsecond)))
			}
			say(ok, "%s client CPU/op <= %d us: %s us", c, us(limit), strings.Join(cpus, ", "))
		}
		ok := true
		var errs []string
		for _, f := range fs {
			e := (f.Achieved - f.Target) / f.Target
			ok = ok && e <= t.RateError && -e <= t.RateError
			errs = append(errs, fmt.Sprintf("%+.2f%%", 100*e))
		}
		say(ok, "%s achieved rate within %.1f%% of target: %s", c, 100*t.RateError, strings.Join(errs, ", "))
	}
	return out
}
