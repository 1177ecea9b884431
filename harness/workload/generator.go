package workload

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// Generator draws integers from one distribution. A Generator owns its random
// source and is not safe for concurrent use unless its doc says so: each
// worker makes its own, which keeps the per-operation path free of locks.
type Generator interface {
	Next() int64
}

// NewRand returns a random source for seed. Equal seeds give equal streams,
// which is what makes a run reproducible.
func NewRand(seed int64) *rand.Rand {
	// PCG needs two words; deriving the second from the first keeps the
	// caller's single seed while spreading nearby seeds apart.
	return rand.New(rand.NewPCG(uint64(seed), uint64(seed)*0x9E3779B97F4A7C15+1))
}

// Constant always returns the same value.
type Constant int64

// Next returns the constant.
func (c Constant) Next() int64 { return int64(c) }

// Uniform draws uniformly from [lb, ub].
type Uniform struct {
	r        *rand.Rand
	lb, span int64
}

// NewUniform returns a uniform generator over [lb, ub] (lb <= ub).
func NewUniform(r *rand.Rand, lb, ub int64) *Uniform {
	if ub < lb {
		lb, ub = ub, lb
	}
	return &Uniform{r: r, lb: lb, span: ub - lb + 1}
}

// Next draws one value.
func (u *Uniform) Next() int64 {
	if u.span <= 0 { // [MinInt64, MaxInt64] overflows the span; any value will do
		return int64(u.r.Uint64())
	}
	return u.lb + u.r.Int64N(u.span)
}

// ZipfianConstant is YCSB's fixed skew (theta); it is not a property.
const ZipfianConstant = 0.99

// ScrambledItemCount is the item count of the zipfian that scrambled zipfian
// draws from before hashing into the key space; ScrambledZeta is its
// precomputed zeta, as YCSB hard-codes it, so no generator sums 1e10 terms.
const (
	ScrambledItemCount int64   = 10_000_000_000
	ScrambledZeta      float64 = 26.46902820178302
)

// Zeta returns sum over i in 1..n of 1/i^theta.
func Zeta(n int64, theta float64) float64 { return zetaFrom(0, n, theta, 0) }

// zetaExactTerms is the number of terms summed one by one before zetaFrom
// switches to the Euler-Maclaurin formula; beyond it the formula's error is
// below a double's rounding, and summing 1e9 powers would stall a start-up
// (recordcount=0 means 2^31-1 rows).
const zetaExactTerms = 1 << 22

// zetaFrom returns initial + sum over i in st+1..n of 1/i^theta, the
// incremental form YCSB uses when a zipfian's item count grows.
func zetaFrom(st, n int64, theta, initial float64) float64 {
	sum := initial
	if n-st <= zetaExactTerms {
		for i := st; i < n; i++ {
			sum += 1 / math.Pow(float64(i+1), theta)
		}
		return sum
	}
	head := st + zetaExactTerms/4
	for i := st; i < head; i++ {
		sum += 1 / math.Pow(float64(i+1), theta)
	}
	// Euler-Maclaurin for i in a..b: integral + end corrections.
	a, b := float64(head+1), float64(n)
	f := func(x float64) float64 { return math.Pow(x, -theta) }
	f1 := func(x float64) float64 { return -theta * math.Pow(x, -theta-1) }
	f3 := func(x float64) float64 { return -theta * (theta + 1) * (theta + 2) * math.Pow(x, -theta-3) }
	integral := (math.Pow(b, 1-theta) - math.Pow(a, 1-theta)) / (1 - theta)
	return sum + integral + (f(a)+f(b))/2 + (f1(b)-f1(a))/12 - (f3(b)-f3(a))/720
}

// Zipfian draws from [min, max] with popular items at the low end, by Gray et
// al.'s method with YCSB's constant 0.99. When called with a larger item count
// (NextN) it extends zeta incrementally, as YCSB does for a growing key space.
type Zipfian struct {
	r                  *rand.Rand
	items, base        int64
	theta, alpha, eta  float64
	zetan, zeta2theta  float64
	countForZeta       int64
	halfPowTheta       float64
	allowCountDecrease bool
}

// NewZipfian returns a zipfian over [lo, hi], computing zeta(hi-lo+1).
func NewZipfian(r *rand.Rand, lo, hi int64) *Zipfian {
	return NewZipfianZeta(r, lo, hi, Zeta(hi-lo+1, ZipfianConstant))
}

