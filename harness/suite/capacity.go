package suite

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// Capacity configures `regress capacity`: an open-loop rate sweep per
// workload that finds the highest rate each version sustains within an SLO.
type Capacity struct {
	// Workloads are the workloads swept (default: the suite's workloads).
	Workloads []string `yaml:"workloads"`
	// StartOpsPerSec is the first rate of the geometric sweep.
	StartOpsPerSec float64 `yaml:"start"`
	// Factor multiplies the rate from one step to the next (geometric steps).
	Factor float64 `yaml:"factor"`
	// Rates, if set, replaces start and factor with an explicit ascending list of rates.
	Rates []float64 `yaml:"rates"`
	// MaxOpsPerSec is the rate ceiling: the sweep never asks for more.
	MaxOpsPerSec float64 `yaml:"max_rate"`
	// SLOP99 is the intended-latency p99 a step must stay within (every operation type).
	SLOP99 time.Duration `yaml:"-"`
	// SLOP50 is the intended median a step must stay within (every operation type); 0 leaves it out.
	SLOP50 time.Duration `yaml:"-"`
	// Resolution stops the bisection once the bracket [good, bad] is narrower than this fraction.
	Resolution float64 `yaml:"-"`
	// Threads is the number of workers per step (default: run.threads).
	Threads int           `yaml:"threads"`
	Warmup  time.Duration `yaml:"-"`
	Measure time.Duration `yaml:"-"`
	// Pairs is how many interleaved baseline/candidate searches run per workload.
	Pairs int `yaml:"pairs"`
	// Budget is the wall-clock time the whole sweep may take; searches left unfinished report "at least".
	Budget time.Duration `yaml:"-"`
	// Tolerance is the capacity drop (fraction) the comparison tolerates.
	Tolerance float64 `yaml:"-"`
}

// capacity is the capacity section as written (see file); its name is
// what a YAML error says (field x not found in type suite.capacity).
type capacity struct {
	Capacity   `yaml:",inline"`
	SLOP99     string `yaml:"slo_p99"`
	SLOP50     string `yaml:"slo_p50"`
	Resolution string `yaml:"resolution"`
	Warmup     string `yaml:"warmup"`
	Measure    string `yaml:"measure"`
	Budget     string `yaml:"budget"`
	Tolerance  string `yaml:"tolerance"`
}

// CapacityDefaults is the sweep a suite without a capacity section gets.
func CapacityDefaults() Capacity {
	return Capacity{StartOpsPerSec: 500, Factor: 2, MaxOpsPerSec: 50000, SLOP50: 5 * time.Millisecond,
		Resolution: 0.10, Warmup: 2 * time.Second, Measure: 5 * time.Second, Pairs: 3,
		Budget: 15 * time.Minute, Tolerance: 0.10}
}

// normaliseCapacity sets s.Capacity from the section as written (nil means
// defaults), filling defaults and validating.
func (s *Suite) normaliseCapacity(t *capacity) error {
	d := CapacityDefaults()
	if t == nil {
		t = &capacity{}
	}
	s.Capacity = &t.Capacity
	c := s.Capacity
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("capacity."+format, a...)) }
	if len(c.Workloads) == 0 {
		c.Workloads = append([]string(nil), s.Workloads...)
	}
	for _, w := range c.Workloads {
		if !contains(s.Workloads, w) {
			bad("workloads: %q is not one of the suite's workloads %v (the seed is built for those)", w, s.Workloads)
		}
	}
	if c.StartOpsPerSec == 0 {
		c.StartOpsPerSec = d.StartOpsPerSec
	}
	if c.Factor == 0 {
		c.Factor = d.Factor
	}
	if c.MaxOpsPerSec == 0 {
		c.MaxOpsPerSec = d.MaxOpsPerSec
	}
	if c.StartOpsPerSec < 0 || c.MaxOpsPerSec < 0 {
		bad("start and max_rate: a rate in ops/s must be positive")
	}
	if c.Factor <= 1 {
		bad("factor: each step must raise the rate, so the factor must exceed 1 (e.g. 2), got %g", c.Factor)
	}
	if len(c.Rates) > 0 {
		if !sort.Float64sAreSorted(c.Rates) || c.Rates[0] <= 0 {
			bad("rates: list positive rates in ascending order, e.g. [500, 1000, 2000]")
		}
		for i := 1; i < len(c.Rates); i++ {
			if c.Rates[i] == c.Rates[i-1] {
				bad("rates: %g is listed twice", c.Rates[i])
			}
		}
	}
	if c.StartOpsPerSec > c.MaxOpsPerSec && len(c.Rates) == 0 {
		bad("start (%g ops/s) is above max_rate (%g ops/s)", c.StartOpsPerSec, c.MaxOpsPerSec)
	}
	var err error
	if c.SLOP99, err = parseDuration(t.SLOP99, d.SLOP99); err != nil || c.SLOP99 < 0 {
		if err == nil {
			err = errors.New("must be 0s (off) or longer")
		}
		bad("slo_p99: %v", err)
	}
	if c.SLOP50, err = parseDuration(t.SLOP50, d.SLOP50); err != nil || c.SLOP50 < 0 {
		if err == nil {
			err = errors.New("must be 0s (off) or longer")
		}
		bad("slo_p50: %v", err)
	}
	if c.SLOP99 == 0 && c.SLOP50 == 0 {
		bad("slo_p50 and slo_p99 are both off: a step needs a latency bound besides the held rate; set slo_p50 (e.g. 5ms)")
	}
	if c.Resolution, err = parsePercent(t.Resolution, d.Resolution); err != nil || c.Resolution <= 0 {
		if err == nil {
			err = errors.New("must be above 0%")
		}
		bad("resolution: %v", err)
	}
	if c.Threads == 0 {
		c.Threads = s.Run.Threads
	}
	if c.Threads < 0 {
		bad("threads: must be positive, got %d", c.Threads)
	}
	if c.Warmup, err = parseDuration(t.Warmup, d.Warmup); err != nil {
		bad("warmup: %v", err)
	}
	if c.Measure, err = parseDuration(t.Measure, d.Measure); err != nil || c.Measure <= 0 {
		if err == nil {
			err = errors.New("must be longer than 0s")
		}
		bad("measure: %v", err)
	}
	if c.Pairs == 0 {
		c.Pairs = d.Pairs
	}
	if c.Pairs < 1 {
		bad("pairs: at least 1 search a side (2 or more for a significance test), got %d", c.Pairs)
	}
	if c.Budget, err = parseDuration(t.Budget, d.Budget); err != nil || c.Budget <= 0 {
		if err == nil {
			err = errors.New("must be longer than 0s")
		}
		bad("budget: %v", err)
	}
	if c.Tolerance, err = parsePercent(t.Tolerance, d.Tolerance); err != nil || c.Tolerance <= 0 {
		if err == nil {
			err = errors.New("must be above 0%")
		}
		bad("tolerance: %v", err)
	} else if c.Tolerance < c.Resolution {
		bad("tolerance (%.0f%%) is finer than resolution (%.0f%%): the bisection cannot tell such a drop from its own step; raise the tolerance or lower the resolution", 100*c.Tolerance, 100*c.Resolution)
	}
	return errors.Join(errs...)
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
