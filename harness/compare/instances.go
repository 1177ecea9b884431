package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/regress-hbase/regress/harness/noise"
	"github.com/regress-hbase/regress/harness/results"
)

// Server instances as a level. Two JVMs of one release differ for their
// whole life (what the JIT compiled, where the heap and the WAL landed):
// on the development VM a candidate's cpu_per_op sat 1.7-2.9% above its
// baseline's in every workload of one A/A and 0.1-2.5% below in another.
// Pairs inside one pair of JVMs cannot see that offset, so an interval
// over them covers the pairs' noise and not the instance's. A run that
// starts each side afresh several times (run.instances; and trials of
// several runs compared together: each run had its own JVMs) gives the
// ratios a second level, the instance block, and the estimate becomes
// the nested one, as JMH's forks are:
//
//	d_ij = mu + u_i + e_ij   block i of I, pair j of n_i
//
// with mu estimated by the mean of the block means, whose variance is
// sigma_u²/I + sigma_e²·Σ(1/n_i)/I². sigma_e² is the pooled variance
// within blocks (N-I degrees of freedom). sigma_u², the offset between two
// instance pairs, is estimated from the block means' spread beyond what
// their pairs explain, pooled over the metric's workloads (an instance's
// offset moves every workload: one estimate a metric, with its
// workloads' blocks as degrees of freedom), and never below the floor the
// suite measured (compare.instance_sd: sd of a run's mean log ratio between
// two fresh JVM pairs), because a handful of blocks can land together by
// chance. Degrees of freedom by Welch-Satterthwaite over the two parts.
// With one block a side everything is as before: the interval is the
// pairs' alone, and the instance offset is left to the tolerance.

// instanceKey is the instance block of a pair: the run and the two sides'
// instance numbers in it.
type instanceKey struct {
	run        string
	base, cand int
}

// pairBlocks numbers the instance blocks of a workload's pairs in the order
// they first appear; every pair of one block gets its number.
func pairBlocks(pairs [][2]*results.Trial) []int {
	ids := map[instanceKey]int{}
	out := make([]int, len(pairs))
	for i, p := range pairs {
		k := instanceKey{p[0].RunID, p[0].Instance, p[1].Instance}
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		out[i] = id
	}
	return out
}

// blockStats is one key's ratios summed by instance block.
type blockStats struct {
	means  []float64 // per block
	counts []int     // pairs per block
	within float64   // pooled within-block variance
	dfW    float64   // its degrees of freedom, N - I
}

// blocksOf summarises ratios d by their blocks; ok is false when there are
// fewer than two blocks or no block has two pairs (nothing nested to say).
func blocksOf(d []float64, blocks []int) (blockStats, bool) {
	var b blockStats
	if len(blocks) != len(d) {
		return b, false
	}
	nb := 0
	for _, id := range blocks {
		nb = max(nb, id+1)
	}
	if nb < 2 {
		return b, false
	}
	b.means = make([]float64, nb)
	b.counts = make([]int, nb)
	for i, x := range d {
		b.means[blocks[i]] += x
		b.counts[blocks[i]]++
	}
	for i := range b.means {
		if b.counts[i] == 0 {
			return b, false
		}
		b.means[i] /= float64(b.counts[i])
	}
	var ss float64
	for i, x := range d {
		r := x - b.means[blocks[i]]
		ss += r * r
	}
	b.dfW = float64(len(d) - nb)
	if b.dfW < 1 {
		return b, false
	}
	b.within = ss / b.dfW
	return b, true
}

// invN is Σ 1/n_i over the blocks.
func (b blockStats) invN() float64 {
	var s float64
	for _, n := range b.counts {
		s += 1 / float64(n)
	}
	return s
}

// excess is this key's estimate of sigma_u²: the block means' variance
// less what their pairs' noise explains (may be negative), and its degrees
// of freedom, I - 1.
func (b blockStats) excess() (v, df float64) {
	m, vb := meanVar(b.means)
	_ = m
	I := float64(len(b.means))
	return vb - b.within*b.invN()/I, I - 1
}

// instancePool is one metric's estimate of sigma_u² and its degrees of
// freedom; df 0 means none (the paired t over the pairs alone).
type instancePool struct {
	v, df float64
}

