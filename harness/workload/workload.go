package workload

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Op is an operation type, named by YCSB's measurement names. The load
// generator, the results and the reports all use this one type.
type Op uint8

// The operation types of YCSB's core workload.
const (
	Read Op = iota
	Update
	Insert
	Scan
	ReadModifyWrite
	// NumOps is the number of operation types.
	NumOps
)

var opNames = [NumOps]string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"}

// String returns YCSB's measurement name, e.g. READ-MODIFY-WRITE.
func (o Op) String() string {
	if o < NumOps {
		return opNames[o]
	}
	return "INVALID"
}

// ParseOp returns the Op with YCSB's measurement name s, and false when s names none.
func ParseOp(s string) (Op, bool) {
	for i, n := range opNames {
		if n == s {
			return Op(i), true
		}
	}
	return 0, false
}

// Recorder receives the timing of each (sub-)operation a Worker performs.
// READ-MODIFY-WRITE reports READ, UPDATE and itself (from the read's start to
// the update's end), as YCSB measures it.
type Recorder interface {
	// Record reports an operation that was due at the slot's intended start:
	// its intended latency runs from that start to end.
	Record(op Op, start, end time.Time, st Status)
	// RecordFollowUp reports an operation that could only start once an
	// earlier one of the same slot ended (the UPDATE of a read-modify-write):
	// its intended start is its actual start, so it carries its own latency.
	RecordFollowUp(op Op, start, end time.Time, st Status)
}

// Config is a core workload's settings after defaults and validation.
type Config struct {
	Table                   string
	RecordCount             int64 // rows in the table; 0 in the properties means 2^31-1
	OperationCount          int64
	FieldCount              int64 // fields per row (the maximum when the count varies)
	MinFieldCount           int64 // extension: the least fields per row
	FieldCountDistribution  string
	FieldLength             int64 // value size (the maximum when the size varies)
	MinFieldLength          int64
	FieldLengthDistribution string
	FieldLengthHistogram    string // file, for fieldlengthdistribution=histogram
	// HistogramBuckets and HistogramBlock are that file's weights and block
	// size, read once by NewConfig: a load host needs no copy of the file.
	HistogramBuckets []int64
	HistogramBlock   int64
	ReadAllFields    bool
	WriteAllFields   bool
	FieldNamePrefix  string
	// Proportions are the operation weights normalised to sum 1, indexed by Op.
	Proportions            [NumOps]float64
	RequestDistribution    string
	HotspotDataFraction    float64
	HotspotOpnFraction     float64
	ExponentialPercentile  float64
	ExponentialFrac        float64
	MinScanLength          int64
	MaxScanLength          int64
	ScanLengthDistribution string
	Ordered                bool // insertorder=ordered; false means hashed keys
	ZeroPadding            int
	InsertStart            int64
	InsertCount            int64
	// InsertProportion is insertproportion as written, before the weights
	// are normalised: with OperationCount it sizes ExpectedNewKeys.
	InsertProportion float64
	// ExpectedNewKeys widens the zipfian key space for run-phase inserts:
	// operationcount * insertproportion * 2 (see SetOperations).
	ExpectedNewKeys int64
}

// Workload is YCSB's core workload, shared by all workers of a run. Only the
// insert counters are shared state; everything else a worker needs is copied
// into it by NewWorker.
type Workload struct {
	cfg        Config
	fieldNames []string
	opTypes    []Op // the operations with a positive weight, in YCSB's order
	opWeights  []float64
	ack        *AcknowledgedCounter
	share      Share // this load host's share of run-phase insert keys
	loadSeq    *Counter
	seq        *Sequential
	histogram  []int64
	histBlock  int64
	maxLen     int64
	// Precomputed zetas, so workers do not each sum them.
	latestZeta, fieldLenZeta, scanLenZeta, fieldCountZeta float64
	log                                                   *slog.Logger
}

// Properties this package reads beyond YCSB's (documented in the README).
const (
	// PropMinFieldCount is the least number of fields a row gets (default 1).
	PropMinFieldCount = "minfieldcount"
	// PropFieldCountDistribution is how many fields each inserted row gets:
	// constant (fieldcount), uniform or zipfian over minfieldcount..fieldcount.
	PropFieldCountDistribution = "fieldcountdistribution"
)

// maxFieldLength bounds one value so a typo cannot make workers allocate gigabytes.
const maxFieldLength = 64 << 20

// New builds a core workload from properties, applying YCSB's defaults, and
// fails with an error naming the property, its value and its file when a value
// is unusable. It is NewConfig then FromConfig.
func New(p Properties) (*Workload, error) {
	cfg, err := NewConfig(p)
	if err != nil {
		return nil, err
	}
	return FromConfig(cfg)
}

