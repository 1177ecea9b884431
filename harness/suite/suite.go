// Package suite loads and validates the YAML suites under scenarios/suites:
// which workloads run, on what data, at what rate, for how many trials, and
// which metrics gate the verdict at what tolerance.
package suite

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/regress-hbase/regress/harness/capacity/section"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/inputfile"
	"github.com/regress-hbase/regress/harness/metric"
)

// Suite is one validated suite definition.
type Suite struct {
	// Name is the suite's name (its file name without .yaml unless set).
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Workloads names YCSB property files, resolved against the scenarios dir.
	Workloads []string `yaml:"workloads"`
	Data      Data     `yaml:"data"`
	Load      Preload  `yaml:"load"`
	Run       Run      `yaml:"-"` // as written: file.Run
	Pairs     Pairs    `yaml:"pairs"`
	Compare   Compare  `yaml:"-"` // as written: file.Compare
	// Cluster shapes the clusters regress starts for this suite.
	Cluster Cluster `yaml:"cluster"`
	// Overridden is what the command line changed of the suite (-P, -p,
	// --threads, --target: Override), as written; stored in each manifest.
	Overridden []string `yaml:"-"`
	// Capacity configures `regress capacity` (defaults when absent).
	Capacity *section.Capacity `yaml:"-"` // as written: file.Capacity
	// Properties are extra YCSB properties applied to every workload (-p style).
	Properties map[string]string `yaml:"properties"`

	// Scenarios is where the workload files were read from.
	Scenarios Scenarios `yaml:"-"`

	// loads is each workload's load as read when the suite loaded (spec.go).
	loads loads
	// text is the suite file as read; contents each workload's file by
	// the suite's name for it, read once when the suite loaded (what the
	// fingerprint hashes and the loads parse); kept the same files as a
	// manifest keeps them (Files).
	text     []byte
	contents map[string][]byte
	kept     map[string][]byte
	// paths names a workload given by -P (Override) by its file's path.
	paths map[string]string
	// pFile reads a -P argument's file in place of the disk (a stored
	// suite's: FromStored); nil reads the disk, then Scenarios.
	pFile func(arg string) (name string, b []byte, err error)
	// cmdline marks the properties given by -p (Override), for errors.
	cmdline map[string]bool
}

// Data is the seed table's data spec; a stored seed snapshot is reused while it is unchanged.
//
// Beside the rows' count and size, it is the data's shape on the servers:
// the column family's attributes, as HBase's shell names them
// (DATA_BLOCK_ENCODING, BLOOMFILTER, BLOCKSIZE, VERSIONS, IN_MEMORY,
// BLOCKCACHE; empty or zero keeps HBase's default), and how many store files
// each region's seed holds. The shape's fields are left out of the
// fingerprint while unset, so results stored before they existed keep theirs.
type Data struct {
	RecordCount  int64  `yaml:"recordcount"`
	FieldCount   int    `yaml:"fieldcount"`
	FieldLength  int    `yaml:"fieldlength"`
	Regions      int    `yaml:"regions"`
	ColumnFamily string `yaml:"columnfamily"`
	Compression  string `yaml:"compression"`
	// DataBlockEncoding is the family's DATA_BLOCK_ENCODING: NONE, PREFIX,
	// DIFF, FAST_DIFF or ROW_INDEX_V1.
	DataBlockEncoding string `yaml:"data_block_encoding" json:",omitempty"`
	// BloomFilter is the family's BLOOMFILTER: NONE, ROW (HBase's default),
	// ROWCOL or ROWPREFIX_FIXED_LENGTH.
	BloomFilter string `yaml:"bloomfilter" json:",omitempty"`
	// BlockSize is the family's BLOCKSIZE in bytes (HBase's default 65536).
	BlockSize int `yaml:"blocksize" json:",omitempty"`
	// Versions is the family's VERSIONS (default 1).
	Versions int `yaml:"versions" json:",omitempty"`
	// InMemory and BlockCache are the family's IN_MEMORY and BLOCKCACHE.
	InMemory   *bool `yaml:"in_memory" json:",omitempty"`
	BlockCache *bool `yaml:"blockcache" json:",omitempty"`
	// StoreFiles is how many store files each region of the seed holds:
	// the preload is flushed in that many parts and not major-compacted
	// (1, the default: one part, flushed and major-compacted). Reads then
	// merge that many files, as a region between compactions does.
	StoreFiles int `yaml:"storefiles" json:",omitempty"`
}

// Family is the seed table's column family as the suite shapes it. A seed
// of several store files raises the family's compaction threshold above
// their count, so no server compacts them away.
func (d Data) Family() hbase.FamilySpec {
	f := hbase.FamilySpec{Name: d.ColumnFamily, Compression: d.Compression, Versions: cmp.Or(d.Versions, 1),
		BloomFilter: d.BloomFilter, DataBlockEncoding: d.DataBlockEncoding, BlockSize: d.BlockSize,
		InMemory: d.InMemory, BlockCache: d.BlockCache}
	if d.StoreFiles > 1 {
		f.Configuration = map[string]string{"hbase.hstore.compactionThreshold": strconv.Itoa(d.StoreFiles + 1)}
	}
	return f
}