// NewZipfianZeta returns a zipfian over [lo, hi] with a precomputed zeta of
// its item count, so many workers can share one costly computation.
func NewZipfianZeta(r *rand.Rand, lo, hi int64, zetan float64) *Zipfian {
	z := &Zipfian{r: r, items: hi - lo + 1, base: lo, theta: ZipfianConstant}
	z.zeta2theta = Zeta(2, z.theta)
	z.alpha = 1 / (1 - z.theta)
	z.zetan = zetan
	z.countForZeta = z.items
	z.halfPowTheta = math.Pow(0.5, z.theta)
	z.eta = z.etaFor()
	return z
}

// etaFor uses the constructor's item count, not the grown one, exactly as
// YCSB does; changing it would change which keys a run touches.
func (z *Zipfian) etaFor() float64 {
	return (1 - math.Pow(2/float64(z.items), 1-z.theta)) / (1 - z.zeta2theta/z.zetan)
}

// Next draws one value from [min, max].
func (z *Zipfian) Next() int64 { return z.NextN(z.items) }

// NextN draws as if the generator covered itemcount items from min; a larger
// count than before extends zeta by the new terms only.
func (z *Zipfian) NextN(itemcount int64) int64 {
	if itemcount != z.countForZeta {
		if itemcount > z.countForZeta {
			z.zetan = zetaFrom(z.countForZeta, itemcount, z.theta, z.zetan)
			z.countForZeta = itemcount
			z.eta = z.etaFor()
		} else if z.allowCountDecrease {
			z.zetan = Zeta(itemcount, z.theta)
			z.countForZeta = itemcount
			z.eta = z.etaFor()
		}
	}
	u := z.r.Float64()
	uz := u * z.zetan
	if uz < 1 {
		return z.base
	}
	if uz < 1+z.halfPowTheta {
		return z.base + 1
	}
	// exp(alpha*log x) rather than Pow: alpha (about 100) is not an integer,
	// so Pow takes the same route plus integer-part work, at twice the cost.
	return z.base + int64(float64(itemcount)*math.Exp(z.alpha*math.Log(z.eta*u-z.eta+1)))
}

// ScrambledZipfian spreads zipfian popularity over [min, max] by hashing: the
// popular items are scattered instead of clustered at min (YCSB's "zipfian"
// request distribution).
type ScrambledZipfian struct {
	z              *Zipfian
	min, itemcount int64
}

// NewScrambledZipfian returns a scrambled zipfian over [lo, hi].
func NewScrambledZipfian(r *rand.Rand, lo, hi int64) *ScrambledZipfian {
	// YCSB builds its zipfian over 0..ITEM_COUNT inclusive (ITEM_COUNT+1
	// items) with the zeta of ITEM_COUNT items; kept for identical draws.
	return &ScrambledZipfian{z: NewZipfianZeta(r, 0, ScrambledItemCount, ScrambledZeta), min: lo, itemcount: hi - lo + 1}
}

// Next draws one value.
func (s *ScrambledZipfian) Next() int64 {
	return s.min + FNVHash64(s.z.Next())%s.itemcount
}

// Lasted is anything with a latest value, such as the acknowledged insert counter.
type Lasted interface {
	Last() int64
}

// SkewedLatest favours the most recent values of a growing counter: it
// returns last - zipfian(last), so the newest rows are the hottest (workload D).
type SkewedLatest struct {
	basis Lasted
	z     *Zipfian
}

// NewSkewedLatest returns a skewed-latest generator over basis; zetan is
// zeta(basis.Last()) (see Zeta), passed in so workers share its computation.
func NewSkewedLatest(r *rand.Rand, basis Lasted, zetan float64) *SkewedLatest {
	return &SkewedLatest{basis: basis, z: NewZipfianZeta(r, 0, basis.Last()-1, zetan)}
}

// Next draws one value.
func (s *SkewedLatest) Next() int64 {
	last := s.basis.Last()
	return last - s.z.NextN(last)
}

// Hotspot sends hotOpnFraction of the draws to the first hotsetFraction of
// [lb, ub] and the rest uniformly to the remainder.
type Hotspot struct {
	r             *rand.Rand
	lb, hot, cold int64
	hotOpn        float64
}