// FromConfig builds the workload cfg describes (a Config from NewConfig,
// perhaps changed since, or decoded from a load host's task). It reads no
// file: everything the workload needs is in cfg.
func FromConfig(cfg Config) (*Workload, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	w := &Workload{cfg: cfg, log: slog.Default()}
	w.fieldNames = make([]string, cfg.FieldCount)
	for i := range w.fieldNames {
		w.fieldNames[i] = cfg.FieldNamePrefix + strconv.Itoa(i)
	}
	for op := range NumOps {
		if cfg.Proportions[op] > 0 {
			w.opTypes = append(w.opTypes, op)
			w.opWeights = append(w.opWeights, cfg.Proportions[op])
		}
	}
	w.ack = NewAcknowledgedCounter(cfg.RecordCount)
	w.loadSeq = NewCounter(cfg.InsertStart)
	w.maxLen = cfg.FieldLength
	switch cfg.FieldLengthDistribution {
	case "histogram":
		w.histogram, w.histBlock = cfg.HistogramBuckets, cfg.HistogramBlock
		w.maxLen = int64(len(w.histogram)) * w.histBlock
	case "zipfian":
		w.fieldLenZeta = Zeta(cfg.FieldLength-cfg.MinFieldLength+1, ZipfianConstant)
	}
	if cfg.FieldCountDistribution == "zipfian" {
		w.fieldCountZeta = Zeta(cfg.FieldCount-cfg.MinFieldCount+1, ZipfianConstant)
	}
	if cfg.ScanLengthDistribution == "zipfian" {
		w.scanLenZeta = Zeta(cfg.MaxScanLength-cfg.MinScanLength+1, ZipfianConstant)
	}
	switch cfg.RequestDistribution {
	case "latest":
		w.latestZeta = Zeta(w.ack.Last(), ZipfianConstant)
	case "sequential":
		w.seq = NewSequential(cfg.InsertStart, cfg.InsertStart+cfg.InsertCount-1)
	}
	return w, nil
}

// NewConfig reads a core workload's settings from properties, applying
// YCSB's defaults, and reads the field length histogram file when one is
// asked for; it fails with an error naming the property, its value and its
// file when a value is unusable.
func NewConfig(p Properties) (Config, error) {
	c, err := parseConfig(p)
	if err != nil {
		return Config{}, err
	}
	if c.FieldLengthDistribution == "histogram" {
		if c.HistogramBuckets, c.HistogramBlock, err = readHistogram(c.FieldLengthHistogram, p.Source("fieldlengthhistogram")); err != nil {
			return Config{}, err
		}
		if err := c.checkHistogram(); err != nil {
			return Config{}, err
		}
	}
	return c, nil
}

// SetOperations sets the operation count, and the run-phase insert key space
// it sizes (ExpectedNewKeys). Validate checks the result.
func (c *Config) SetOperations(n int64) {
	c.OperationCount = n
	en := float64(n) * c.InsertProportion * 2
	if en > math.MaxInt64/2 {
		en = math.MaxInt64 / 2
	}
	c.ExpectedNewKeys = int64(en)
}

// OpNames names the operations the mix runs (a proportion above 0), in Op
// order, as their histograms are tagged ("READ", "SCAN").
func (c Config) OpNames() []string {
	var out []string
	for op := range NumOps {
		if c.Proportions[op] > 0 {
			out = append(out, op.String())
		}
	}
	return out
}

// SplitKeys returns regions-1 split points at equal-count quantiles of the
// sorted row keys of key numbers 0..RecordCount-1 (see the package function).
func (c Config) SplitKeys(regions int) ([][]byte, error) {
	return SplitKeys(c.RecordCount, regions, c.ZeroPadding, c.Ordered)
}