// Shape describes the data's shape in a line for people (reports): rows,
// cells and every family attribute the suite sets.
func (d Data) Shape() string {
	parts := []string{fmt.Sprintf("%d rows x %d fields of %d B", d.RecordCount, d.FieldCount, d.FieldLength),
		fmt.Sprintf("%d regions", d.Regions)}
	if d.StoreFiles > 1 {
		parts = append(parts, fmt.Sprintf("%d store files a region", d.StoreFiles))
	}
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+" "+v)
		}
	}
	add("COMPRESSION", d.Compression)
	add("DATA_BLOCK_ENCODING", d.DataBlockEncoding)
	add("BLOOMFILTER", d.BloomFilter)
	if d.BlockSize > 0 {
		add("BLOCKSIZE", strconv.Itoa(d.BlockSize))
	}
	if d.Versions > 1 {
		add("VERSIONS", strconv.Itoa(d.Versions))
	}
	if d.InMemory != nil {
		add("IN_MEMORY", strconv.FormatBool(*d.InMemory))
	}
	if d.BlockCache != nil {
		add("BLOCKCACHE", strconv.FormatBool(*d.BlockCache))
	}
	return strings.Join(parts, ", ")
}

// Cluster shapes the clusters regress starts (the local and home
// providers); --region-servers and --rs-heap override it. A cluster someone
// else runs (--baseline-zk) keeps its own shape.
type Cluster struct {
	// RegionServers is how many region servers each side runs: 1 (the
	// default) is standalone HBase, 2 or more a pseudo-distributed cluster.
	RegionServers int `yaml:"region_servers"`
	// RSHeap is each region server's heap, e.g. 2g (default 1g).
	RSHeap string `yaml:"rs_heap"`
	// JVMOptsByJDK are JVM options every server JVM regress starts gets
	// when it runs on the JDK a key names by its major version
	// (jvm_opts_by_jdk: {"11": [-XX:-TieredCompilation]}), before the
	// command line's own (which win). They change what the servers run, so
	// each side's JDK label names them (docs/suites.md). Not part of the
	// fingerprint: the label keeps such results apart.
	JVMOptsByJDK map[string][]string `yaml:"jvm_opts_by_jdk" json:"-"`
	// Conf is hbase-site.xml settings every cluster regress starts for the
	// suite gets (a side's --*-conf wins), e.g. hfile.block.cache.size to
	// size the block cache against the data. Part of the fingerprint: it
	// changes what the servers measure. A cluster regress does not start
	// (--*-zk) keeps its own configuration, and the run says so.
	Conf map[string]string `yaml:"conf" json:",omitempty"`
}

// JVMOpts is the suite's JVM options for a JDK's major version.
func (c Cluster) JVMOpts(major int) []string { return c.JVMOptsByJDK[strconv.Itoa(major)] }

// maxStoreFiles bounds data.storefiles: each part is a flush, and a region
// with more files than HBase's blocking count (hbase.hstore.blockingStoreFiles,
// 16 since 1.x) holds its writes back.
const maxStoreFiles = 12

// checkConf refuses hbase-site keys that are not property names (the
// providers check them again, with the ports they bind).
func checkConf(conf map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(conf)) {
		if k == "" || strings.ContainsAny(k, " \t=<>&") {
			return fmt.Errorf("%q is not an hbase-site property name (e.g. hfile.block.cache.size)", k)
		}
	}
	return nil
}

// Preload configures the preload of the seed table.
type Preload struct {
	Threads   int `yaml:"threads"`
	BatchSize int `yaml:"batch"`
}

// Run configures each trial's run phase.
type Run struct {
	Threads int `yaml:"threads"`
	// TargetOpsPerSec is the global target rate before the per-server clamp.
	TargetOpsPerSec float64 `yaml:"target"`
	// Targets sets a workload's own target rate in place of
	// TargetOpsPerSec (run.targets: {workloade: 400}): scans cost a
	// server tens of times a Get, so one rate for all either idles the
	// point workloads or saturates E.
	Targets map[string]float64 `yaml:"targets"`
	// PerServerClampOpsPerSec caps the rate per live region server (0: no clamp).
	PerServerClampOpsPerSec float64       `yaml:"per_server_clamp"`
	Warmup                  time.Duration `yaml:"-"`
	Measure                 time.Duration `yaml:"-"`
	// OperationCount stops a trial's measurement early after this many operations (0: by time only).
	OperationCount int64 `yaml:"operationcount"`
	// MaxErrorRate fails the run when more than this fraction of operations fail.
	MaxErrorRate float64 `yaml:"-"`
	// Prewarm reads every row of each trial's clone once before the trial,
	// so its first reads do not pay for a cold block cache (a clone's files
	// get block cache keys of their own). Worth it for small data sets only.
	Prewarm bool `yaml:"prewarm"`
	// LoadHosts runs every trial on this many `regress worker` load hosts as one client (0: in the run's process).
	LoadHosts int `yaml:"load_hosts"`
	// WarmupRounds is how many unmeasured rounds (one trial of every
	// workload on every side) run before the first pair: a freshly started
	// region server's first trials pay for its JIT and caches (measured: the
	// first smoke pair's p95 4-14 ms, the others 1-2 ms). Default 1.
	WarmupRounds int `yaml:"-"`
	// WarmupMaxRounds lets warm-up go on past WarmupRounds, up to this many
	// rounds, until every side's server CPU per operation settles (a fresh
	// JVM's first trials cost about twice a warm one's); 0 means WarmupRounds.
	WarmupMaxRounds int `yaml:"warmup_max_rounds"`
	// Mode is how a pair's two trials run: ModeInterleaved (back to back, in
	// random order) or ModeDuet (at the same time, same start and schedule).
	Mode string `yaml:"mode"`
	// Profile records JFR on both sides' region servers over one extra
	// pair of each workload, run after the counted pairs and not counted
	// (--profile overrides it). Left out of the fingerprint: no counted
	// trial runs beside a recorder.
	Profile bool `yaml:"profile"`
	// ProfileMeasure is the profiled pair's measurement window, longer than
	// a counted trial's so its recordings hold more samples (0: Measure).
	// Left out of the fingerprint with Profile.
	ProfileMeasure time.Duration `yaml:"-"`
	// Idle is how long each trial's servers are watched with no load just
	// before it, to subtract their background from the server cost; 0 subtracts nothing.
	Idle time.Duration `yaml:"-"`
	// Pin gives each side of a duet its own half of the machine's CPUs
	// (the region server JVMs; the load generator keeps them all).
	Pin bool `yaml:"pin"`
	// Instances starts each side's cluster afresh this many times over a
	// run (regress starts it; a cluster given by ZooKeeper stays one), the
	// initial pairs split evenly between them, each new instance warmed up
	// like the first: two JVMs of one release differ for their whole life,
	// and instances make that offset a level of the interval (compare's
	// nested estimate) instead of a bias no pair removes. Default DefaultInstances.
	Instances int `yaml:"instances"`
}

