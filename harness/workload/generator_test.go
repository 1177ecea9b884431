package workload

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// seed fixes every statistical test's draws, so a test either always passes
// or always fails for a given implementation.
const seed = 20261130

// chiSquare tests counts against probabilities, merging adjacent bins until
// each expects at least 5 draws, and fails if the fit's p-value is below 1e-3.
func chiSquare(t *testing.T, name string, counts []int64, probs []float64) {
	t.Helper()
	var n int64
	for _, c := range counts {
		n += c
	}
	var stat float64
	var bins int
	var obs, exp float64
	for i := range counts {
		obs += float64(counts[i])
		exp += probs[i] * float64(n)
		if exp >= 5 || i == len(counts)-1 {
			if exp == 0 {
				if obs > 0 {
					t.Fatalf("%s: %v draws where none are possible (bin ending %d)", name, obs, i)
				}
				continue
			}
			stat += (obs - exp) * (obs - exp) / exp
			bins++
			obs, exp = 0, 0
		}
	}
	df := float64(bins - 1)
	p := 1 - distuv.ChiSquared{K: df}.CDF(stat)
	if p < 1e-3 {
		t.Errorf("%s: chi-square %.1f on %v degrees of freedom, p=%.2g: draws do not fit the expected distribution", name, stat, df, p)
	}
}

func countDraws(g Generator, lo, hi int64, n int) []int64 {
	counts := make([]int64, hi-lo+1)
	for range n {
		v := g.Next()
		if v < lo || v > hi {
			panic("draw out of range")
		}
		counts[v-lo]++
	}
	return counts
}

func TestUniformFitsUniform(t *testing.T) {
	g := NewUniform(NewRand(seed), 10, 109)
	counts := countDraws(g, 10, 109, 200000)
	probs := make([]float64, 100)
	for i := range probs {
		probs[i] = 0.01
	}
	chiSquare(t, "uniform", counts, probs)
}

// grayPMF is the exact distribution Gray et al.'s method draws for a zipfian
// over items values with the given zeta, worked out from its inverse
// transform: the test checks the code against the method, independently.
func grayPMF(items int64, zetan float64, upto int64) []float64 {
	theta := ZipfianConstant
	eta := (1 - math.Pow(2/float64(items), 1-theta)) / (1 - Zeta(2, theta)/zetan)
	c0, c1 := 1/zetan, (1+math.Pow(0.5, theta))/zetan
	uk := func(k int64) float64 {
		return math.Min(1, (math.Pow(float64(k+1)/float64(items), 1-theta)-1+eta)/eta)
	}
	cdf := func(k int64) float64 {
		if k == 0 {
			return c0 + math.Max(0, uk(0)-c1)
		}
		return math.Max(c1, uk(k))
	}
	p := make([]float64, upto)
	prev := 0.0
	for k := range upto {
		c := cdf(k)
		p[k] = c - prev
		prev = c
	}
	return p
}