func parseConfig(p Properties) (Config, error) {
	var c Config
	var errs []error
	i64 := func(key string, def, lo, hi int64) int64 {
		v, err := p.Int(key, def, lo, hi)
		if err != nil {
			errs = append(errs, err)
		}
		return v
	}
	f64 := func(key string, def float64) float64 {
		v, err := p.Float64(key, def)
		if err != nil {
			errs = append(errs, err)
		}
		return v
	}
	boolean := func(key string, def bool) bool {
		v, err := p.Bool(key, def)
		if err != nil {
			errs = append(errs, err)
		}
		return v
	}
	oneOf := func(key, def string, allowed ...string) string {
		v, err := p.OneOf(key, def, allowed...)
		if err != nil {
			errs = append(errs, err)
		}
		return v
	}
	if err := CheckUnsupported(p); err != nil {
		errs = append(errs, err)
	}
	if wl, ok := p.Get("workload"); ok && strings.TrimSpace(wl) != "site.ycsb.workloads.CoreWorkload" {
		errs = append(errs, p.valueError("workload", wl, "only site.ycsb.workloads.CoreWorkload is implemented"))
	}
	if _, ok := p.Get("recordcount"); !ok {
		errs = append(errs, errors.New("recordcount is not set: add recordcount=N to the property file or pass -p recordcount=N"))
	}
	if _, ok := p.Get("operationcount"); !ok {
		errs = append(errs, errors.New("operationcount is not set: add operationcount=N to the property file or pass -p operationcount=N"))
	}
	c.Table = strings.TrimSpace(p.String("table", "usertable"))
	if c.Table == "" {
		errs = append(errs, p.valueError("table", "", "must not be empty"))
	}
	c.RecordCount = i64("recordcount", 0, 0, math.MaxInt64)
	if c.RecordCount == 0 {
		c.RecordCount = math.MaxInt32 // YCSB's meaning of 0
	}
	c.OperationCount = i64("operationcount", 0, 0, math.MaxInt64)
	c.FieldCount = i64("fieldcount", 10, 1, 1<<20)
	c.MinFieldCount = i64(PropMinFieldCount, 1, 1, 1<<20)
	c.FieldCountDistribution = oneOf(PropFieldCountDistribution, "constant", "constant", "uniform", "zipfian")
	c.FieldLength = i64("fieldlength", 100, 0, maxFieldLength)
	c.MinFieldLength = i64("minfieldlength", 1, 0, maxFieldLength)
	c.FieldLengthDistribution = oneOf("fieldlengthdistribution", "constant", "constant", "uniform", "zipfian", "histogram")
	c.FieldLengthHistogram = p.String("fieldlengthhistogram", "hist.txt")
	c.ReadAllFields = boolean("readallfields", true)
	c.WriteAllFields = boolean("writeallfields", false)
	c.FieldNamePrefix = p.String("fieldnameprefix", "field")
	props := [NumOps]string{"readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion"}
	defs := [NumOps]float64{0.95, 0.05, 0, 0, 0}
	var sum float64
	for op, key := range props {
		v := f64(key, defs[op])
		if v < 0 {
			errs = append(errs, p.valueError(key, p.String(key, ""), "must not be negative"))
			v = 0
		}
		c.Proportions[op] = v
		sum += v
	}
	rawInsert := c.Proportions[Insert]
	if sum <= 0 {
		errs = append(errs, fmt.Errorf("readproportion, updateproportion, insertproportion, scanproportion and readmodifywriteproportion sum to %v: at least one must be positive", sum))
	} else {
		for op := range c.Proportions {
			c.Proportions[op] /= sum
		}
	}
	c.RequestDistribution = oneOf("requestdistribution", "uniform", "uniform", "zipfian", "latest", "hotspot", "sequential", "exponential")
	c.HotspotDataFraction = f64("hotspotdatafraction", 0.2)
	c.HotspotOpnFraction = f64("hotspotopnfraction", 0.8)
	c.ExponentialPercentile = f64("exponential.percentile", 95)
	c.ExponentialFrac = f64("exponential.frac", 0.8571428571)
	c.MinScanLength = i64("minscanlength", 1, 0, math.MaxInt32)
	c.MaxScanLength = i64("maxscanlength", 1000, 0, math.MaxInt32)
	c.ScanLengthDistribution = oneOf("scanlengthdistribution", "uniform", "uniform", "zipfian")
	c.Ordered = oneOf("insertorder", "hashed", "hashed", "ordered") == "ordered"
	c.ZeroPadding = int(i64("zeropadding", 1, 0, 40))
	c.InsertStart = i64("insertstart", 0, 0, math.MaxInt64)
	if _, set := p.Get("insertcount"); !set && c.InsertStart > c.RecordCount {
		errs = append(errs, fmt.Errorf("insertstart=%d is past recordcount=%d, so insertcount's default (recordcount-insertstart, the rows from insertstart on) is negative: recordcount is the whole table's size; give an insertstart below it, or insertcount", c.InsertStart, c.RecordCount))
	} else {
		c.InsertCount = i64("insertcount", c.RecordCount-c.InsertStart, 0, math.MaxInt64)
	}
	c.InsertProportion = rawInsert
	if len(errs) > 0 {
		return c, errors.Join(errs...)
	}
	c.SetOperations(c.OperationCount)
	return c, c.check()
}

// Validate says whether c describes a workload FromConfig can build: every
// value in the range its property allows, and the values consistent with
// each other, as NewConfig checks them.
func (c Config) Validate() error {
	if err := c.check(); err != nil {
		return err
	}
	if c.FieldLengthDistribution == "histogram" {
		return c.checkHistogram()
	}
	return nil
}

