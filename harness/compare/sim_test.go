package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/results"
)

// This file is the synthetic latency generator the validation suite runs on:
// per request a lognormal base whose log follows an AR(1) process (GC and
// compaction make neighbours alike), a two-state Markov stall mode (rare
// bursts of much slower requests), a per-trial random effect (cache and disk
// state), and an optional linear drift over the schedule, recorded into one
// HdrHistogram per operation at 3 significant digits, as the load generator does.

// simOp is one operation type of the simulated workload.
type simOp struct {
	name         string
	medianMicros float64
	share        float64 // fraction of requests
}

// simModel is the system under test; identical models on both sides make an A/A test.
type simModel struct {
	ops         []simOp
	sigma       float64 // standard deviation of log latency (stationary)
	phi         float64 // AR(1) coefficient between consecutive requests
	stallIn     float64 // P(normal -> stall) per request
	stallOut    float64 // P(stall -> normal) per request
	stallFactor float64 // latency multiplier in the stall mode
	trialSD     float64 // per-trial random effect on log latency
	requests    int     // per trial, all operations together
	tputOps     float64 // mean achieved throughput (unthrottled)
	tputSD      float64 // per-trial noise of log throughput
	// targetOps, when set, runs every trial at this target rate: achieved
	// throughput follows it closely, and with probability missRate a trial
	// (either side) falls to 90% of it, below results.HoldThreshold.
	targetOps float64
	missRate  float64
	// cpuSD and allocSD, when set, give every trial the servers' cost per
	// operation (cpu_per_op, alloc_per_op) with this per-trial noise on the
	// log scale: a pair's log ratio then spreads by sqrt(2) times it.
	cpuSD, allocSD float64
	// hiccupRate is the chance a trial's server cost is hiccupFactor times
	// what it would be (a JIT deoptimisation or a stall on one side: one
	// trial in about fifty here, by 8% to 65%).
	hiccupRate, hiccupFactor float64
}

// simWorkload is one workload of a simulated suite: its operation mix and
// the operations one trial records.
type simWorkload struct {
	name     string
	ops      []simOp
	requests int
}

// simEffect is the true change of a candidate; the zero value is no change.
type simEffect struct {
	all      float64 // multiplier on every request
	tail     float64 // multiplier on requests slower than the base p90 (the stall mode included)
	op       string  // operation whose requests get opFactor ("UPDATE|INSERT": each of them)
	opFactor float64
	tput     float64 // multiplier on throughput
	// workload, when set, limits the latency change to that workload.
	workload string
	// missRate is the candidate's extra probability of missing the target rate.
	missRate float64
	// cpu and alloc multiply the servers' CPU and allocation per operation.
	cpu, alloc float64
	// cpuBy, when set, gives each workload its own cpu multiplier (a cost
	// on one request type, weighed by each workload's share of it).
	cpuBy map[string]float64
}

func factorOr1(f float64) float64 {
	if f == 0 {
		return 1
	}
	return f
}

// defaultModel is a workload-A-like mix on a machine with 3% between-trial noise.
func defaultModel() simModel {
	return simModel{
		ops:         []simOp{{"READ", 400, 0.5}, {"UPDATE", 700, 0.5}},
		sigma:       0.35,
		phi:         0.95,
		stallIn:     0.0001,
		stallOut:    0.1, // bursts of ~10 requests, ~0.1% of requests stalled
		stallFactor: 8,
		trialSD:     0.03,
		requests:    20000,
		tputOps:     1000,
		tputSD:      0.01,
	}
}

// simRecorder holds one goroutine's reusable histograms, and per operation
// the counts of log latency in bins of 0.1%: a request adds one to its bin
// (no exp, no histogram call on the per-request path), and at the end of the
// trial every bin is recorded into the HdrHistogram at its centre value. The
// bins are finer than the histogram's 3 significant digits, so the figures
// are those of recording every request, at a third of the cost.
type simRecorder struct {
	hists []*hdr.Histogram
	bins  [][]int32
}

// simBinsPerUnit is the bins per unit of natural-log latency (0.1% wide);
// simBins covers 1 µs to e^18 µs (about 18 hours).
const (
	simBinsPerUnit = 1000
	simBins        = 18 * simBinsPerUnit
)

// simMaxOps is the most operation types a simulated workload has.
const simMaxOps = 2