// poolInstances estimates each metric's instance variance. The run's own
// estimate is the mean over the metric's keys (workloads) whose pairs span
// two or more blocks of each key's excess, with I-1 degrees of freedom,
// not the workloads' sum: an instance's offset moves every workload at
// once, so six workloads over two blocks see one offset, not six. prior
// gives, per metric, the sd measured on the machine over priorRuns runs
// (a scaled inverse chi-square prior with priorRuns-1 degrees of freedom):
// the two combine as (nu0·sd0² + df·excess)/(nu0 + df), so a run with few
// blocks leans on what the machine showed before and a run with many on
// its own. Without a prior the run's estimate stands alone.
func poolInstances(ms []metricSample, prior map[string]float64, priorRuns int) map[string]instancePool {
	sum := map[string]float64{}
	keys := map[string]int{}
	blocks := map[string]int{}
	for _, s := range ms {
		b, ok := blocksOf(s.ratios, s.blocks)
		if !ok {
			continue
		}
		v, _ := b.excess()
		sum[s.key.Metric] += v
		keys[s.key.Metric]++
		blocks[s.key.Metric] = max(blocks[s.key.Metric], len(b.means))
	}
	out := map[string]instancePool{}
	nu0 := float64(max(priorRuns-1, 1))
	for _, k := range slices.Sorted(maps.Keys(prior)) {
		if sd := prior[k]; sd > 0 {
			out[k] = instancePool{v: sd * sd, df: nu0}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		excess := max(sum[k]/float64(keys[k]), 0)
		df := float64(blocks[k] - 1)
		p := out[k]
		out[k] = instancePool{v: (p.df*p.v + df*excess) / (p.df + df), df: p.df + df}
	}
	return out
}

// nestedEstimate is the estimate of d's mean over its instance blocks with
// the instance variance of pool; ok is false when there is nothing nested
// to estimate (one block, or no block with two pairs): the caller then
// uses the paired t. A run that started each side once keeps the pairs'
// interval even when the suite knows the machine's offset: its one
// offset is then the tolerance's to absorb (docs/noise.md says what that
// costs), as before instances existed.
func nestedEstimate(d []float64, blocks []int, pool instancePool) (estimate, bool) {
	b, ok := blocksOf(d, blocks)
	if !ok {
		return estimate{}, false
	}
	if pool.df <= 0 {
		pool.v = 0
	}
	mean, _ := meanVar(b.means)
	I := float64(len(b.means))
	pairPart := b.within * b.invN() / (I * I)
	instPart := pool.v / I
	se2 := pairPart + instPart
	df := b.dfW
	if instPart > 0 {
		df = se2 * se2 / (pairPart*pairPart/b.dfW + instPart*instPart/pool.df)
	}
	return estimate{Mean: mean, SE: math.Sqrt(se2), DF: df, N: len(d), Instances: len(b.means), InstVar: instPart, InstDF: pool.df}, true
}

// widenedNote is the note of a row whose interval oneInstanceOffset widened.
func widenedNote(pool instancePool) string {
	return fmt.Sprintf("interval holds the offset between two server JVMs (sd %s assumed), which one instance a side cannot see", noise.Percent(math.Sqrt(pool.v)))
}

// oneInstanceOffset is e, a run's estimate over pairs of one pair of server
// JVMs, with the machine's instance offset (pool, the suite's measured sd)
// added to its variance when that offset is more than half the metric's
// tightest tolerance tau: there the tolerance cannot absorb it, and an
// interval of the pairs alone would call one JVM's offset a regression
// (2.4.18 on JDK 11: sd 6.5% against 3%, an unchanged release outside the
// tolerance about one run in three). The row then says INCONCLUSIVE, not
// REGRESSED, until --instances holds the offset. Where the offset is within
// half the tolerance (2.6 on JDK 17: 1.3% against 3%), or e is already
// nested, e stays as it is (ok false).
func oneInstanceOffset(e estimate, pool instancePool, tau float64) (estimate, bool) {
	if e.Instances > 1 || pool.v <= 0 || pool.df <= 0 || tau <= 0 || e.N < 2 {
		return e, false
	}
	if math.Sqrt(pool.v) <= math.Log1p(tau)/2 {
		return e, false
	}
	pairs := e.SE * e.SE
	se2 := pairs + pool.v
	df := pool.df
	if pairs > 0 {
		df = se2 * se2 / (pairs*pairs/e.DF + pool.v*pool.v/pool.df)
	}
	return estimate{Mean: e.Mean, SE: math.Sqrt(se2), DF: df, N: e.N, Instances: 1, InstVar: pool.v, InstDF: pool.df}, true
}