// NewHotspot returns a hotspot generator; both fractions must be in [0, 1],
// and each part that receives draws must hold at least one value.
func NewHotspot(r *rand.Rand, lb, ub int64, hotsetFraction, hotOpnFraction float64) (*Hotspot, error) {
	if hotsetFraction < 0 || hotsetFraction > 1 || hotOpnFraction < 0 || hotOpnFraction > 1 {
		return nil, fmt.Errorf("hotspot fractions data=%v opn=%v: both must be between 0 and 1", hotsetFraction, hotOpnFraction)
	}
	if ub < lb {
		lb, ub = ub, lb
	}
	interval := ub - lb + 1
	hot := int64(float64(interval) * hotsetFraction)
	h := &Hotspot{r: r, lb: lb, hot: hot, cold: interval - hot, hotOpn: hotOpnFraction}
	if (hot == 0 && hotOpnFraction > 0) || (h.cold == 0 && hotOpnFraction < 1) {
		return nil, fmt.Errorf("hotspot over %d keys with data fraction %v and operation fraction %v: the hot set has %d keys and the cold set %d, but both receive operations; raise or lower hotspotdatafraction", interval, hotsetFraction, hotOpnFraction, hot, h.cold)
	}
	return h, nil
}

// Next draws one value.
func (h *Hotspot) Next() int64 {
	if h.r.Float64() < h.hotOpn {
		return h.lb + h.r.Int64N(h.hot)
	}
	return h.lb + h.hot + h.r.Int64N(h.cold)
}

// Sequential cycles through [start, end] in order. It is safe for concurrent
// use, and workers should share one, so that together they visit each key once
// per cycle as YCSB's shared generator does.
type Sequential struct {
	ctr             atomic.Int64
	start, interval int64
}

// NewSequential returns a sequential generator over [start, end].
func NewSequential(start, end int64) *Sequential {
	return &Sequential{start: start, interval: end - start + 1}
}

// Next returns the next value in the cycle.
func (s *Sequential) Next() int64 {
	return s.start + (s.ctr.Add(1)-1)%s.interval
}

// Exponential draws from an exponential distribution in which percentile
// percent of the draws fall below rng (YCSB's exponential request distribution
// measures the draw back from the latest insert).
type Exponential struct {
	r     *rand.Rand
	gamma float64
}

// NewExponential returns an exponential generator with percentile% of draws below rng.
func NewExponential(r *rand.Rand, percentile, rng float64) (*Exponential, error) {
	if percentile <= 0 || percentile >= 100 || rng <= 0 {
		return nil, fmt.Errorf("exponential with percentile %v over range %v: need 0 < percentile < 100 and range > 0", percentile, rng)
	}
	return &Exponential{r: r, gamma: -math.Log(1-percentile/100) / rng}, nil
}

// NextFloat draws one value.
func (e *Exponential) NextFloat() float64 {
	// 1-Float64 lies in (0, 1], so the log is finite.
	return -math.Log(1-e.r.Float64()) / e.gamma
}

// Next draws one value, truncated toward zero.
func (e *Exponential) Next() int64 {
	f := e.NextFloat()
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(f)
}

// Mean returns the distribution's mean.
func (e *Exponential) Mean() float64 { return 1 / e.gamma }

// Counter hands out consecutive values; it is safe for concurrent use.
type Counter struct{ next atomic.Int64 }

// NewCounter returns a counter whose first value is start.
func NewCounter(start int64) *Counter {
	c := &Counter{}
	c.next.Store(start)
	return c
}

// Next returns the next value.
func (c *Counter) Next() int64 { return c.next.Add(1) - 1 }

// Last returns the value most recently handed out.
func (c *Counter) Last() int64 { return c.next.Load() - 1 }

// ackWindow bounds how many values may be handed out but not yet
// acknowledged, as YCSB's 2^20 window does.
const ackWindow = 1 << 20

// AcknowledgedCounter hands out insert key numbers and exposes as Last only the
// highest value below which every value has been acknowledged, so readers never
// pick a key whose insert has not completed. Safe for concurrent use: Next and
// Last are lock-free while the window has room; Acknowledge takes a short lock.
type AcknowledgedCounter struct {
	next  atomic.Int64
	limit atomic.Int64

	mu      sync.Mutex
	window  []bool
	waiting int           // callers of Next blocked on a full window
	room    chan struct{} // closed and replaced when the limit advances while someone waits
}

// NewAcknowledgedCounter returns a counter whose first value is start; Last is start-1 until it is acknowledged.
func NewAcknowledgedCounter(start int64) *AcknowledgedCounter {
	c := &AcknowledgedCounter{window: make([]bool, ackWindow), room: make(chan struct{})}
	c.next.Store(start)
	c.limit.Store(start - 1)
	return c
}