func newSimRecorder() *simRecorder {
	r := &simRecorder{}
	for range simMaxOps {
		r.hists = append(r.hists, hdr.New(1, 60_000_000, 3))
		r.bins = append(r.bins, make([]int32, simBins))
	}
	return r
}

var simPercentiles = []float64{50, 95, 99, 99.9}

// trial simulates one trial; shift is the log-scale offset of this trial's
// schedule slot (drift), eff the true change applied to it.
func (rec *simRecorder) trial(rng *rand.Rand, m simModel, eff simEffect, shift float64) results.Trial {
	for i, h := range rec.hists {
		h.Reset()
		clear(rec.bins[i])
	}
	all, tail, opF := factorOr1(eff.all), factorOr1(eff.tail), factorOr1(eff.opFactor)
	trialLog := m.trialSD*rng.NormFloat64() + shift
	innov := m.sigma * math.Sqrt(1-m.phi*m.phi)
	tailFrom := m.sigma * 1.2815515655446004 // base p90 of log latency
	tailLog := math.Log(tail)
	z := m.sigma * rng.NormFloat64()
	stalled := false
	if len(m.ops) > len(rec.hists) {
		panic("simulated workload with more operation types than simMaxOps")
	}
	// split is op 0's share in 32-bit units; a single-op workload never reaches it.
	split := int64(1) << 32
	if len(m.ops) == 2 {
		split = int64(m.ops[0].share * (1 << 32))
	}
	// offset[i] is the bin of op i's median, so a request's bin is offset + x in bins.
	offset := make([]float64, len(m.ops))
	for i, op := range m.ops {
		scale := op.medianMicros * all * math.Exp(trialLog)
		if eff.op != "" && slices.Contains(strings.Split(eff.op, "|"), op.name) {
			scale *= opF
		}
		offset[i] = math.Log(scale)*simBinsPerUnit + 0.5 // + 0.5: int() below rounds to the nearest bin
	}
	stallLog := math.Log(m.stallFactor)
	for range m.requests {
		z = m.phi*z + innov*rng.NormFloat64()
		// One 64-bit draw gives the two uniforms the stall state and the
		// operation need (32 bits each is plenty for these probabilities).
		r := rng.Uint64()
		uStall := float64(r>>32) * 0x1p-32
		if stalled {
			stalled = uStall >= m.stallOut
		} else {
			stalled = uStall < m.stallIn
		}
		// The operation without a branch (a random one mispredicts half the
		// time): i = 1 exactly when the low 32 bits reach op 0's share.
		i := int(uint64(^(int64(r&0xffffffff) - split)) >> 63)
		x := z
		if stalled {
			x += stallLog
		}
		if x > tailFrom {
			x += tailLog
		}
		bin := int(offset[i] + x*simBinsPerUnit)
		bin = max(0, min(bin, simBins-1))
		rec.bins[i][bin]++
	}
	sum := make([]float64, len(m.ops))
	for i := range m.ops {
		for bin, n := range rec.bins[i] {
			if n == 0 {
				continue
			}
			v := int64(math.Exp(float64(bin)/simBinsPerUnit) + 0.5)
			sum[i] += float64(v) * float64(n)
			_ = rec.hists[i].RecordValues(v, int64(n))
		}
	}
	t := results.Trial{
		Workload:          "A",
		Ops:               make(map[string]results.OpStats, len(m.ops)),
		AchievedOpsPerSec: m.tputOps * factorOr1(eff.tput) * math.Exp(m.tputSD*rng.NormFloat64()-0.5*(trialLog)),
	}
	if m.targetOps > 0 {
		t.TargetOpsPerSec = m.targetOps
		t.AchievedOpsPerSec = m.targetOps * (1 - 0.002*math.Abs(rng.NormFloat64()))
		if u := rng.Float64(); u < m.missRate || u < m.missRate+eff.missRate && eff.missRate > 0 {
			t.AchievedOpsPerSec = 0.9 * m.targetOps
		}
	}
	if m.cpuSD > 0 || m.allocSD > 0 {
		t.Server = &results.ServerStats{
			CPUPerOpMicros:  300 * factorOr1(eff.cpu) * math.Exp(m.cpuSD*rng.NormFloat64()),
			AllocPerOpBytes: 14000 * factorOr1(eff.alloc) * math.Exp(m.allocSD*rng.NormFloat64()),
		}
		if m.hiccupRate > 0 && rng.Float64() < m.hiccupRate {
			t.Server.CPUPerOpMicros *= m.hiccupFactor
		}
	}
	for i, op := range m.ops {
		h := rec.hists[i]
		q := h.ValueAtPercentilesSlice(simPercentiles)
		t.Ops[op.name] = results.OpStats{
			Count: h.TotalCount(),
			Intended: results.Latency{
				P50Micros: float64(q[0]), P95Micros: float64(q[1]), P99Micros: float64(q[2]), P999Micros: float64(q[3]),
				MeanMicros: sum[i] / float64(max(h.TotalCount(), 1)),
			},
		}
	}
	return t
}