// check is Validate without the histogram's contents, which NewConfig reads
// only once the rest is known to be good.
func (c Config) check() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	within := func(name string, v, lo, hi int64) {
		if v < lo || v > hi {
			bad("%s=%d: must be between %d and %d", name, v, lo, hi)
		}
	}
	oneOf := func(name, v string, allowed ...string) {
		if !slices.Contains(allowed, v) {
			bad("%s=%q: use one of %s", name, v, strings.Join(allowed, ", "))
		}
	}
	if strings.TrimSpace(c.Table) == "" {
		bad("table: must not be empty")
	}
	within("recordcount", c.RecordCount, 1, math.MaxInt64)
	within("operationcount", c.OperationCount, 0, math.MaxInt64)
	within("fieldcount", c.FieldCount, 1, 1<<20)
	within(PropMinFieldCount, c.MinFieldCount, 1, 1<<20)
	oneOf(PropFieldCountDistribution, c.FieldCountDistribution, "constant", "uniform", "zipfian")
	within("fieldlength", c.FieldLength, 0, maxFieldLength)
	within("minfieldlength", c.MinFieldLength, 0, maxFieldLength)
	oneOf("fieldlengthdistribution", c.FieldLengthDistribution, "constant", "uniform", "zipfian", "histogram")
	var sum float64
	for op, v := range c.Proportions {
		if !(v >= 0) || math.IsInf(v, 0) {
			bad("the %s proportion %v: must be a non-negative number", Op(op), v)
		}
		sum += v
	}
	if !(sum > 0) {
		bad("the operation proportions sum to %v: at least one must be positive", sum)
	}
	if !(c.InsertProportion >= 0) || math.IsInf(c.InsertProportion, 0) {
		bad("insertproportion=%v: must be a non-negative number", c.InsertProportion)
	}
	oneOf("requestdistribution", c.RequestDistribution, "uniform", "zipfian", "latest", "hotspot", "sequential", "exponential")
	within("minscanlength", c.MinScanLength, 0, math.MaxInt32)
	within("maxscanlength", c.MaxScanLength, 0, math.MaxInt32)
	oneOf("scanlengthdistribution", c.ScanLengthDistribution, "uniform", "zipfian")
	within("zeropadding", int64(c.ZeroPadding), 0, 40)
	within("insertstart", c.InsertStart, 0, math.MaxInt64)
	within("insertcount", c.InsertCount, 0, math.MaxInt64)
	within("expected new keys", c.ExpectedNewKeys, 0, math.MaxInt64)
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if err := c.checkKeySpace(); err != nil {
		return err // the sums below would wrap
	}
	if c.InsertStart+c.InsertCount > c.RecordCount || c.InsertStart+c.InsertCount < 0 {
		errs = append(errs, fmt.Errorf("insertstart=%d + insertcount=%d is beyond recordcount=%d: recordcount is the size of the whole table and must cover this client's range", c.InsertStart, c.InsertCount, c.RecordCount))
	}
	if c.InsertCount == 0 && c.RequestDistribution != "latest" && c.RequestDistribution != "exponential" {
		errs = append(errs, fmt.Errorf("insertcount=0 leaves requestdistribution=%s no keys to choose from: set insertcount or recordcount above insertstart=%d", c.RequestDistribution, c.InsertStart))
	}
	if c.MinFieldCount > c.FieldCount {
		errs = append(errs, fmt.Errorf("%s=%d is above fieldcount=%d: fieldcount is the most fields a row gets", PropMinFieldCount, c.MinFieldCount, c.FieldCount))
	}
	if c.FieldLengthDistribution != "constant" && c.FieldLengthDistribution != "histogram" && c.MinFieldLength > c.FieldLength {
		errs = append(errs, fmt.Errorf("minfieldlength=%d is above fieldlength=%d: with fieldlengthdistribution=%s fieldlength is the largest value", c.MinFieldLength, c.FieldLength, c.FieldLengthDistribution))
	}
	if c.MinScanLength > c.MaxScanLength {
		errs = append(errs, fmt.Errorf("minscanlength=%d is above maxscanlength=%d", c.MinScanLength, c.MaxScanLength))
	}
	if c.Proportions[Scan] > 0 && c.MaxScanLength < 1 {
		errs = append(errs, fmt.Errorf("maxscanlength=%d with scans in the mix: a scan needs at least one row", c.MaxScanLength))
	}
	keyed := c.Proportions[Read] + c.Proportions[Update] + c.Proportions[Scan] + c.Proportions[ReadModifyWrite]
	if c.RequestDistribution == "zipfian" && keyed > 0 && c.InsertCount > 0 && c.ExpectedNewKeys/100 > c.InsertCount {
		// Draws beyond the acknowledged inserts are redrawn; with a key space
		// a hundred times the rows, nearly every draw would be, and the run
		// would spin instead of operating.
		errs = append(errs, fmt.Errorf("operationcount=%d * insertproportion * 2 = %d expected new keys, over 100 times insertcount=%d: zipfian key choice would almost never land on an existing row; lower operationcount or raise recordcount", c.OperationCount, c.ExpectedNewKeys, c.InsertCount))
	}
	switch c.RequestDistribution {
	case "hotspot":
		// Validated against the key range once, not per worker.
		if _, err := NewHotspot(nil, c.InsertStart, c.InsertStart+c.InsertCount-1, c.HotspotDataFraction, c.HotspotOpnFraction); err != nil {
			errs = append(errs, fmt.Errorf("requestdistribution=hotspot: %w", err))
		}
	case "exponential":
		if _, err := NewExponential(nil, c.ExponentialPercentile, float64(c.RecordCount)*c.ExponentialFrac); err != nil {
			errs = append(errs, fmt.Errorf("requestdistribution=exponential (exponential.percentile, exponential.frac): %w", err))
		}
	}
	return errors.Join(errs...)
}

