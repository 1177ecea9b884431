package compare

import (
	"errors"

	"github.com/regress-hbase/regress/harness/noise"
	"github.com/regress-hbase/regress/harness/results"
)

// Noise is the suite's instance noise figures as package noise looks them up.
func (c Config) Noise() noise.Figures {
	return noise.Figures{Default: c.InstanceSD, ByLine: c.InstanceSDByLine, ByJDK: c.InstanceSDByJDK, Runs: c.InstanceRuns}
}

// serverJDK is the JDK m's servers ran on with every JVM option they were
// given: the suite's (cluster.jvm_opts_by_jdk, stored with the JDK) and the
// side's own (--candidate-jvm-opt). A side that gave -XX:-TieredCompilation
// by hand ran what the suite's option runs. The zero JDK where none was
// recorded.
func serverJDK(m *results.Manifest) noise.JDK {
	j := m.Environment.JDKParts
	if j == nil || j.Major == 0 {
		return noise.JDK{}
	}
	var opts []string
	opts = append(append(opts, j.Options...), m.JVMOpts...)
	return noise.JDK{Major: j.Major, Options: opts}
}

// instanceNoise is the instance sd a comparison of base with cand assumes
// under cfg (noise.Of with the sides' versions and JDKs).
func instanceNoise(base, cand *results.Manifest, cfg Config) noise.Instance {
	return noise.Of(cfg.Noise(), base.Version, cand.Version, serverJDK(base), serverJDK(cand))
}

// addLineNotes adds to out's warnings the note of a line whose noise was
// not measured and, for a run of one instance a side, noise.Advice against
// each metric's tightest gating tolerance.
func addLineNotes(out *Comparison, n noise.Instance) {
	if n.Note != "" {
		out.Warnings = append(out.Warnings, n.Note)
	}
	if out.Instances > 1 {
		return
	}
	out.Warnings = append(out.Warnings, noise.Advice(n, GatingTolerances(out.Metrics))...)
}

// GatingTolerances is each metric's tightest tolerance over the rows that
// gate and can hold a PASS back (neither detect-only nor ungated): the
// margin an instance offset eats into.
func GatingTolerances(ms []MetricResult) map[string]float64 {
	out := map[string]float64{}
	for _, m := range ms {
		if !m.Gated || m.DetectOnly || m.Tolerance <= 0 {
			continue
		}
		if t, ok := out[m.Metric]; !ok || m.Tolerance < t {
			out[m.Metric] = m.Tolerance
		}
	}
	return out
}

// PlanNoise is what `regress plan` says of instance noise for a run of
// base's and cand's versions (cand nil: base's alone) under cfg, whose
// runs start instances server instances a side: the lines' figure and,
// for one instance a side, noise.Advice against the tolerances that gate
// the metrics the stored trials hold.
func PlanNoise(base, cand *results.Manifest, cfg Config, instances int) (noise.Instance, []string, error) {
	if base == nil {
		return noise.Instance{}, nil, errors.New("compare: plan noise without a baseline manifest; load the baseline's results first")
	}
	if cand == nil {
		cand = base
		cfg.Unpaired = true
	}
	n := instanceNoise(base, cand, cfg)
	if instances > 1 {
		return n, nil, nil
	}
	c, _, err := compare(base, cand, cfg)
	if err != nil {
		return n, nil, err
	}
	return n, noise.Advice(n, GatingTolerances(c.Metrics)), nil
}