// fastExp is exp(x) to about 1e-9 relative error for |x| < 700: 2^(n/64)
// from a table times a cubic on the remainder |r| < ln2/64. The histograms
// keep 3 significant digits, so the error never shows, and the generator
// spends most of its time here (math.Exp costs several times more).
func fastExp(x float64) float64 {
	t := x * (64 * math.Log2E)
	n := int64(t)
	if float64(n) > t {
		n-- // int64 truncates toward zero; the reduction needs the floor
	}
	r := x - float64(n)*(math.Ln2/64)
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24))))
	return math.Float64frombits(uint64(n>>6+1023)<<52) * exp2Table[n&63] * p
}

// exp2Table[j] = 2^(j/64).
var exp2Table = func() (t [64]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 64)
	}
	return t
}()

// schedKind is how the simulated trials are scheduled.
type schedKind int

const (
	schedRMIT       schedKind = iota // k pairs back to back, random order inside each
	schedSequential                  // all baseline trials, then all candidate trials, labelled as pairs
	schedUnpaired                    // baseline from an earlier run, candidate from a new one
)

// simScenario is one validation experiment.
type simScenario struct {
	name     string
	model    simModel
	effect   simEffect
	sched    schedKind
	pairs    int     // k pairs, or candidate trials when unpaired
	baseN    int     // baseline trials when unpaired
	drift    float64 // log-latency drift per schedule slot
	cfg      Config
	adaptive bool // run looks with NeedMorePairs until it says stop
	// family, when set, is the suite's workloads (model gives the noise, each
	// workload its mix and size); empty means one workload "A" of model.
	family []simWorkload
	// reps, when set below the table's, is how many replications this
	// scenario runs: one whose trials are costly to simulate whole.
	reps int
	// instanceCPUSD and instanceAllocSD, when set, give each replication's
	// candidate JVM an offset in cpu_per_op and alloc_per_op (log scale,
	// this sd) over the whole run and every workload: two server JVMs of
	// one release differ so for a whole run, which no number of pairs
	// removes. instCPU and instAlloc are the replication's draws.
	instanceCPUSD, instanceAllocSD float64
	instCPU, instAlloc             []float64
	// instances, when above 1, starts each side afresh that many times
	// over the run (run.instances): the initial pairs split evenly into
	// blocks, pairs a look adds go to the last, and each block draws its
	// own offsets; trials carry their block as Instance.
	instances int
}

// block is the instance block of pair p.
func (s simScenario) block(p int) int {
	if s.instances < 2 {
		return 0
	}
	return min(p*s.instances/max(s.pairs, 1), s.instances-1)
}

// workloads returns the scenario's workloads as models.
func (s simScenario) workloads() []simModel {
	if len(s.family) == 0 {
		m := s.model
		return []simModel{m}
	}
	out := make([]simModel, len(s.family))
	for i, w := range s.family {
		m := s.model
		m.ops, m.requests = w.ops, w.requests
		out[i] = m
	}
	return out
}

func (s simScenario) workloadName(i int) string {
	if len(s.family) == 0 {
		return "A"
	}
	return s.family[i].name
}

var simEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func simManifest(version string, trials []results.Trial) *results.Manifest {
	return &results.Manifest{
		Schema: results.SchemaVersion, Version: version, Source: "regress",
		Environment: results.Environment{CPUModel: "sim", Cores: 2, OS: "linux", JDK: "17"},
		Suite:       results.SuiteInfo{Name: "sim", Fingerprint: "sim-1", DataSpec: "rows=1000"},
		Trials:      trials,
	}
}