// checkHistogram checks the field length histogram's weights and its
// largest size.
func (c Config) checkHistogram() error {
	if _, err := NewHistogram(nil, c.HistogramBuckets, c.HistogramBlock); err != nil {
		return fmt.Errorf("fieldlengthhistogram %s: %w", c.FieldLengthHistogram, err)
	}
	if maxLen := int64(len(c.HistogramBuckets)) * c.HistogramBlock; maxLen > maxFieldLength {
		return fmt.Errorf("fieldlengthhistogram %s: largest size %d is over the %d-byte limit", c.FieldLengthHistogram, maxLen, maxFieldLength)
	}
	return nil
}

// readHistogram reads YCSB's field length histogram file: a "BlockSize<TAB>n"
// line, then "index<TAB>weight" lines. A relative path is tried in the working
// directory (as YCSB does) and then beside the property file that named it.
func readHistogram(path, source string) ([]int64, int64, error) {
	f, err := os.Open(path)
	if err != nil && !filepath.IsAbs(path) && source != "" && source != OverrideSource {
		if f2, err2 := os.Open(filepath.Join(filepath.Dir(source), path)); err2 == nil {
			f, err = f2, nil
		}
	}
	if err != nil {
		return nil, 0, fmt.Errorf("fieldlengthdistribution=histogram: read fieldlengthhistogram: %w (set fieldlengthhistogram to the histogram file)", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var buckets []int64
	var block int64
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Fields(sc.Text())
		if line == 1 {
			if len(fs) != 2 || fs[0] != "BlockSize" {
				return nil, 0, fmt.Errorf("%s:1: first line must be \"BlockSize<TAB>n\", got %q", path, sc.Text())
			}
			if block, err = strconv.ParseInt(fs[1], 10, 64); err != nil || block <= 0 {
				return nil, 0, fmt.Errorf("%s:1: block size %q is not a positive whole number", path, fs[1])
			}
			continue
		}
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 2 {
			return nil, 0, fmt.Errorf("%s:%d: want \"index<TAB>weight\", got %q", path, line, sc.Text())
		}
		idx, err1 := strconv.Atoi(fs[0])
		wt, err2 := strconv.ParseInt(fs[1], 10, 64)
		if err1 != nil || err2 != nil || idx < 0 || idx > len(buckets) || wt < 0 {
			return nil, 0, fmt.Errorf("%s:%d: want \"index<TAB>weight\" with 0 <= index <= %d and weight >= 0, got %q", path, line, len(buckets), sc.Text())
		}
		buckets = slices.Insert(buckets, idx, wt) // YCSB inserts at the index
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	if line == 0 {
		return nil, 0, fmt.Errorf("%s: empty histogram file", path)
	}
	return buckets, block, nil
}

// Config returns the workload's settings.
func (w *Workload) Config() Config { return w.cfg }

// FieldNames returns the field names field0..fieldN-1 (fieldnameprefix + index).
func (w *Workload) FieldNames() []string { return slices.Clone(w.fieldNames) }

// LoadRange returns the key numbers this client loads: [start, start+count).
func (w *Workload) LoadRange() (start, count int64) { return w.cfg.InsertStart, w.cfg.InsertCount }

// LoadShare returns loader i's share (of n) of LoadRange: contiguous ranges
// whose sizes differ by at most one row.
func (w *Workload) LoadShare(i, n int) (start, count int64) {
	if n <= 0 || i < 0 || i >= n {
		return w.cfg.InsertStart, 0
	}
	total := w.cfg.InsertCount
	lo := w.cfg.InsertStart + total*int64(i)/int64(n)
	hi := w.cfg.InsertStart + total*int64(i+1)/int64(n)
	return lo, hi - lo
}

// NextLoadKeyNumber hands out load-phase key numbers from insertstart, one
// per call across all workers, as YCSB's doInsert does; a loader that splits
// LoadRange itself does not need it.
func (w *Workload) NextLoadKeyNumber() int64 { return w.loadSeq.Next() }

// NextLoadBatch hands out the next n load-phase key numbers as one run
// [first, first+count), clipped to LoadRange; count is 0 once every row is
// handed out. Batches and NextLoadKeyNumber draw from the same sequence.
func (w *Workload) NextLoadBatch(n int64) (first, count int64) {
	end := w.cfg.InsertStart + w.cfg.InsertCount
	first = w.loadSeq.next.Add(n) - n
	return first, max(0, min(n, end-first))
}

// KeyForNumber returns the row key of key number n under this workload's
// insertorder and zeropadding.
func (w *Workload) KeyForNumber(n int64) string {
	return BuildKeyName(n, w.cfg.ZeroPadding, w.cfg.Ordered)
}

// SplitKeys returns regions-1 split points at equal-count quantiles of the
// sorted row keys of key numbers 0..recordcount-1 (see the package function).
func (w *Workload) SplitKeys(regions int) ([][]byte, error) { return w.cfg.SplitKeys(regions) }

// Share is one load host's part of a run that several hosts drive as one
// client: host Index of Of (0-based). The zero value is the whole run.
type Share struct {
	Index, Of int
}

// Validate says whether the share names a host of a fleet.
func (s Share) Validate() error {
	if s.Of == 0 && s.Index == 0 {
		return nil
	}
	if s.Of < 1 || s.Index < 0 || s.Index >= s.Of {
		return fmt.Errorf("load host %d of %d: the index must be in 0..%d", s.Index, s.Of, s.Of-1)
	}
	return nil
}

// keyNumber maps the run-phase insert counter's value n to the key number
// this host writes: above recordcount, host i of N takes every N-th key from
// recordcount+i, so the hosts' inserts never collide, and a host reads only
// keys it has itself acknowledged (the counter's Last), never a row another
// host has not written yet. Load-phase and preloaded keys are unchanged.
func (s Share) keyNumber(n, recordCount int64) int64 {
	if s.Of <= 1 || n < recordCount {
		return n
	}
	return recordCount + (n-recordCount)*int64(s.Of) + int64(s.Index)
}

// ShareInserts makes this workload one load host's share of a fleet's run:
// its run-phase inserts (and the reads of them) use the key numbers
// Share.keyNumber gives. Call it before NewWorker.
func (w *Workload) ShareInserts(s Share) error {
	if err := s.Validate(); err != nil {
		return err
	}
	w.share = s
	return nil
}

// InsertCounter returns the acknowledged counter run-phase inserts draw from;
// its Last is the highest key number readers may choose.
func (w *Workload) InsertCounter() *AcknowledgedCounter { return w.ack }

// Worker is one goroutine's view of the workload: its own random source,
// generators and buffers. It is not safe for concurrent use.
type Worker struct {
	w          *Workload
	r          *rand.Rand
	ops        *Discrete
	keys       Generator
	expKeys    *Exponential // set when requestdistribution=exponential
	fieldLen   Generator
	fieldCount Generator
	scanLen    Generator
	fieldPick  *Uniform
	keyBuf     []byte
	valBuf     []byte
	fields     []Field
	oneField   []string
	ackLogged  bool
	valState   uint64           // value bytes' random state, see fillPrintable
	now        func() time.Time // time.Now; tests set a fake clock
}

// NewWorker returns a worker whose draws are fixed by seed: the same seed
// (and the same order of calls) gives the same operations, keys and values.
func (w *Workload) NewWorker(seed int64) *Worker {
	c := &w.cfg
	r := NewRand(seed)
	k := &Worker{w: w, r: r, valState: r.Uint64(), now: time.Now}
	var err error
	if k.ops, err = NewDiscrete(r, w.opWeights); err != nil {
		panic("workload: proportions validated in New: " + err.Error())
	}
	lo, hi := c.InsertStart, c.InsertStart+c.InsertCount-1
	switch c.RequestDistribution {
	case "uniform":
		k.keys = NewUniform(r, lo, hi)
	case "zipfian":
		k.keys = NewScrambledZipfian(r, c.InsertStart, c.InsertStart+c.InsertCount+c.ExpectedNewKeys)
	case "latest":
		k.keys = NewSkewedLatest(r, w.ack, w.latestZeta)
	case "hotspot":
		k.keys, _ = NewHotspot(r, lo, hi, c.HotspotDataFraction, c.HotspotOpnFraction) // validated in New
	case "sequential":
		k.keys = w.seq
	case "exponential":
		k.expKeys, _ = NewExponential(r, c.ExponentialPercentile, float64(c.RecordCount)*c.ExponentialFrac) // validated in New
	}
	switch c.FieldLengthDistribution {
	case "constant":
		k.fieldLen = Constant(c.FieldLength)
	case "uniform":
		k.fieldLen = NewUniform(r, c.MinFieldLength, c.FieldLength)
	case "zipfian":
		k.fieldLen = NewZipfianZeta(r, c.MinFieldLength, c.FieldLength, w.fieldLenZeta)
	case "histogram":
		k.fieldLen, _ = NewHistogram(r, w.histogram, w.histBlock) // validated in New
	}
	switch c.FieldCountDistribution {
	case "constant":
		k.fieldCount = Constant(c.FieldCount)
	case "uniform":
		k.fieldCount = NewUniform(r, c.MinFieldCount, c.FieldCount)
	case "zipfian":
		k.fieldCount = NewZipfianZeta(r, c.MinFieldCount, c.FieldCount, w.fieldCountZeta)
	}
	switch c.ScanLengthDistribution {
	case "uniform":
		k.scanLen = NewUniform(r, c.MinScanLength, c.MaxScanLength)
	case "zipfian":
		k.scanLen = NewZipfianZeta(r, c.MinScanLength, c.MaxScanLength, w.scanLenZeta)
	}
	k.fieldPick = NewUniform(r, 0, c.FieldCount-1)
	k.keyBuf = make([]byte, 0, 64)
	// Start with room for a typical row; buildValues grows it once if a row needs more.
	k.valBuf = make([]byte, 0, min(c.FieldCount*w.maxLen, 1<<20))
	k.fields = make([]Field, 0, c.FieldCount)
	k.oneField = make([]string, 1)
	return k
}

// Workload returns the workload the worker belongs to.
func (k *Worker) Workload() *Workload { return k.w }

// SetClock replaces time.Now as the source of the worker's operation timings,
// so tests can check recorded latencies exactly.
func (k *Worker) SetClock(now func() time.Time) { k.now = now }

// NextOp chooses the next operation by the workload's proportions.
func (k *Worker) NextOp() Op { return k.w.opTypes[k.ops.Next()] }

// NextKeyNumber chooses the key number of a read, update, scan or
// read-modify-write, redrawing any number above the last acknowledged insert
// so a read never asks for a row that is not there yet.
func (k *Worker) NextKeyNumber() int64 {
	last := k.w.ack.Last()
	if k.expKeys != nil {
		for {
			if n := last - k.expKeys.Next(); n >= 0 {
				return n
			}
		}
	}
	for {
		if n := k.keys.Next(); n <= last {
			return n
		}
		last = k.w.ack.Last() // inserts may have been acknowledged meanwhile
	}
}

// key returns the row key of n. The one allocation per operation is this
// string: a DB may keep a key past the call (a request still queued when its
// context ends), so it cannot live in a reused buffer.
func (k *Worker) key(n int64) string {
	k.keyBuf = AppendKey(k.keyBuf[:0], k.w.share.keyNumber(n, k.w.cfg.RecordCount), k.w.cfg.ZeroPadding, k.w.cfg.Ordered)
	return string(k.keyBuf)
}

// AppendKey appends the row key of key number n to dst, for callers that keep keys in their own buffers.
func (k *Worker) AppendKey(dst []byte, n int64) []byte {
	return AppendKey(dst, k.w.share.keyNumber(n, k.w.cfg.RecordCount), k.w.cfg.ZeroPadding, k.w.cfg.Ordered)
}

// fillPrintable fills b with random printable ASCII (' ' to '_'): each
// 64-bit draw gives eight characters of six random bits, with no per-byte
// branch. The draws come from a wyrand state seeded by the worker's source:
// values need no statistical quality, and wyrand is several times cheaper
// than PCG, which matters at 1 KB per field.
func fillPrintable(state *uint64, b []byte) {
	const low6, space = 0x3f3f3f3f3f3f3f3f, 0x2020202020202020
	s := *state
	next := func() uint64 {
		s += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(s, s^0xe7037ed1a0b428db)
		return hi ^ lo
	}
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], next()&low6+space)
	}
	if i < len(b) {
		x := next()&low6 + space
		for ; i < len(b); i++ {
			b[i] = byte(x)
			x >>= 8
		}
	}
	*state = s
}

