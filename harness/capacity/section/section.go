// Package section is a suite's `capacity:` section, the settings of
// `regress capacity`: its keys, defaults and rules. The suite package reads
// the YAML and turns values with units into typed ones; what the section
// means and when it is wrong is said here, beside the sweep it drives.
package section

import (
	"errors"
	"fmt"
	"slices"
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

// Defaults is the sweep a suite without a capacity section gets.
func Defaults() Capacity {
	return Capacity{StartOpsPerSec: 500, Factor: 2, MaxOpsPerSec: 50000, SLOP50: 5 * time.Millisecond,
		Resolution: 0.10, Warmup: 2 * time.Second, Measure: 5 * time.Second, Pairs: 3,
		Budget: 15 * time.Minute, Tolerance: 0.10}
}

// Normalise fills what c leaves out from Defaults (the workloads from the
// suite's, the threads from its run.threads) and returns every rule c
// breaks, each error naming its key (capacity.factor: ...). The durations
// and fractions are already typed, their defaults filled by the reader.
func (c *Capacity) Normalise(suiteWorkloads []string, runThreads int) error {
	d := Defaults()
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("capacity."+format, a...)) }
	if len(c.Workloads) == 0 {
		c.Workloads = append([]string(nil), suiteWorkloads...)
	}
	for _, w := range c.Workloads {
		if !slices.Contains(suiteWorkloads, w) {
			bad("workloads: %q is not one of the suite's workloads %v (the seed is built for those)", w, suiteWorkloads)
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
	if c.SLOP99 < 0 {
		bad("slo_p99: must be 0s (off) or longer")
	}
	if c.SLOP50 < 0 {
		bad("slo_p50: must be 0s (off) or longer")
	}
	if c.SLOP99 == 0 && c.SLOP50 == 0 {
		bad("slo_p50 and slo_p99 are both off: a step needs a latency bound besides the held rate; set slo_p50 (e.g. 5ms)")
	}
	if c.Resolution <= 0 {
		bad("resolution: must be above 0%%")
	}
	if c.Threads == 0 {
		c.Threads = runThreads
	}
	if c.Threads < 0 {
		bad("threads: must be positive, got %d", c.Threads)
	}
	if c.Measure <= 0 {
		bad("measure: must be longer than 0s")
	}
	if c.Pairs == 0 {
		c.Pairs = d.Pairs
	}
	if c.Pairs < 1 {
		bad("pairs: at least 1 search a side (2 or more for a significance test), got %d", c.Pairs)
	}
	if c.Budget <= 0 {
		bad("budget: must be longer than 0s")
	}
	if c.Tolerance <= 0 {
		bad("tolerance: must be above 0%%")
	} else if c.Resolution > 0 && c.Tolerance < c.Resolution {
		bad("tolerance (%.0f%%) is finer than resolution (%.0f%%): the bisection cannot tell such a drop from its own step; raise the tolerance or lower the resolution", 100*c.Tolerance, 100*c.Resolution)
	}
	return errors.Join(errs...)
}
