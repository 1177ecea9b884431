package report

import (
	"errors"
	"sort"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
)

// Distributions pairs both sides' histograms of every workload (keyed by
// workload, then interval-log tag) into their intended latency's
// distributions (the figure the verdict judges, free of coordinated
// omission), workloads in name order.
func Distributions(base, cand map[string]map[string]*hdrhistogram.Histogram) []Distribution {
	names := make([]string, 0, len(base)+len(cand))
	for w := range base {
		names = append(names, w)
	}
	for w := range cand {
		if _, ok := base[w]; !ok {
			names = append(names, w)
		}
	}
	sort.Strings(names)
	var out []Distribution
	for _, w := range names {
		out = append(out, PairDistributions(w, base[w], cand[w], loadgen.Intended)...)
	}
	return out
}

// PairDistributions pairs one workload's histograms of both sides, keyed by
// interval-log tag ("READ.intended", "READ.service", or a bare "READ", read
// by loadgen.ParseTag), into one Distribution per operation for the given
// kind. An operation present on one side only keeps a nil other side.
func PairDistributions(workload string, base, cand map[string]*hdrhistogram.Histogram, kind loadgen.Kind) []Distribution {
	byOp := map[string]*Distribution{}
	add := func(hs map[string]*hdrhistogram.Histogram, candidate bool) {
		for tag, h := range hs {
			op, k, err := loadgen.ParseTag(tag)
			switch {
			case errors.Is(err, loadgen.ErrNoKind):
				// A bare tag is a log with one kind only; a tagged one of the wanted kind wins.
				if _, tagged := hs[loadgen.Tag(op, kind)]; tagged {
					continue
				}
			case err != nil, k != kind:
				continue
			}
			d := byOp[op]
			if d == nil {
				d = &Distribution{Workload: workload, Op: op}
				byOp[op] = d
			}
			if candidate {
				d.Candidate = h
			} else {
				d.Baseline = h
			}
		}
	}
	add(base, false)
	add(cand, true)
	ops := make([]string, 0, len(byOp))
	for op := range byOp {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	out := make([]Distribution, 0, len(ops))
	for _, op := range ops {
		out = append(out, *byOp[op])
	}
	return out
}