// value returns a fresh random value of the next field length, carved from
// the worker's buffer; the buffer is replaced, not grown in place, so values
// already handed out in this row stay intact.
func (k *Worker) value() []byte {
	n := int(k.fieldLen.Next())
	if len(k.valBuf)+n > cap(k.valBuf) {
		k.valBuf = make([]byte, 0, max(2*cap(k.valBuf), n))
	}
	start := len(k.valBuf)
	k.valBuf = k.valBuf[:start+n]
	v := k.valBuf[start : start+n : start+n]
	fillPrintable(&k.valState, v)
	return v
}

// RowValues returns values for a whole row: fields field0.. up to this row's
// field count (fieldcount, or drawn by fieldcountdistribution). The slice and
// values are reused by the worker's next call.
func (k *Worker) RowValues() []Field {
	k.valBuf = k.valBuf[:0]
	k.fields = k.fields[:0]
	n := k.fieldCount.Next()
	for i := range n {
		k.fields = append(k.fields, Field{Name: k.w.fieldNames[i], Value: k.value()})
	}
	return k.fields
}

// UpdateValues returns the values of an update: one random field, or a whole
// row when writeallfields is set. Reused by the worker's next call.
func (k *Worker) UpdateValues() []Field {
	if k.w.cfg.WriteAllFields {
		return k.RowValues()
	}
	k.valBuf = k.valBuf[:0]
	k.fields = append(k.fields[:0], Field{Name: k.w.fieldNames[k.fieldPick.Next()], Value: k.value()})
	return k.fields
}

