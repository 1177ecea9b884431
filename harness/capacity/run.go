package capacity

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Sides names the two sides of a capacity run, in Prober's side order.
var Sides = [2]string{"baseline", "candidate"}

// Prober runs one step: workload w at rate ops/s on a fresh clone of side's
// seed (0 baseline, 1 candidate), and returns it measured (Good and Why are
// set by Run).
type Prober func(ctx context.Context, side int, workload string, rate float64, phase string) (Step, error)

// Sweep is the whole outcome of a capacity run.
type Sweep struct {
	// Baseline and Candidate name the sides (store targets).
	Baseline  string `json:"baseline"`
	Candidate string `json:"candidate"`
	Suite     string `json:"suite,omitempty"`
	RunID     string `json:"run_id,omitempty"`
	// SLOP99Micros, Hold and Resolution are the thresholds the steps were judged by.
	SLOP99Micros float64       `json:"slo_p99_us"`
	SLOP50Micros float64       `json:"slo_p50_us,omitempty"`
	Hold         float64       `json:"hold"`
	Resolution   float64       `json:"resolution"`
	MaxOpsPerSec float64       `json:"max_rate"`
	Budget       time.Duration `json:"budget_ns"`
	// Searches holds every search, pair by pair, workload by workload, baseline first.
	Searches []Search `json:"searches"`
	// PairsPlanned is the configured number of pairs; BudgetHit says the budget ended the run early.
	PairsPlanned int  `json:"pairs_planned"`
	BudgetHit    bool `json:"budget_hit"`
	// Primes are the throwaway steps run first, one per side and workload at
	// the ladder's first rate: a freshly started JVM (JIT, caches, the
	// compactions after seeding) fails steps far below its knee.
	Primes []Step `json:"primes,omitempty"`
	// Started and Elapsed time the whole run.
	Started time.Time     `json:"started"`
	Elapsed time.Duration `json:"elapsed_ns"`
}

// Event reports one finished step, for progress output.
type Event struct {
	Side, Workload string
	Pair           int
	Step           Step
	Elapsed        time.Duration
}

// Run primes each side and workload with one throwaway step, then searches
// each workload's knee on both sides, pair after pair: inside a
// pair both sides' searches advance one step at a time in random order
// (RMIT at the step level, so drift hits both alike). It stops starting steps
// when the next would overrun cfg.Budget; searches cut short report "at
// least" their best good rate. rng orders the steps (nil: randomly seeded);
// onStep, if set, sees every step.
func Run(ctx context.Context, cfg Config, probe Prober, rng *rand.Rand, onStep func(Event)) (*Sweep, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	now := cfg.now
	if now == nil {
		now = time.Now
	}
	since := func(t time.Time) time.Duration { return now().Sub(t) }
	sw := &Sweep{SLOP99Micros: float64(cfg.SLOP99.Microseconds()), SLOP50Micros: float64(cfg.SLOP50.Microseconds()), Hold: cfg.Hold, Resolution: cfg.Resolution,
		MaxOpsPerSec: cfg.MaxOpsPerSec, Budget: cfg.Budget, PairsPlanned: cfg.Pairs, Started: now()}
	defer func() { sw.Elapsed = since(sw.Started) }()
	var wall time.Duration
	var steps int
	// estimate is the next step's expected wall time: the mean so far
	// (clone and drop included), never less than the planned step.
	estimate := func() time.Duration {
		if steps == 0 {
			return cfg.StepTime
		}
		return max(wall/time.Duration(steps), cfg.StepTime)
	}
	first := cfg.Ladder()[0]
	for _, w := range cfg.Workloads {
		for _, side := range [2]int{0, 1} {
			if since(sw.Started)+estimate() > cfg.Budget {
				break
			}
			t0 := now()
			st, err := probe(ctx, side, w, first, "prime")
			if err != nil {
				return sw, fmt.Errorf("capacity: %s %s priming step at %.0f ops/s: %w", Sides[side], w, first, err)
			}
			st.TargetOpsPerSec, st.Phase, st.Start, st.Wall = first, "prime", t0, since(t0)
			cfg.Judge(&st)
			sw.Primes = append(sw.Primes, st)
			wall += st.Wall
			steps++
			if onStep != nil {
				onStep(Event{Side: Sides[side], Workload: w, Step: st, Elapsed: since(sw.Started)})
			}
		}
	}
	for pair := 0; pair < cfg.Pairs && !sw.BudgetHit; pair++ {
		for _, w := range cfg.Workloads {
			if sw.BudgetHit {
				break
			}
			if since(sw.Started)+2*estimate() > cfg.Budget {
				sw.BudgetHit = true // not even one step a side fits: start no pair
				break
			}
			ss := [2]*Search{{Workload: w, Side: Sides[0], Pair: pair}, {Workload: w, Side: Sides[1], Pair: pair}}
			xs := [2]*searcher{newSearcher(cfg, ss[0]), newSearcher(cfg, ss[1])}
			for !xs[0].done || !xs[1].done {
				order := [2]int{0, 1}
				if rng.IntN(2) == 1 {
					order = [2]int{1, 0}
				}
				for _, side := range order {
					x := xs[side]
					rate, phase, ok := x.next()
					if !ok {
						continue
					}
					if since(sw.Started)+estimate() > cfg.Budget {
						sw.BudgetHit = true
						xs[0].stopBudget()
						xs[1].stopBudget()
						break
					}
					t0 := now()
					st, err := probe(ctx, side, w, rate, phase)
					if err != nil {
						sw.Searches = append(sw.Searches, *ss[0], *ss[1])
						if errors.Is(err, context.Canceled) || ctx.Err() != nil {
							return sw, fmt.Errorf("capacity: interrupted during %s %s step at %.0f ops/s: %w", Sides[side], w, rate, err)
						}
						return sw, fmt.Errorf("capacity: %s %s step at %.0f ops/s: %w", Sides[side], w, rate, err)
					}
					st.TargetOpsPerSec, st.Phase = rate, phase
					if st.Start.IsZero() {
						st.Start = t0
					}
					if st.Wall == 0 {
						st.Wall = since(t0)
					}
					wall += st.Wall
					steps++
					cfg.Judge(&st)
					x.record(st)
					if onStep != nil {
						onStep(Event{Side: Sides[side], Workload: w, Pair: pair, Step: st, Elapsed: since(sw.Started)})
					}
				}
			}
			sw.Searches = append(sw.Searches, *ss[0], *ss[1])
		}
	}
	return sw, nil
}

// Capacities returns, per pair in order, both sides' searches of workload w.
func (sw *Sweep) Capacities(w string) [][2]*Search {
	byPair := map[int]*[2]*Search{}
	var order []int
	for i := range sw.Searches {
		s := &sw.Searches[i]
		if s.Workload != w {
			continue
		}
		p, ok := byPair[s.Pair]
		if !ok {
			p = &[2]*Search{}
			byPair[s.Pair] = p
			order = append(order, s.Pair)
		}
		if s.Side == Sides[0] {
			p[0] = s
		} else {
			p[1] = s
		}
	}
	var out [][2]*Search
	for _, k := range order {
		if p := byPair[k]; p[0] != nil && p[1] != nil {
			out = append(out, *p)
		}
	}
	return out
}

// Workloads lists the workloads swept, in order.
func (sw *Sweep) Workloads() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range sw.Searches {
		if !seen[s.Workload] {
			seen[s.Workload] = true
			out = append(out, s.Workload)
		}
	}
	return out
}