// DefaultInstances is run.instances when a suite does not set it: one
// cluster a side for the whole run.
const DefaultInstances = 1

// Trial modes (Run.Mode).
const (
	// ModeInterleaved runs a pair's trials back to back in random order.
	ModeInterleaved = "interleaved"
	// ModeDuet runs a pair's trials at the same time on the same machine, so
	// both meet the same interference (Bulej et al., ICPE 2020).
	ModeDuet = "duet"
)

// Pairs sets how many interleaved baseline/candidate pairs run per workload.
type Pairs struct {
	Initial int `yaml:"initial"`
	Max     int `yaml:"max"`
	// Looks is how many times the comparison is planned to be looked at while pairs grow.
	Looks int `yaml:"looks"`
}

// Compare holds the statistical settings of the verdict.
type Compare struct {
	// Alpha is the family-wise error rate of the gated metrics.
	Alpha float64 `yaml:"-"`
	// Tolerances maps a metric of metric.Metrics to a fraction (0.10 = 10%)
	// within its allowed range (the catalogue's: compare's own check).
	Tolerances map[string]float64 `yaml:"-"`
	// PrimaryTolerances maps a server cost (cpu_per_op, alloc_per_op) to
	// the tolerance of its primary row, over every workload; absent: its
	// tolerance above.
	PrimaryTolerances map[string]float64 `yaml:"-"`
	// Gate lists the metrics whose regression fails the run.
	Gate []string `yaml:"gate"`
	// DetectOnly lists gated metrics that only detect: REGRESSED fails the
	// run, undecided they never hold a PASS back (compare.Config.DetectOnly).
	DetectOnly []string `yaml:"detect_only"`
	// InstanceSD floors, per metric, the offset between two fresh pairs of
	// server JVMs the nested estimate assumes (a fraction, as measured on
	// the machine); absent: the run's own estimate alone.
	InstanceSD map[string]float64 `yaml:"-"`
	// InstanceRuns is how many runs InstanceSD was measured over: its weight
	// against a run's own estimate (compare.Config.InstanceRuns).
	InstanceRuns int `yaml:"instance_runs"`
	// InstanceSDByLine gives, per HBase line ("2.4": major.minor), the
	// instance sd measured on that line, in place of InstanceSD for runs on
	// it (compare.Config.InstanceSDByLine); a line not listed takes
	// InstanceSD, and the report says so.
	InstanceSDByLine map[string]map[string]float64 `yaml:"-"`
	// InstanceSDByJDK gives, per JDK major version ("11"), the instance sd
	// measured on that JDK: a side on it raises its line's figure to the
	// JDK's where larger (compare.Config.InstanceSDByJDK).
	InstanceSDByJDK map[string]map[string]float64 `yaml:"-"`
}

// file is a suite as written. The values with units or defaults stay text
// (or a pointer) here, absent meaning the default ("30s", "10%", 0 rounds
// given or not), until normalise parses them into Suite's typed fields: a
// Suite holds every value once. The other fields decode straight into the
// inlined types. The section types are named as their YAML keys, so a typo's
// error reads "field warmpu not found in type suite.run".
type file struct {
	Suite    `yaml:",inline"`
	Run      run       `yaml:"run"`
	Compare  compare   `yaml:"compare"`
	Capacity *capacity `yaml:"capacity"`
}

type run struct {
	Run          `yaml:",inline"`
	WarmupRounds *int   `yaml:"warmup_rounds"`
	Warmup       string `yaml:"warmup"`
	Idle         string `yaml:"idle"`
	Measure      string `yaml:"measure"`
	// ProfileMeasure is run.profile_measure (Run.ProfileMeasure).
	ProfileMeasure string `yaml:"profile_measure"`
	MaxErrorRate   string `yaml:"max_error_rate"`
}