func TestZipfianFitsGraysMethod(t *testing.T) {
	const items = 1000
	g := NewZipfian(NewRand(seed), 0, items-1)
	counts := countDraws(g, 0, items-1, 200000)
	chiSquare(t, "zipfian", counts, grayPMF(items, Zeta(items, ZipfianConstant), items))

	// The shape: popularity falls as rank^-0.99. A least-squares slope of
	// log frequency on log rank over ranks 1..50 lands near -0.99.
	var sx, sy, sxx, sxy float64
	const m = 50
	for i := range m {
		x, y := math.Log(float64(i+1)), math.Log(float64(counts[i]))
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	slope := (m*sxy - sx*sy) / (m*sxx - sx*sx)
	if math.Abs(slope+ZipfianConstant) > 0.1 {
		t.Errorf("zipfian log-log slope %.3f, want about -%.2f", slope, ZipfianConstant)
	}
}

func TestZipfianWithMinShifts(t *testing.T) {
	g := NewZipfian(NewRand(seed), 500, 599)
	counts := countDraws(g, 500, 599, 100000)
	chiSquare(t, "zipfian 500..599", counts, grayPMF(100, Zeta(100, ZipfianConstant), 100))
}

func TestZipfianGrowingItemCountExtendsZeta(t *testing.T) {
	g := NewZipfian(NewRand(seed), 0, 99)
	g.NextN(250)
	if want := Zeta(250, ZipfianConstant); math.Abs(g.zetan-want) > 1e-9 {
		t.Fatalf("zeta after growing to 250 items = %v, want %v", g.zetan, want)
	}
	// Draws now cover the grown range with the grown zeta.
	counts := make([]int64, 250)
	for range 100000 {
		counts[g.NextN(250)]++
	}
	// eta keeps the constructor's item count (YCSB does the same), so the
	// expected distribution is Gray's with items=100 scaled to 250.
	theta := ZipfianConstant
	eta := (1 - math.Pow(2.0/100, 1-theta)) / (1 - Zeta(2, theta)/g.zetan)
	c1 := (1 + math.Pow(0.5, theta)) / g.zetan
	cdf := func(k int64) float64 {
		u := math.Min(1, (math.Pow(float64(k+1)/250, 1-theta)-1+eta)/eta)
		if k == 0 {
			return 1/g.zetan + math.Max(0, u-c1)
		}
		return math.Max(c1, u)
	}
	probs := make([]float64, 250)
	prev := 0.0
	for k := range int64(250) {
		probs[k] = cdf(k) - prev
		prev = cdf(k)
	}
	chiSquare(t, "grown zipfian", counts, probs)
}

func TestZetaMatchesYCSBConstant(t *testing.T) {
	got := Zeta(ScrambledItemCount, ZipfianConstant)
	if math.Abs(got-ScrambledZeta)/ScrambledZeta > 1e-9 {
		t.Errorf("Zeta(1e10) = %.14f, YCSB's precomputed value is %.14f", got, ScrambledZeta)
	}
}

func TestZetaApproximationMatchesExactSum(t *testing.T) {
	n := int64(zetaExactTerms) + 12345
	exact := 0.0
	for i := range n {
		exact += 1 / math.Pow(float64(i+1), ZipfianConstant)
	}
	if got := Zeta(n, ZipfianConstant); math.Abs(got-exact) > 1e-9 {
		t.Errorf("Zeta(%d) = %.15f, exact sum %.15f", n, got, exact)
	}
	// The incremental form agrees with a fresh sum across the switch-over.
	if got := zetaFrom(1000, n, ZipfianConstant, Zeta(1000, ZipfianConstant)); math.Abs(got-exact) > 1e-9 {
		t.Errorf("zetaFrom(1000, %d) = %.15f, exact %.15f", n, got, exact)
	}
}

// scrambledPMF is the distribution of min + fnv(rank) % items where rank is
// drawn by the 1e10-item zipfian: the heaviest ranks exactly, the long tail
// (spread by the hash) as uniform.
func scrambledPMF(items int64) []float64 {
	const head = 2_000_000
	p := make([]float64, items)
	rank := grayPMF(ScrambledItemCount+1, ScrambledZeta, head)
	mass := 0.0
	for r, pr := range rank {
		p[FNVHash64(int64(r))%items] += pr
		mass += pr
	}
	for i := range p {
		p[i] += (1 - mass) / float64(items)
	}
	return p
}

func TestScrambledZipfianFitsHashedZipfian(t *testing.T) {
	const items = 1000
	g := NewScrambledZipfian(NewRand(seed), 0, items-1)
	counts := countDraws(g, 0, items-1, 300000)
	probs := scrambledPMF(items)
	chiSquare(t, "scrambled zipfian", counts, probs)
	// Popularity is scattered: the hottest key is not the first.
	hottest := slices.Index(counts, slices.Max(counts))
	if hottest == 0 {
		t.Errorf("hottest scrambled key is 0: popularity was not scattered")
	}
}

type fixedLast int64

func (f fixedLast) Last() int64 { return int64(f) }

func TestSkewedLatestFavoursNewest(t *testing.T) {
	const last = 999
	g := NewSkewedLatest(NewRand(seed), fixedLast(last), Zeta(last, ZipfianConstant))
	counts := make([]int64, last+1)
	for range 200000 {
		v := g.Next()
		if v < 0 || v > last {
			t.Fatalf("skewed latest drew %d outside 0..%d", v, last)
		}
		counts[last-v]++ // distance back from the newest
	}
	chiSquare(t, "skewed latest", counts, grayPMF(last, Zeta(last, ZipfianConstant), last+1))
}

func TestHotspotFitsHotAndColdSets(t *testing.T) {
	g, err := NewHotspot(NewRand(seed), 0, 99, 0.2, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	counts := countDraws(g, 0, 99, 200000)
	probs := make([]float64, 100)
	for i := range probs {
		if i < 20 {
			probs[i] = 0.8 / 20
		} else {
			probs[i] = 0.2 / 80
		}
	}
	chiSquare(t, "hotspot", counts, probs)
}

func TestHotspotRejectsEmptySets(t *testing.T) {
	for _, tc := range []struct{ data, opn float64 }{{0, 0.5}, {1, 0.5}, {-0.1, 0.5}, {0.2, 1.5}} {
		if _, err := NewHotspot(NewRand(1), 0, 99, tc.data, tc.opn); err == nil {
			t.Errorf("hotspot data=%v opn=%v: want an error", tc.data, tc.opn)
		}
	}
}

func TestExponentialFitsCDF(t *testing.T) {
	const n = 100000
	g, err := NewExponential(NewRand(seed), 95, 1000)
	if err != nil {
		t.Fatal(err)
	}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = g.NextFloat()
	}
	slices.Sort(xs)
	gamma := 1 / g.Mean()
	d := 0.0
	for i, x := range xs {
		f := 1 - math.Exp(-gamma*x)
		d = math.Max(d, math.Max(math.Abs(float64(i+1)/n-f), math.Abs(f-float64(i)/n)))
	}
	if crit := 1.95 / math.Sqrt(n); d > crit {
		t.Errorf("exponential KS distance %.4f above the 0.1%% critical value %.4f", d, crit)
	}
	// 95% of draws fall below the range.
	below := float64(sortSearch(xs, 1000)) / n
	if math.Abs(below-0.95) > 0.005 {
		t.Errorf("%.3f of draws below 1000, want 0.95", below)
	}
}

func sortSearch(xs []float64, v float64) int {
	i, _ := slices.BinarySearch(xs, v)
	return i
}

func TestSequentialCyclesInOrderAcrossWorkers(t *testing.T) {
	s := NewSequential(5, 14)
	seen := make([]int, 10)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				v := s.Next()
				mu.Lock()
				seen[v-5]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for i, c := range seen {
		if c != 10 {
			t.Errorf("value %d drawn %d times in 10 cycles, want 10", i+5, c)
		}
	}
	if v := s.Next(); v != 5 {
		t.Errorf("after whole cycles Next = %d, want 5", v)
	}
}

func TestCounterHandsOutEachValueOnce(t *testing.T) {
	c := NewCounter(100)
	var wg sync.WaitGroup
	got := make([][]int64, 4)
	for w := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				got[w] = append(got[w], c.Next())
			}
		}()
	}
	wg.Wait()
	all := slices.Concat(got...)
	slices.Sort(all)
	for i, v := range all {
		if v != int64(100+i) {
			t.Fatalf("value %d is %d, want %d: a value was skipped or repeated", i, v, 100+i)
		}
	}
	if c.Last() != 4099 {
		t.Errorf("Last = %d, want 4099", c.Last())
	}
}