// readFields returns nil (all fields) or one random field name, reused.
func (k *Worker) readFields() []string {
	if k.w.cfg.ReadAllFields {
		return nil
	}
	k.oneField[0] = k.w.fieldNames[k.fieldPick.Next()]
	return k.oneField
}

// ScanLength draws the row count of the next scan.
func (k *Worker) ScanLength() int { return int(k.scanLen.Next()) }

type nopRecorder struct{}

func (nopRecorder) Record(Op, time.Time, time.Time, Status)         {}
func (nopRecorder) RecordFollowUp(Op, time.Time, time.Time, Status) {}

// DoTransaction chooses and performs one run-phase operation, reporting it
// (and a read-modify-write's parts) to rec, which may be nil. It returns the
// operation and its status.
func (k *Worker) DoTransaction(ctx context.Context, db DB, rec Recorder) (Op, Status) {
	op := k.NextOp()
	return op, k.Do(ctx, db, op, rec)
}

// Do performs one operation of type op with keys and values drawn as YCSB
// draws them, reporting its timing to rec (nil for none).
func (k *Worker) Do(ctx context.Context, db DB, op Op, rec Recorder) Status {
	if rec == nil {
		rec = nopRecorder{}
	}
	table := k.w.cfg.Table
	switch op {
	case Read:
		key := k.key(k.NextKeyNumber())
		fields := k.readFields()
		t0 := k.now()
		st := db.Read(ctx, table, key, fields)
		rec.Record(Read, t0, k.now(), st)
		return st
	case Update:
		key := k.key(k.NextKeyNumber())
		vals := k.UpdateValues()
		t0 := k.now()
		st := db.Update(ctx, table, key, vals)
		rec.Record(Update, t0, k.now(), st)
		return st
	case Insert:
		n, err := k.w.ack.Next(ctx)
		if err != nil {
			t := k.now()
			rec.Record(Insert, t, t, Error)
			return Error
		}
		key := k.key(n)
		vals := k.RowValues()
		t0 := k.now()
		st := db.Insert(ctx, table, key, vals)
		t1 := k.now()
		// Acknowledged whatever the outcome, as YCSB does, so one failed
		// insert cannot freeze the readable key space.
		if err := k.w.ack.Acknowledge(n); err != nil && !k.ackLogged {
			k.ackLogged = true
			k.w.log.Error("workload: run-phase insert counter", "key", key, "err", err)
		}
		rec.Record(Insert, t0, t1, st)
		return st
	case Scan:
		key := k.key(k.NextKeyNumber())
		n := k.ScanLength()
		fields := k.readFields()
		t0 := k.now()
		st := db.Scan(ctx, table, key, n, fields)
		rec.Record(Scan, t0, k.now(), st)
		return st
	case ReadModifyWrite:
		key := k.key(k.NextKeyNumber())
		fields := k.readFields()
		vals := k.UpdateValues()
		t0 := k.now()
		rs := db.Read(ctx, table, key, fields)
		t1 := k.now()
		us := db.Update(ctx, table, key, vals)
		t2 := k.now()
		// The READ was due at the slot's start; the UPDATE only once the READ
		// ended, so it carries its own latency and an update-only regression
		// shows in UPDATE alone. READ-MODIFY-WRITE is the whole.
		rec.Record(Read, t0, t1, rs)
		rec.RecordFollowUp(Update, t1, t2, us)
		st := worse(rs, us)
		rec.Record(ReadModifyWrite, t0, t2, st)
		return st
	}
	t := k.now()
	rec.Record(op, t, t, Error)
	return Error
}