// Next hands out the next value. When ackWindow values are already out and
// unacknowledged, it blocks until the oldest is acknowledged (an insert
// always is, whatever its outcome), so the readable key space never freezes;
// it returns ctx's error if ctx ends first, and the value is then lost.
func (c *AcknowledgedCounter) Next(ctx context.Context) (int64, error) {
	v := c.next.Add(1) - 1
	for {
		if v <= c.limit.Load()+ackWindow {
			return v, nil
		}
		c.mu.Lock()
		if v <= c.limit.Load()+ackWindow {
			c.mu.Unlock()
			return v, nil
		}
		c.waiting++
		room := c.room
		c.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			c.mu.Lock()
			c.waiting--
			c.mu.Unlock()
			return 0, fmt.Errorf("insert key number %d waited for %d outstanding inserts to be acknowledged: %w", v, ackWindow, ctx.Err())
		}
		c.mu.Lock()
		c.waiting--
		c.mu.Unlock()
	}
}

// Last returns the end of the contiguous acknowledged run.
func (c *AcknowledgedCounter) Last() int64 { return c.limit.Load() }

func (c *AcknowledgedCounter) Acknowledge(v int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	limit := c.limit.Load()
	if v <= limit {
		return fmt.Errorf("acknowledge insert key number %d: already at or below the acknowledged limit %d (acknowledged twice?)", v, limit)
	}
	if v > limit+ackWindow {
		// Next never hands out such a value.
		return fmt.Errorf("acknowledge insert key number %d: beyond the window of %d above the acknowledged limit %d (not from Next?)", v, ackWindow, limit)
	}
	slot := v & (ackWindow - 1)
	if c.window[slot] {
		return fmt.Errorf("acknowledge insert key number %d: acknowledged twice", v)
	}
	c.window[slot] = true
	i := limit + 1
	for c.window[i&(ackWindow-1)] {
		c.window[i&(ackWindow-1)] = false
		i++
	}
	if i-1 > limit {
		c.limit.Store(i - 1)
		if c.waiting > 0 {
			close(c.room)
			c.room = make(chan struct{})
		}
	}
	return nil
}

// Histogram draws sizes from an empirical histogram: bucket i holds the weight
// of size (i+1)*blockSize, following YCSB's HistogramGenerator.
type Histogram struct {
	r         *rand.Rand
	blockSize int64
	buckets   []int64
	area      int64
}

// NewHistogram returns a histogram generator; the weights must be non-negative with a positive sum.
func NewHistogram(r *rand.Rand, buckets []int64, blockSize int64) (*Histogram, error) {
	var area int64
	for i, b := range buckets {
		if b < 0 {
			return nil, fmt.Errorf("histogram bucket %d has negative weight %d", i, b)
		}
		area += b
	}
	if area <= 0 || blockSize <= 0 {
		return nil, fmt.Errorf("histogram with %d buckets, total weight %d, block size %d: need positive weight and block size", len(buckets), area, blockSize)
	}
	return &Histogram{r: r, blockSize: blockSize, buckets: buckets, area: area}, nil
}

// Next draws one size.
func (h *Histogram) Next() int64 {
	// YCSB subtracts before comparing with <= 0, so a draw of 0 lands in the
	// first bucket and the last bucket gets whatever is left; kept as is.
	n := h.r.Int64N(h.area)
	i := 0
	for ; i < len(h.buckets)-1; i++ {
		n -= h.buckets[i]
		if n <= 0 {
			return int64(i+1) * h.blockSize
		}
	}
	return int64(i) * h.blockSize
}

// Max returns the largest size Next can return.
func (h *Histogram) Max() int64 { return int64(len(h.buckets)) * h.blockSize }

// Discrete chooses an index with probability proportional to its weight.
type Discrete struct {
	r   *rand.Rand
	cum []float64
}

// NewDiscrete returns a chooser over weights (normalised by their sum, which must be positive).
func NewDiscrete(r *rand.Rand, weights []float64) (*Discrete, error) {
	var sum float64
	for i, w := range weights {
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("discrete weight %d is %v: weights must be finite and non-negative", i, w)
		}
		sum += w
	}
	if sum <= 0 {
		return nil, fmt.Errorf("discrete weights %v sum to %v: at least one must be positive", weights, sum)
	}
	cum := make([]float64, len(weights))
	acc := 0.0
	for i, w := range weights {
		acc += w / sum
		cum[i] = acc
	}
	return &Discrete{r: r, cum: cum}, nil
}

// Next returns the chosen index.
func (d *Discrete) Next() int {
	u := d.r.Float64()
	for i, c := range d.cum {
		if u < c {
			return i
		}
	}
	// Rounding can leave the last cumulative weight a hair under 1.
	for i := len(d.cum) - 1; i > 0; i-- {
		if d.cum[i] > d.cum[i-1] {
			return i
		}
	}
	return 0
}