func TestAcknowledgedCounterAdvancesOverContiguousRun(t *testing.T) {
	c := NewAcknowledgedCounter(1000)
	if c.Last() != 999 {
		t.Fatalf("initial Last = %d, want 999", c.Last())
	}
	a, b, d := mustNext(t, c), mustNext(t, c), mustNext(t, c) // 1000, 1001, 1002
	steps := []struct {
		ack  int64
		want int64
	}{{b, 999}, {d, 999}, {a, 1002}}
	for _, s := range steps {
		if err := c.Acknowledge(s.ack); err != nil {
			t.Fatal(err)
		}
		if got := c.Last(); got != s.want {
			t.Errorf("after acknowledging %d Last = %d, want %d", s.ack, got, s.want)
		}
	}
	if err := c.Acknowledge(a); err == nil {
		t.Error("acknowledging 1000 twice: want an error")
	}
}

func TestAcknowledgedCounterConcurrent(t *testing.T) {
	c := NewAcknowledgedCounter(0)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5000 {
				v := mustNext(t, c)
				if l := c.Last(); l >= v {
					t.Errorf("Last %d reached unacknowledged %d", l, v)
					return
				}
				if err := c.Acknowledge(v); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if c.Last() != 39999 {
		t.Errorf("after 40000 acknowledged inserts Last = %d, want 39999", c.Last())
	}
}

func mustNext(t *testing.T, c *AcknowledgedCounter) int64 {
	t.Helper()
	v, err := c.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAcknowledgedCounterWindowFullBlocks fills the window behind one
// outstanding insert: the next Next waits (never freezing the key space
// silently) until that insert is acknowledged, and gives up with ctx.
func TestAcknowledgedCounterWindowFullBlocks(t *testing.T) {
	c := NewAcknowledgedCounter(0)
	first := mustNext(t, c) // 0, outstanding
	for range ackWindow - 1 {
		if err := c.Acknowledge(mustNext(t, c)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if v, err := c.Next(ctx); err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next on a full window returned %d, %v; want it to wait and then fail with the context", v, err)
	}
	got := make(chan int64)
	go func() {
		v, err := c.Next(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- v
	}()
	select {
	case v := <-got:
		t.Fatalf("Next returned %d before the outstanding insert was acknowledged", v)
	case <-time.After(20 * time.Millisecond):
	}
	if err := c.Acknowledge(first); err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-got:
		if v != ackWindow+1 {
			t.Errorf("Next after the window opened = %d, want %d (the cancelled call's value is lost)", v, ackWindow+1)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next still blocked after the outstanding insert was acknowledged")
	}
	if c.Last() != ackWindow-1 {
		t.Errorf("Last = %d, want %d", c.Last(), ackWindow-1)
	}
}

func TestHistogramFitsBuckets(t *testing.T) {
	buckets := []int64{10, 30, 40, 20}
	g, err := NewHistogram(NewRand(seed), buckets, 100)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int64, 4) // sizes 100, 200, 300 (last two buckets), 400 never
	for range 100000 {
		counts[g.Next()/100-1]++
	}
	// YCSB's draw in [0, area) with "<= 0" gives bucket 0 one extra unit
	// and returns the last bucket's remainder at the previous size.
	probs := []float64{11.0 / 100, 30.0 / 100, 59.0 / 100, 0}
	chiSquare(t, "histogram", counts, probs)
	if _, err := NewHistogram(nil, []int64{0, 0}, 10); err == nil {
		t.Error("zero-weight histogram: want an error")
	}
}

func TestDiscreteFitsWeights(t *testing.T) {
	d, err := NewDiscrete(NewRand(seed), []float64{5, 0, 3, 2})
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int64, 4)
	for range 100000 {
		counts[d.Next()]++
	}
	chiSquare(t, "discrete", counts, []float64{0.5, 0, 0.3, 0.2})
	for _, bad := range [][]float64{{0, 0}, {1, -1}, {math.NaN()}, {}} {
		if _, err := NewDiscrete(nil, bad); err == nil {
			t.Errorf("weights %v: want an error", bad)
		}
	}
}

func TestGeneratorsReproducibleFromSeed(t *testing.T) {
	mk := func() []Generator {
		r := NewRand(7)
		h, _ := NewHotspot(r, 0, 999, 0.2, 0.8)
		return []Generator{NewUniform(r, 0, 999), NewZipfian(r, 0, 999), NewScrambledZipfian(r, 0, 999), h}
	}
	a, b := mk(), mk()
	for range 1000 {
		for i := range a {
			if x, y := a[i].Next(), b[i].Next(); x != y {
				t.Fatalf("generator %d: same seed gave %d and %d", i, x, y)
			}
		}
	}
}