// worse returns the more severe status: ERROR over NOT_FOUND over OK.
func worse(a, b Status) Status {
	rank := func(s Status) int {
		switch s {
		case OK:
			return 0
		case NotFound:
			return 1
		}
		return 2
	}
	if rank(a) >= rank(b) {
		return a
	}
	return b
}

// LoadRows inserts the rows of key numbers first..first+n-1 (load phase),
// reporting one INSERT per row to rec (nil for none). A DB that is a
// BatchInserter gets them in one request, every row timed as that request;
// any other DB gets one Insert per row. It returns the worst status.
func (k *Worker) LoadRows(ctx context.Context, db DB, first, n int64, rec Recorder) Status {
	b, batched := db.(BatchInserter)
	if !batched || n == 1 {
		st := OK
		for i := first; i < first+n; i++ {
			st = worse(st, k.LoadRow(ctx, db, i, rec))
		}
		return st
	}
	for i := first; i < first+n; i++ {
		b.QueueInsert(k.key(i), k.RowValues())
	}
	t0 := k.now()
	st := b.InsertQueued(ctx, k.w.cfg.Table)
	t1 := k.now()
	if rec != nil {
		for range n {
			rec.Record(Insert, t0, t1, st)
		}
	}
	return st
}

// LoadRow inserts the row of key number n (load phase) with all its fields,
// reporting the INSERT to rec (nil for none).
func (k *Worker) LoadRow(ctx context.Context, db DB, n int64, rec Recorder) Status {
	key := k.key(n)
	vals := k.RowValues()
	t0 := k.now()
	st := db.Insert(ctx, k.w.cfg.Table, key, vals)
	if rec != nil {
		rec.Record(Insert, t0, k.now(), st)
	}
	return st
}