// simPairs appends pairs [from, to) of workload wi of an interleaved (or
// sequential) schedule; *slot counts the schedule's trials so far (drift).
func (s simScenario) simPairs(rng *rand.Rand, rec *simRecorder, base, cand *[]results.Trial, wi, from, to int, slot *int) {
	m := s.workloads()[wi]
	name := s.workloadName(wi)
	eff := s.effect
	if eff.workload != "" && eff.workload != name {
		eff = simEffect{tput: eff.tput, missRate: eff.missRate}
	}
	if f, ok := eff.cpuBy[name]; ok {
		eff.cpu = f
	}
	eff0 := eff
	for p := from; p < to; p++ {
		eff := eff0
		if bl := s.block(p); bl < len(s.instCPU) {
			eff.cpu = factorOr1(eff.cpu) * math.Exp(s.instCPU[bl])
			eff.alloc = factorOr1(eff.alloc) * math.Exp(s.instAlloc[bl])
		}
		var slotB, slotC int
		first := rng.IntN(2) // 0: baseline first
		switch s.sched {
		case schedSequential:
			slotB, slotC, first = p, s.pairs+p, 0
		default:
			slotB, slotC = *slot+first, *slot+1-first
			*slot += 2
		}
		b := rec.trial(rng, m, simEffect{}, s.drift*float64(slotB))
		c := rec.trial(rng, m, eff, s.drift*float64(slotC))
		b.Workload, c.Workload = name, name
		b.ID, c.ID = fmt.Sprintf("%s-b%d", name, p), fmt.Sprintf("%s-c%d", name, p)
		b.RunID, c.RunID = "run-1", "run-1"
		b.Pair, c.Pair = p, p
		b.Order, c.Order = first, 1-first
		b.Instance, c.Instance = s.block(p), s.block(p)
		b.Start = simEpoch.Add(time.Duration(slotB) * time.Minute)
		c.Start = simEpoch.Add(time.Duration(slotC) * time.Minute)
		*base = append(*base, b)
		*cand = append(*cand, c)
	}
}

// run performs one replication and returns the final comparison.
func (s simScenario) run(rng *rand.Rand, rec *simRecorder) (*Comparison, error) {
	var bt, ct []results.Trial
	if s.sched == schedUnpaired {
		m := s.model
		for i := range s.baseN {
			t := rec.trial(rng, m, simEffect{}, s.drift*float64(i))
			t.ID, t.RunID, t.Pair = fmt.Sprintf("b%d", i), "run-1", i
			t.Start = simEpoch.Add(time.Duration(i) * time.Minute)
			bt = append(bt, t)
		}
		for i := range s.pairs {
			t := rec.trial(rng, m, s.effect, s.drift*float64(s.baseN+i))
			t.ID, t.RunID, t.Pair = fmt.Sprintf("c%d", i), "run-2", i
			t.Start = simEpoch.Add(24*time.Hour + time.Duration(i)*time.Minute)
			ct = append(ct, t)
		}
		return Compare(simManifest("base", bt), simManifest("cand", ct), s.cfg)
	}
	if s.instanceCPUSD > 0 || s.instanceAllocSD > 0 {
		s.instCPU, s.instAlloc = nil, nil
		for range max(s.instances, 1) {
			s.instCPU = append(s.instCPU, s.instanceCPUSD*rng.NormFloat64())
			s.instAlloc = append(s.instAlloc, s.instanceAllocSD*rng.NormFloat64())
		}
	}
	ws := s.workloads()
	planned := make([]int, len(ws))
	done := make([]int, len(ws))
	for i := range planned {
		planned[i] = s.pairs
	}
	slot := 0
	maxPairs := max(s.pairs, s.cfg.MaxPairs)
	for look := 1; ; look++ {
		// Pair by pair across workloads, as the runner schedules them.
		for p := 0; p < maxPairs; p++ {
			for wi := range ws {
				if p >= done[wi] && p < planned[wi] {
					s.simPairs(rng, rec, &bt, &ct, wi, p, p+1, &slot)
				}
			}
		}
		copy(done, planned)
		if !s.adaptive {
			return Compare(simManifest("base", bt), simManifest("cand", ct), s.cfg)
		}
		plan, err := NeedMorePairs(simManifest("base", bt), simManifest("cand", ct), s.cfg, look)
		if err != nil {
			return nil, err
		}
		if !plan.More {
			return plan.Comparison, nil
		}
		grew := false
		for wi := range ws {
			if n := min(planned[wi]+plan.Extra[s.workloadName(wi)], s.cfg.MaxPairs); n > planned[wi] {
				planned[wi], grew = n, true
			}
		}
		if !grew {
			return plan.Comparison, nil
		}
	}
}