type compare struct {
	Compare           `yaml:",inline"`
	Alpha             string            `yaml:"alpha"`
	Tolerances        map[string]string `yaml:"tolerances"`
	PrimaryTolerances map[string]string `yaml:"primary_tolerances"`
	InstanceSD        map[string]string `yaml:"instance_sd"`
	// InstanceSDByLine is keyed by line, then metric: {"2.4": {cpu_per_op: 3.5%}}.
	InstanceSDByLine map[string]map[string]string `yaml:"instance_sd_by_line"`
	// InstanceSDByJDK is keyed by JDK major version, then metric: {"11": {cpu_per_op: 6%}}.
	InstanceSDByJDK map[string]map[string]string `yaml:"instance_sd_by_jdk"`
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// IsPath says whether a --suite value is a suite file's path (it ends in
// .yaml or .yml, or holds a path separator) rather than a suite's name.
func IsPath(nameOrPath string) bool {
	return strings.HasSuffix(nameOrPath, ".yaml") || strings.HasSuffix(nameOrPath, ".yml") || strings.ContainsRune(nameOrPath, os.PathSeparator)
}

// ErrScenariosNotDir marks a scenarios directory that is something else
// (errors.Is): REGRESS_SCENARIOS=/dev/null must not fall back to defaults.
var ErrScenariosNotDir = errors.New("the scenarios directory is not a directory")

// CheckScenarios refuses a scenarios path that is there but is no
// directory; one that is absent is left to the caller (compare works
// without it, with default tolerances).
func CheckScenarios(dir string) error {
	if dir == "" {
		return fmt.Errorf("the scenarios directory is empty: give --scenarios (or REGRESS_SCENARIOS) the directory holding suites/ and the workload files: %w", ErrScenariosNotDir)
	}
	fi, err := os.Stat(dir)
	if err == nil && !fi.IsDir() {
		return fmt.Errorf("scenarios %s is %s, not a directory: give --scenarios (or REGRESS_SCENARIOS) the directory holding suites/ and the workload files: %w", dir, inputfile.Kind(fi.Mode()), ErrScenariosNotDir)
	}
	return nil
}

// Load reads and validates the suite file at path, its workloads from
// the folder scenariosDir.
func Load(path, scenariosDir string) (*Suite, error) { return LoadFile(path, Folder(scenariosDir)) }

// MaxSuiteBytes bounds a suite file (the shipped ones take 1-10 KiB): a
// larger one is no suite, and would be read whole and parsed before any
// check.
const MaxSuiteBytes = maxSuiteFile

// MaxPairs bounds pairs.max: a pair is minutes of measuring, so a thousand
// is days; more is a typo (1e12 was accepted).
const MaxPairs = 1000

// LoadFile reads and validates the suite file at path (on disk), its
// workloads from sc.
func LoadFile(path string, sc Scenarios) (*Suite, error) {
	// A FIFO or device would block the read, deaf to signals: refuse it.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read suite: %s is %s, not a regular file: give a suite file", path, inputfile.Kind(fi.Mode()))
	}
	b, err := inputfile.ReadFile(path, maxSuiteFile)
	if errors.Is(err, inputfile.ErrTooLarge) {
		return nil, fmt.Errorf("read suite: %w: a suite file takes a few KiB (at most %s); give the suite's YAML file", err, inputfile.Size(MaxSuiteBytes))
	}
	if err != nil {
		return nil, fmt.Errorf("read suite: %w", err)
	}
	file := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".yaml"), ".yml")
	return parseFile(b, path, file, sc)
}

// parseFile parses suite file b, named where in errors, whose file name
// (without .yaml) is file: a suite's name is its file's.
func parseFile(b []byte, where, file string, sc Scenarios) (*Suite, error) {
	s, err := ParseIn(b, sc)
	if err != nil {
		return nil, fmt.Errorf("suite %s: %w", where, err)
	}
	if s.Name == "" {
		s.Name = file
	}
	if s.Name != file {
		// Results are stored under the name, and compare finds the suite's
		// gates by it (suites/NAME.yaml): another name would not find them.
		return nil, fmt.Errorf("suite %s: name %q is not the file's name %q: make them one (rename the file %s.yaml, or write name: %s)", where, s.Name, file, s.Name, file)
	}
	return s, nil
}

// Parse decodes and validates a suite whose workload files lie in the
// folder scenariosDir.
func Parse(b []byte, scenariosDir string) (*Suite, error) { return ParseIn(b, Folder(scenariosDir)) }

// ParseIn decodes and validates a suite whose workload files are read
// from sc; unknown keys are errors so typos do not pass silently.
func ParseIn(b []byte, sc Scenarios) (*Suite, error) {
	var f file
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a valid suite: %w", err)
	}
	// A second document (after a "---") would be ignored without a word,
	// and what it says would not hold.
	var more yaml.Node
	if err := dec.Decode(&more); err != nil && !errors.Is(err, io.EOF) || err == nil && !emptyDocument(&more) {
		return nil, errors.New("not a valid suite: the file holds a second YAML document (after a '---'), which a suite cannot use: a suite is one document; merge it into the first or remove it")
	}
	s := &f.Suite
	s.Scenarios, s.Run, s.Compare = sc, f.Run.Run, f.Compare.Compare
	s.text = slices.Clone(b)
	if err := errors.Join(explicitZeros(b), s.normalise(&f)); err != nil {
		return nil, err
	}
	return s, nil
}

