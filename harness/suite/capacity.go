package suite

import (
	"errors"
	"fmt"
	"time"

	"github.com/regress-hbase/regress/harness/capacity/section"
)

// capacity is the capacity section as written: the values with units stay
// text until normaliseCapacity types them; its name is what a YAML error
// says (field x not found in type suite.capacity). What the section means
// is the capacity slice's (harness/capacity/section).
type capacity struct {
	section.Capacity `yaml:",inline"`
	SLOP99           string `yaml:"slo_p99"`
	SLOP50           string `yaml:"slo_p50"`
	Resolution       string `yaml:"resolution"`
	Warmup           string `yaml:"warmup"`
	Measure          string `yaml:"measure"`
	Budget           string `yaml:"budget"`
	Tolerance        string `yaml:"tolerance"`
}

// normaliseCapacity sets s.Capacity from the section as written (nil means
// defaults): it types the values with units, then lets the section fill its
// defaults and check its rules.
func (s *Suite) normaliseCapacity(t *capacity) error {
	if t == nil {
		t = &capacity{}
	}
	s.Capacity = &t.Capacity
	c, d := s.Capacity, section.Defaults()
	var errs []error
	duration := func(key, text string, def time.Duration, v *time.Duration) {
		var err error
		if *v, err = parseDuration(text, def); err != nil {
			*v = def // reported here; the section's rules see the default
			errs = append(errs, fmt.Errorf("capacity.%s: %w", key, err))
		}
	}
	percent := func(key, text string, def float64, v *float64) {
		var err error
		if *v, err = parsePercent(text, def); err != nil {
			*v = def
			errs = append(errs, fmt.Errorf("capacity.%s: %w", key, err))
		}
	}
	duration("slo_p99", t.SLOP99, d.SLOP99, &c.SLOP99)
	duration("slo_p50", t.SLOP50, d.SLOP50, &c.SLOP50)
	percent("resolution", t.Resolution, d.Resolution, &c.Resolution)
	duration("warmup", t.Warmup, d.Warmup, &c.Warmup)
	duration("measure", t.Measure, d.Measure, &c.Measure)
	duration("budget", t.Budget, d.Budget, &c.Budget)
	percent("tolerance", t.Tolerance, d.Tolerance, &c.Tolerance)
	return errors.Join(append(errs, c.Normalise(s.Workloads, s.Run.Threads))...)
}