// emptyDocument says whether a decoded document holds nothing (a "---"
// ending the file, or one followed by comments only).
func emptyDocument(n *yaml.Node) bool {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	return n.Kind == 0 || n.Kind == yaml.DocumentNode && len(n.Content) == 0 || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// zeroless are the keys whose 0 is no value: left out they take a default,
// so a 0 written out must be refused rather than become that default.
var zeroless = []struct{ section, key, want string }{
	{"data", "fieldcount", "a positive number of fields (default 10)"},
	{"data", "fieldlength", "a positive number of bytes (default 100)"},
	{"data", "regions", "between 1 and the row count (default 8)"},
	{"load", "threads", "a positive number of threads (default 4)"},
	{"load", "batch", "a positive number of rows a batch (default 500)"},
	{"run", "threads", "a positive number of threads (default 8)"},
	{"pairs", "initial", "at least 2 (default 5)"},
	{"pairs", "max", "at least pairs.initial (default: pairs.initial)"},
	{"pairs", "looks", "at least 1 (default 1)"},
	{"cluster", "region_servers", "1 (standalone, the default) or more"},
}

// explicitZeros refuses a 0 written for a key in zeroless. Typed decoding
// cannot tell a 0 from an absent key, so the file is read again as a map.
func explicitZeros(b []byte) error {
	var raw map[string]any
	if err := yaml.Unmarshal(b, &raw); err != nil {
		return nil // the typed decode has said why
	}
	var errs []error
	for _, z := range zeroless {
		sec, ok := raw[z.section].(map[string]any)
		if !ok {
			continue
		}
		if v, ok := sec[z.key]; ok && (v == 0 || v == 0.0) {
			errs = append(errs, fmt.Errorf("%s.%s: 0 is not a valid value: give %s, or leave the key out for the default", z.section, z.key, z.want))
		}
	}
	return errors.Join(errs...)
}

// normalise parses f's text values into s, fills defaults and validates.
func (s *Suite) normalise(f *file) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }

	if s.Name != "" && !nameRE.MatchString(s.Name) {
		bad("name %q: use letters, digits, '.', '_' and '-'", s.Name)
	}
	if len(s.Workloads) == 0 {
		bad("workloads: list at least one workload file, e.g. [workloada]")
	}
	seen := map[string]string{}
	for _, w := range s.Workloads {
		// Trials are keyed by the workload's file name: one listed twice
		// would pool two runs' trials as one, or split one's pairs.
		if prev, ok := seen[filepath.Base(w)]; ok {
			bad("workloads: %q is listed twice (as %q and %q): list each workload once (raise pairs.initial for more trials of it)", filepath.Base(w), prev, w)
			continue
		}
		seen[filepath.Base(w)] = w
		if !filepath.IsLocal(w) {
			bad("workloads: %q is not a workload file under the scenarios directory %s: name one by its path inside it (e.g. workloada)", w, s.Scenarios)
			continue
		}
		if fi, err := s.Scenarios.stat(w); err == nil && !fi.Mode().IsRegular() {
			bad("workloads: %q (%s) is not a regular file", w, s.WorkloadPath(w))
		} else if err != nil {
			bad("workloads: unknown workload file %q (looked for %s)", w, s.WorkloadPath(w))
		} else if b, err := s.Scenarios.readWorkload(w); err != nil {
			bad("workloads: %q: %v", w, err)
		} else {
			s.keep(w, w, b)
		}
	}
	if err := checkJVMOptsByJDK(s.Cluster.JVMOptsByJDK); err != nil {
		errs = append(errs, err)
	}
	d := &s.Data
	setDefault(&d.FieldCount, 10)
	setDefault(&d.FieldLength, 100)
	setDefault(&d.Regions, 8)
	if d.ColumnFamily == "" {
		d.ColumnFamily = "family"
	}
	if d.Compression == "" {
		d.Compression = "NONE"
	}
	d.Compression = strings.ToUpper(d.Compression)
	if d.RecordCount <= 0 {
		bad("data.recordcount: must be a positive number of rows, got %d", d.RecordCount)
	}
	if d.FieldCount <= 0 || d.FieldLength <= 0 {
		bad("data.fieldcount and data.fieldlength must be positive")
	}
	if d.Regions <= 0 || int64(d.Regions) > max(d.RecordCount, 1) {
		bad("data.regions: must be between 1 and the row count, got %d", d.Regions)
	}
	switch d.Compression {
	case "NONE", "GZ", "SNAPPY", "LZ4", "ZSTD", "LZO", "BZIP2", "LZMA":
	default:
		bad("data.compression: %q is not an HBase codec (NONE, GZ, SNAPPY, LZ4, ZSTD)", d.Compression)
	}
	d.DataBlockEncoding, d.BloomFilter = strings.ToUpper(d.DataBlockEncoding), strings.ToUpper(d.BloomFilter)
	if err := hbase.ValidateFamily(d.Family()); err != nil {
		bad("data: %s (data_block_encoding, bloomfilter, blocksize, versions are the family's attributes as HBase's shell names them)", strings.TrimPrefix(err.Error(), `hbase: table "" `))
	}
	if d.StoreFiles < 0 || d.StoreFiles > maxStoreFiles {
		bad("data.storefiles: %d store files a region: give 1 to %d", d.StoreFiles, maxStoreFiles)
	} else if int64(max(d.StoreFiles, 1)) > d.RecordCount {
		bad("data.storefiles: %d store files need at least as many rows (recordcount %d)", d.StoreFiles, d.RecordCount)
	}
	if len(s.Cluster.Conf) > 0 {
		if err := checkConf(s.Cluster.Conf); err != nil {
			bad("cluster.conf: %v", err)
		}
	}
	// The cluster section is checked by package sut, which starts the
	// clusters it shapes (sut.CheckSuite): one place for the topology rules.
	setDefault(&s.Load.Threads, 4)
	setDefault(&s.Load.BatchSize, 500)
	if s.Load.Threads < 0 || s.Load.BatchSize < 0 {
		bad("load.threads and load.batch must be positive")
	}
	r := &s.Run
	setDefault(&r.Threads, 8)
	if r.Threads < 0 {
		bad("run.threads: must be positive, got %d", r.Threads)
	}
	if r.LoadHosts < 0 {
		bad("run.load_hosts: must be 0 (load from the run's own process) or the number of `regress worker` hosts, got %d", r.LoadHosts)
	}
	if r.TargetOpsPerSec < 0 {
		bad("run.target: a rate in ops/s cannot be negative, got %g (0 means unthrottled)", r.TargetOpsPerSec)
	}
	if r.PerServerClampOpsPerSec < 0 {
		bad("run.per_server_clamp: cannot be negative, got %g", r.PerServerClampOpsPerSec)
	}
	for w, t := range r.Targets {
		if !slices.Contains(s.Workloads, w) {
			bad("run.targets: %q is not one of the suite's workloads %v", w, s.Workloads)
		}
		if t < 0 || math.IsNaN(t) || math.IsInf(t, 0) {
			bad("run.targets.%s: a rate in ops/s must be 0 (unthrottled) or more, got %g", w, t)
		}
	}
	var err error
	r.WarmupRounds = 1
	if f.Run.WarmupRounds != nil {
		r.WarmupRounds = *f.Run.WarmupRounds
	}
	if r.WarmupRounds < 0 {
		bad("run.warmup_rounds: must be 0 or more, got %d", r.WarmupRounds)
	}
	if r.Warmup, err = parseDuration(f.Run.Warmup, 5*time.Second); err != nil {
		bad("run.warmup: %v", err)
	}
	if r.Idle, err = parseDuration(f.Run.Idle, 2*time.Second); err != nil {
		bad("run.idle: %v", err)
	}
	if r.WarmupMaxRounds < 0 {
		bad("run.warmup_max_rounds: must be 0 or more, got %d", r.WarmupMaxRounds)
	}
	if r.WarmupMaxRounds < r.WarmupRounds {
		r.WarmupMaxRounds = r.WarmupRounds
	}
	switch r.Mode {
	case "":
		r.Mode = ModeInterleaved
	case ModeDuet, ModeInterleaved:
	default:
		bad("run.mode: %q is not a trial mode; use %s (a pair's trials at the same time) or %s (back to back)", r.Mode, ModeDuet, ModeInterleaved)
	}
	if r.Measure, err = parseDuration(f.Run.Measure, 30*time.Second); err != nil || r.Measure <= 0 {
		if err == nil {
			err = errors.New("must be longer than 0s")
		}
		bad("run.measure: %v", err)
	}
	if r.ProfileMeasure, err = parseDuration(f.Run.ProfileMeasure, 0); err != nil || r.ProfileMeasure < 0 || r.ProfileMeasure > 10*time.Minute {
		if err == nil {
			err = fmt.Errorf("%s: give 0 (the counted trials' window) to 10m", r.ProfileMeasure)
		}
		bad("run.profile_measure: %v", err)
	}
	if r.MaxErrorRate, err = parsePercent(f.Run.MaxErrorRate, 0.01); err != nil {
		bad("run.max_error_rate: %v", err)
	} else if r.MaxErrorRate > 1 {
		bad("run.max_error_rate: %s is over 100%%: give the share of operations that may fail, e.g. 1%%", f.Run.MaxErrorRate)
	}
	if r.OperationCount < 0 {
		bad("run.operationcount: cannot be negative")
	}
	p := &s.Pairs
	setDefault(&p.Initial, 5)
	if p.Max == 0 {
		p.Max = p.Initial
	}
	setDefault(&p.Looks, 1)
	if p.Initial < 2 {
		bad("pairs.initial: at least 2 pairs are needed for a confidence interval, got %d", p.Initial)
	}
	if p.Max < p.Initial {
		bad("pairs.max (%d) must be at least pairs.initial (%d)", p.Max, p.Initial)
	}
	if p.Max > MaxPairs {
		bad("pairs.max (%d) is beyond %d: a pair takes minutes, %d pairs days; give the most pairs a run may take, e.g. 12", p.Max, MaxPairs, MaxPairs)
	}
	if p.Looks < 1 {
		bad("pairs.looks: must be at least 1")
	} else if p.Max >= p.Initial && p.Looks > p.Max-p.Initial+1 {
		bad("pairs.looks: %d looks need at least %d pairs past pairs.initial (%d), but pairs.max is %d: each look after the first adds a pair at least; lower looks or raise pairs.max", p.Looks, p.Looks-1, p.Initial, p.Max)
	}
	setDefault(&r.Instances, DefaultInstances)
	switch {
	case r.Instances < 1:
		bad("run.instances: must be 1 or more, got %d", r.Instances)
	case r.Instances > 1 && p.Initial < 2*r.Instances:
		bad("run.instances: %d instances need at least %d initial pairs (two a block, or nothing within a block estimates the pairs' noise), but pairs.initial is %d", r.Instances, 2*r.Instances, p.Initial)
	case r.Instances > 1 && r.LoadHosts > 0:
		bad("run.instances %d with run.load_hosts: load hosts measure clusters regress does not restart; use 1", r.Instances)
	}
	c := &s.Compare
	if c.Alpha, err = parsePercent(f.Compare.Alpha, 0.05); err != nil || c.Alpha <= 0 || c.Alpha >= 0.5 {
		if err == nil {
			err = fmt.Errorf("must lie between 0%% and 50%%, got %s", f.Compare.Alpha)
		}
		bad("compare.alpha: %v", err)
	}
	c.Tolerances = metric.DefaultTolerances()
	// The catalogue's range, the one compare judges by: refused here,
	// before any JVM starts, rather than after the trials.
	tolerance := func(k string, v float64, _ string) error { return metric.CheckTolerance(k, v) }
	maps.Copy(c.Tolerances, percentMap("compare.tolerances", f.Compare.Tolerances, unknownMetric, tolerance, bad))
	c.PrimaryTolerances = percentMap("compare.primary_tolerances", f.Compare.PrimaryTolerances, func(k string) string {
		if metric.IsMetric(k) && metric.HasPrimaryRow(k) {
			return ""
		}
		return fmt.Sprintf("%q has no primary row; primary rows are those of %s", k, strings.Join(metric.PrimaryMetrics, ", "))
	}, tolerance, bad)
	c.InstanceSD = percentMap("compare.instance_sd", f.Compare.InstanceSD, unknownMetric, instanceSD, bad)
	c.InstanceSDByLine = instanceSDByLine(f.Compare.InstanceSDByLine, c.InstanceSD, bad)
	c.InstanceSDByJDK = instanceSDByJDK(f.Compare.InstanceSDByJDK, bad)
	if c.InstanceRuns < 0 {
		bad("compare.instance_runs: must be 0 or more, got %d", c.InstanceRuns)
	}
	if len(c.Gate) == 0 {
		c.Gate = slices.Clone(metric.DefaultGate)
	}
	for _, g := range c.Gate {
		if _, err := metric.ParseSelector(g); err != nil {
			bad("compare.gate: %v", err)
		}
	}
	for _, g := range c.DetectOnly {
		if _, err := metric.ParseSelector(g); err != nil {
			bad("compare.detect_only: %v", err)
		}
	}
	if err := checkProperties(s.Properties); err != nil {
		errs = append(errs, err)
	}
	if err := s.normaliseCapacity(f.Capacity); err != nil {
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		if err := s.readLoads(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// WorkloadPath names where a workload of the suite was read from, for messages.
func (s *Suite) WorkloadPath(name string) string {
	if p, ok := s.paths[name]; ok {
		return p
	}
	return s.Scenarios.Path(name)
}

// keep records workload name's file, read as b, kept in Files under key.
func (s *Suite) keep(name, key string, b []byte) {
	if s.contents == nil {
		s.contents, s.kept = map[string][]byte{}, map[string][]byte{}
	}
	s.contents[name], s.kept[key] = b, b
}

// workloadFile is workload w's file as read when the suite loaded (read
// from Scenarios for a Suite made in code).
func (s *Suite) workloadFile(w string) ([]byte, error) {
	if b, ok := s.contents[w]; ok {
		return b, nil
	}
	return s.Scenarios.readWorkload(w)
}

// SeedKey identifies the seed data; a stored seed snapshot is reused while it
// and the HBase version are unchanged.
func (s *Suite) SeedKey() string {
	d := s.Data
	key := fmt.Sprintf("rows=%d fields=%d fieldlength=%d regions=%d family=%s compression=%s",
		d.RecordCount, d.FieldCount, d.FieldLength, d.Regions, d.ColumnFamily, d.Compression)
	// The shape's attributes only when set: seeds stored before keep their names.
	for _, kv := range [][2]string{{"encoding", d.DataBlockEncoding}, {"bloom", d.BloomFilter}, {"blocksize", itoa0(d.BlockSize)},
		{"versions", itoa0(d.Versions)}, {"inmemory", boolp(d.InMemory)}, {"blockcache", boolp(d.BlockCache)}, {"storefiles", itoa0(d.StoreFiles)}} {
		if kv[1] != "" {
			key += " " + kv[0] + "=" + kv[1]
		}
	}
	return key
}

// itoa0 is n in decimal, "" for 0.
func itoa0(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// boolp is *b in words, "" for nil.
func boolp(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b)
}

// Fingerprint hashes everything that makes two results comparable: the data
// spec, the workload files' contents, the rate, threads, windows, extra
// properties and the cluster section (only when set, so suites without one
// keep the fingerprints their stored results carry). Pair counts and tolerances are left out: they change the
// verdict's power, not what a trial measures.
func (s *Suite) Fingerprint() (string, error) {
	h := sha256.New()
	type fp struct {
		Data       Data
		Workloads  map[string]string
		Threads    int
		Target     float64
		Clamp      float64
		Warmup     time.Duration
		Measure    time.Duration
		OpCount    int64
		Properties map[string]string
		Rounds     int  // warm-up rounds: they change the server a trial meets
		Prewarm    bool `json:",omitempty"` // a warm block cache changes what a trial measures
		// Duet: two servers loaded at once meet another machine than one.
		Duet bool `json:",omitempty"`
		// Pin: each side on half the CPUs is another machine again.
		Pin bool `json:",omitempty"`
		// Cluster: N region servers measure another system than one.
		Cluster *Cluster `json:",omitempty"`
		// Targets: a workload's own rate is another load.
		Targets map[string]float64 `json:",omitempty"`
	}
	f := fp{Data: s.Data, Workloads: map[string]string{}, Threads: s.Run.Threads, Target: s.Run.TargetOpsPerSec,
		Clamp: s.Run.PerServerClampOpsPerSec, Warmup: s.Run.Warmup, Measure: s.Run.Measure,
		OpCount: s.Run.OperationCount, Properties: s.Properties, Rounds: s.Run.WarmupRounds, Prewarm: s.Run.Prewarm,
		Duet: s.Run.Mode == ModeDuet, Pin: s.Run.Pin, Targets: s.Run.Targets}
	if c := s.Cluster; c.RegionServers > 1 || c.RSHeap != "" || len(c.Conf) > 0 {
		c.RegionServers = max(c.RegionServers, 1)
		f.Cluster = &c
	}
	for _, w := range s.Workloads {
		b, err := s.workloadFile(w)
		if err != nil {
			return "", fmt.Errorf("fingerprint suite: %w", err)
		}
		sum := sha256.Sum256(b)
		f.Workloads[w] = hex.EncodeToString(sum[:])
	}
	b, _ := json.Marshal(f) // map keys marshal sorted, so this is canonical
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func setDefault(v *int, d int) {
	if *v == 0 {
		*v = d
	}
}

func parseDuration(s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (write e.g. 30s or 2m)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q: a duration cannot be negative", s)
	}
	return d, nil
}

// parsePercent reads "10%" as 0.10; def is returned for an empty string (def < 0: required).
func parsePercent(s string, def float64) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		if def < 0 {
			return 0, errors.New("missing value (write a percentage such as 10%)")
		}
		return def, nil
	}
	if !strings.HasSuffix(s, "%") {
		return 0, fmt.Errorf("%q is not a percentage (write e.g. 10%%)", s)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
	if err != nil || f < 0 || f > 1000 {
		return 0, fmt.Errorf("%q is not a percentage (write e.g. 10%%)", s)
	}
	return f / 100, nil
}

// unknownMetric says why k is no metric of the catalogue, or "" when it is one.
func unknownMetric(k string) string {
	if metric.IsMetric(k) {
		return ""
	}
	return fmt.Sprintf("unknown metric %q (known: %s)", k, metric.List())
}

// instanceSD checks one instance sd: a share of the metric, at most all of it.
func instanceSD(_ string, v float64, raw string) error {
	if v < 0 || v > 1 {
		return fmt.Errorf("must lie between 0%% and 100%%, got %s", raw)
	}
	return nil
}

// lineRE is an HBase line as compare.instance_sd_by_line keys it: major.minor.
var lineRE = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)

// instanceSDByLine parses compare.instance_sd_by_line: each key an HBase
// line (major.minor), each value a metric-to-percentage map as
// instance_sd's that names at least every metric the default (instance_sd)
// does, so a line's figure never quietly mixes with another line's.
func instanceSDByLine(in map[string]map[string]string, def map[string]float64, bad func(string, ...any)) map[string]map[string]float64 {
	const section = "compare.instance_sd_by_line"
	var out map[string]map[string]float64
	for _, line := range slices.Sorted(maps.Keys(in)) {
		if !lineRE.MatchString(line) {
			bad("%s: %q is no HBase line: key each figure by major.minor, quoted (\"2.4\": {cpu_per_op: 4%%}), the line of the releases it was measured on", section, line)
			continue
		}
		if len(in[line]) == 0 {
			bad("%s.%s: no figure; give the sd measured on %s per metric (e.g. {cpu_per_op: 4%%, alloc_per_op: 4%%}) or drop the line", section, line, line)
			continue
		}
		sd := percentMap(section+"."+line, in[line], unknownMetric, instanceSD, bad)
		if len(sd) != len(in[line]) {
			continue // refused above
		}
		var missing []string
		for _, k := range slices.Sorted(maps.Keys(def)) {
			if _, ok := sd[k]; !ok {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			bad("%s.%s: no %s, which compare.instance_sd gives: a line's figure stands in for the default whole, so give its own (measured on %s with the symmetry suite) for every metric the default names", section, line, strings.Join(missing, ", "), line)
			continue
		}
		if out == nil {
			out = map[string]map[string]float64{}
		}
		out[line] = sd
	}
	return out
}

// jdkRE is a JDK as compare.instance_sd_by_jdk keys it: its major
// version, then the JVM options the suite starts it with, if any
// ("11 -XX:-TieredCompilation"), as the side's JDK label names them.
var jdkRE = regexp.MustCompile(`^[0-9]+( -[^ ]+)*$`)

// instanceSDByJDK parses compare.instance_sd_by_jdk: each key a JDK major
// version ("11"), each value a metric-to-percentage map as instance_sd's.
// A JDK's figure only raises a line's, so it may name fewer metrics.
func instanceSDByJDK(in map[string]map[string]string, bad func(string, ...any)) map[string]map[string]float64 {
	const section = "compare.instance_sd_by_jdk"
	var out map[string]map[string]float64
	for _, jdk := range slices.Sorted(maps.Keys(in)) {
		if !jdkRE.MatchString(jdk) {
			bad("%s: %q is no JDK major version: key each figure by the JDK's major version, quoted (\"11\": {cpu_per_op: 6%%}), the JDK the servers ran on when it was measured, then any JVM options they ran with (\"11 -XX:-TieredCompilation\")", section, jdk)
			continue
		}
		if len(in[jdk]) == 0 {
			bad("%s.%s: no figure; give the sd measured on JDK %s per metric (e.g. {cpu_per_op: 6%%}) or drop the JDK", section, jdk, jdk)
			continue
		}
		sd := percentMap(section+"."+jdk, in[jdk], unknownMetric, instanceSD, bad)
		if len(sd) != len(in[jdk]) {
			continue // refused above
		}
		if out == nil {
			out = map[string]map[string]float64{}
		}
		out[jdk] = sd
	}
	return out
}

// percentMap parses one of compare's metric-to-percentage sections: a key
// refused by known (its reason) or a value that is no percentage or fails
// check is reported through bad as "section: reason" or "section.key:
// error", the rest returned as fractions (nil when none).
func percentMap(section string, in map[string]string, known func(string) string, check func(k string, v float64, raw string) error, bad func(string, ...any)) map[string]float64 {
	var out map[string]float64
	for _, k := range slices.Sorted(maps.Keys(in)) {
		if why := known(k); why != "" {
			bad("%s: %s", section, why)
			continue
		}
		v, err := parsePercent(in[k], -1)
		if err == nil {
			err = check(k, v, in[k])
		}
		if err != nil {
			bad("%s.%s: %v", section, k, err)
			continue
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[k] = v
	}
	return out
}

// jdkKeyRE is a JDK as cluster.jvm_opts_by_jdk keys it: its major version.
var jdkKeyRE = regexp.MustCompile(`^[1-9][0-9]*$`)

// checkJVMOptsByJDK refuses a key that is not a JDK's major version and an
// option that is not one JVM option.
func checkJVMOptsByJDK(byJDK map[string][]string) error {
	var errs []error
	for _, k := range slices.Sorted(maps.Keys(byJDK)) {
		if !jdkKeyRE.MatchString(k) {
			errs = append(errs, fmt.Errorf("cluster.jvm_opts_by_jdk: key %q: key each JDK's options by its major version, e.g. \"11\"", k))
			continue
		}
		for _, o := range byJDK[k] {
			if !strings.HasPrefix(o, "-") || strings.ContainsAny(o, " \t\n") {
				errs = append(errs, fmt.Errorf("cluster.jvm_opts_by_jdk[%q]: %q is not one JVM option: give each option as its own list item, starting with '-' (e.g. -XX:-TieredCompilation)", k, o))
			}
		}
	}
	return errors.Join(errs...)
}
