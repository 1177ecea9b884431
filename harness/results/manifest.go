// Package results is the on-disk store of trial results: one manifest.json per
// HBase version (or label) and suite fingerprint, beside each trial's .hlog.
package results

import (
	"time"

	"github.com/regress-hbase/regress/harness/loadgen"
)

// SchemaVersion is the manifest schema this build writes and reads.
const SchemaVersion = 1

// Manifest is everything stored for one target (an HBase version or label) and one suite.
type Manifest struct {
	Schema  int    `json:"schema"`
	Version string `json:"hbase_version"`
	// Label is the name the side is stored under where it is not the
	// version, for people, older builds and the store's folders; Naming
	// is how it came to be, what regress reads (set both with SetName).
	Label       string            `json:"label,omitempty"`
	Naming      *SideName         `json:"naming,omitempty"`
	Provider    string            `json:"provider"`
	Settings    map[string]string `json:"settings,omitempty"`
	JVMOpts     []string          `json:"jvm_opts,omitempty"`
	Environment Environment       `json:"environment"`
	// Repository is the Maven repository the HBase jars came from first (an RC's staging repository).
	Repository string `json:"repository,omitempty"`
	// Home is the HBase home (unpacked release or tarball) the cluster ran from.
	Home string `json:"home,omitempty"`
	// JarChecksums maps each HBase jar the cluster ran to its SHA-256: what
	// tells RC0's results from RC1's, which carry the same version string.
	JarChecksums map[string]string `json:"jar_checksums,omitempty"`
	// RegionServers is how many region servers were live when the run
	// started (0 in results stored before it was recorded); RSHeap is
	// their heap as asked ("" for the default).
	RegionServers int       `json:"region_servers,omitempty"`
	RSHeap        string    `json:"rs_heap,omitempty"`
	Suite         SuiteInfo `json:"suite"`
	// Source is "regress" for measured trials or "ycsb-import" for imported YCSB output.
	Source string  `json:"source"`
	Trials []Trial `json:"trials"`
	// Summaries hold imported results: one summary value per metric, no trials,
	// so they can only be compared descriptively.
	Summaries []Trial `json:"summaries,omitempty"`

	// Dir is the directory the manifest was read from (not stored): its
	// trials' .hlog files lie beside it, inside the store or not.
	Dir string `json:"-"`
}

// Environment fingerprints the machine a result was measured on.
type Environment struct {
	CPUModel    string `json:"cpu_model"`
	Cores       int    `json:"cores"`
	MemoryBytes int64  `json:"memory_bytes"`
	OS          string `json:"os"`
	// JDK is the JDK's label, for people and older builds; JDKParts are
	// its fields, what regress reads (set both with SetJDK).
	JDK      string `json:"jdk"`
	JDKParts *JDK   `json:"jdk_parts,omitempty"`
	Hostname string `json:"hostname,omitempty"`
	// Hadoop is the Hadoop client stack on the side's class path, e.g.
	// "2.10.2" (a plain 2.x build) or "3.4.1" (its -hadoop3 build), as the
	// hadoop-common jar names it; empty where it was not recorded.
	Hadoop string `json:"hadoop,omitempty"`
}

// SuiteInfo names the suite and the fingerprint of everything that makes two
// results comparable (workloads, data spec, rate, windows).
type SuiteInfo struct {
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	// DataSpec describes the seed data: rows, fields, field length, regions,
	// compression, and the family's attributes and store files where set.
	DataSpec string `json:"data_spec"`
	// Overrides are the command line's changes to the suite, YCSB's way
	// ("-p requestdistribution=uniform", "-P /path/workloadx"): already in
	// the fingerprint, here so a reader sees what they were.
	Overrides []string `json:"overrides,omitempty"`
	// Text is the suite file as written (YAML) and Files every workload
	// file it read, by the name it read it under (a -P file: "-P PATH"),
	// with its contents: with Overrides, the whole suite, so the run is
	// judged again by the suite it ran wherever it is read (suite.FromStored).
	// Empty in results stored before the suite travelled with them; an
	// entry several runs added to holds the latest run's.
	Text  string            `json:"text,omitempty"`
	Files map[string]string `json:"files,omitempty"`
}

// Carried says whether the suite itself travels with the results (Text),
// not only its name.
func (s SuiteInfo) Carried() bool { return s.Text != "" }

// Trial is one measured trial: one clone, one workload, one measurement window.
type Trial struct {
	ID string `json:"id"`
	// RunID names the run that measured the trial; pairs match only within a run.
	RunID    string `json:"run_id,omitempty"`
	Workload string `json:"workload"`
	Pair     int    `json:"pair"`
	Order    int    `json:"order"` // 0 ran first within its pair, 1 ran second
	// Instance numbers the side's server instance the trial ran on: 0 its
	// first JVMs, k its k-th fresh start within the run (run.instances).
	Instance int `json:"instance,omitempty"`
	// Slot is the place the trial held in its pair, 1 or 2 (0: not
	// recorded, e.g. a single target's trials or ones stored before it
	// was): in a duet slot 1's clone, probes, idle watch and load start
	// first and its region servers get the first half of the CPUs when
	// pinned; interleaved, slot 1 ran first. Trial clones are named for the
	// slot (_s1_, _s2_). Slots alternate between the sides pair by pair
	// (runner/slots.go), so a slot effect is a level a model can estimate.
	Slot  int       `json:"slot,omitempty"`
	Start time.Time `json:"start"`
	// DurationMillis is the measurement window's length, warm-up excluded.
	DurationMillis    int64              `json:"duration_ms"`
	TargetOpsPerSec   float64            `json:"target_ops_per_sec"`
	AchievedOpsPerSec float64            `json:"achieved_ops_per_sec"`
	Ops               map[string]OpStats `json:"ops"` // keyed by READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE
	HlogFile          string             `json:"hlog_file,omitempty"`
	// HlogSHA256 is the hex SHA-256 of the .hlog file, so a reader can tell a damaged log.
	HlogSHA256 string `json:"hlog_sha256,omitempty"`
	// Client is what the load process itself spent and suffered during the
	// trial: the evidence that its latencies are the server's. Absent for imports.
	Client *ClientStats `json:"client,omitempty"`
	// LoadHosts holds each load host's part when several ran the trial as
	// one client (--load-hosts); Client is then the fleet's sum.
	LoadHosts []LoadHost `json:"load_hosts,omitempty"`
	// Duet is true when this trial ran at the same time as its pair's other
	// trial (both sides on the same machine, the same start and schedule).
	Duet bool `json:"duet,omitempty"`
	// Server is what the region servers spent in the measurement window;
	// absent where it could not be read (a cluster on another machine, imports).
	Server *ServerStats `json:"server,omitempty"`
	// Warmup says how the run's warm-up went before this trial's pairs: its
	// rounds, their time, and whether server CPU per operation had settled.
	Warmup *Warmup `json:"warmup,omitempty"`
}

// Warmup is a run's warm-up, recorded with each of its trials.
type Warmup struct {
	Rounds  int     `json:"rounds"`
	Seconds float64 `json:"seconds"`
	Settled bool    `json:"settled"`
}

// ServerStats is what a side's region servers spent in a trial's
// measurement window, per operation the client counted.
type ServerStats struct {
	// CPUPerOpMicros is the cpu_per_op metric: the CPU per operation of the
	// servers' threads that serve requests (RPC handlers, event loops, WAL
	// writers; no JIT compiler, GC or chores) where they can be told apart
	// (local clusters), else ProcessCPUPerOpMicros. CPUSource says which.
	CPUPerOpMicros float64 `json:"cpu_per_op_us"`
	CPUSource      string  `json:"cpu_source,omitempty"`
	// ProcessCPUPerOpMicros is the servers' process CPU (user+system) per
	// operation, net of their idle background (IdleCPUMillisPerSec over the window).
	ProcessCPUPerOpMicros float64 `json:"process_cpu_per_op_us,omitempty"`
	// GrossCPUPerOpMicros is the process CPU with the background left in.
	GrossCPUPerOpMicros float64 `json:"gross_cpu_per_op_us"`
	// IdleCPUMillisPerSec is the background: CPU ms per second the servers
	// spent with no load, measured just before the trial.
	IdleCPUMillisPerSec float64 `json:"idle_cpu_ms_per_s"`
	// AllocPerOpBytes is the alloc_per_op metric: the heap bytes the
	// servers' request threads allocated per operation (regress's agent on
	// local clusters), else ProcessAllocPerOpBytes; 0 when unknown.
	// AllocSource says which.
	AllocPerOpBytes float64 `json:"alloc_per_op_bytes,omitempty"`
	AllocSource     string  `json:"alloc_source,omitempty"`
	// ProcessAllocPerOpBytes is the whole JVMs' allocation per operation,
	// background included (the GC log locally, TotalThreadAllocatedBytes
	// through /jmx elsewhere; IdleAllocBytesPerSec is the idle rate, for
	// reference); 0 when unknown.
	ProcessAllocPerOpBytes float64 `json:"process_alloc_per_op_bytes,omitempty"`
	IdleAllocBytesPerSec   float64 `json:"idle_alloc_bytes_per_s,omitempty"`
	// GCs counts the servers' stop-the-world collections in the window; GCPauseMicros is their time.
	GCs           int64   `json:"gcs"`
	GCPauseMicros float64 `json:"gc_pause_us"`
	// Timeline places the window's GC pauses, flushes, compactions, splits
	// and region moves in time (timeline.go); nil where it is not available.
	Timeline *ServerTimeline `json:"timeline,omitempty"`
	// Flushes, Compactions and Splits the servers logged in the window: a
	// trial with any is flagged, its figures include that work.
	Flushes     int `json:"flushes,omitempty"`
	Compactions int `json:"compactions,omitempty"`
	Splits      int `json:"splits,omitempty"`
	// Counts are the requests and block cache lookups the servers counted
	// in the window (counts.go); nil in trials stored before they were read.
	*Counts
	// Servers is how many region servers were read.
	Servers int `json:"servers"`
	// PerServer is each region server's own part, kept where a side has
	// several: which server a cost or an offset sits on.
	PerServer []ServerPart `json:"per_server,omitempty"`
	// WindowMillis is the time between the two readings.
	WindowMillis int64 `json:"window_ms"`
}

// Flagged reports whether a flush, compaction or split fell in the window.
func (s *ServerStats) Flagged() bool {
	return s != nil && s.Flushes+s.Compactions+s.Splits > 0
}

// ServerPart is one region server's part of a side's trial: what its
// request threads spent in the measurement window. Address is its RPC
// host:port where known, the key of Counts.PerServer.
type ServerPart struct {
	Server            string  `json:"server"`
	Address           string  `json:"address,omitempty"`
	RequestCPUMicros  float64 `json:"request_cpu_us"`
	RequestAllocBytes int64   `json:"request_alloc_bytes,omitempty"`
}

// LoadHost is one load host's part of a trial.
type LoadHost struct {
	// Host names the worker (hostname:pid (id)); Share is its index in the schedule.
	Host  string `json:"host"`
	Share int    `json:"share"`
	// Ops counts its measured operations; the rates are its share's.
	Ops               int64   `json:"ops"`
	TargetOpsPerSec   float64 `json:"target_ops_per_sec"`
	AchievedOpsPerSec float64 `json:"achieved_ops_per_sec"`
	// Client is the host's own CPU per operation, lateness and GC.
	Client ClientStats `json:"client"`
	// ClockAheadMs is how far the host's clock was ahead of the run's
	// (both read against ZooKeeper's), ClockErrorMs the bound on that;
	// BarrierLeadMs how long before the agreed start the host saw the
	// trial's barrier (negative: it started that late).
	ClockAheadMs  float64 `json:"clock_ahead_ms"`
	ClockErrorMs  float64 `json:"clock_error_ms"`
	BarrierLeadMs float64 `json:"barrier_lead_ms"`
}

// ClientStats is the load client's own share of a trial (warm-up included).
type ClientStats struct {
	// CPUPerOpMicros is the client's CPU per operation.
	CPUPerOpMicros float64 `json:"cpu_per_op_us"`
	// Lateness is how late operations started after their due time (p50, p99, max):
	// the client's scheduling delay, which intended latency includes.
	LatenessP50Micros float64 `json:"lateness_p50_us"`
	LatenessP99Micros float64 `json:"lateness_p99_us"`
	LatenessMaxMicros float64 `json:"lateness_max_us"`
	// GC is the load process's garbage collections and their stop-the-world pauses.
	GCs                uint32  `json:"gcs"`
	GCPauseTotalMicros float64 `json:"gc_pause_total_us"`
	GCPauseMaxMicros   float64 `json:"gc_pause_max_us"`
}

// OpStats summarises one operation type within a trial.
type OpStats struct {
	Count    int64            `json:"count"` // every operation, whatever its status
	Errors   int64            `json:"errors"`
	Statuses map[string]int64 `json:"statuses,omitempty"` // OK, NOT_FOUND, ERROR counts
	Intended Latency          `json:"intended"`           // successful (OK) operations only
	Service  Latency          `json:"service"`            // successful (OK) operations only
	// Below maps a metric (p50, p95, p99, p99.9) whose figure is zero to the
	// bound it lies under: imported YCSB output prints percentiles in whole
	// milliseconds, and 0 there means below 1 ms (1000), not "not reported".
	Below map[string]float64 `json:"below_us,omitempty"`
	// Failed holds the latencies of the operations that did not return OK
	// (YCSB's READ-FAILED); nil when every operation succeeded.
	Failed *FailedStats `json:"failed,omitempty"`
}

// FailedStats summarises the latencies of an operation's failures (NOT_FOUND and ERROR).
type FailedStats struct {
	Count    int64   `json:"count"`
	Intended Latency `json:"intended"`
	Service  Latency `json:"service"`
}

// Latency holds the summary figures of one latency histogram in microseconds.
// A zero value means the source did not report that figure.
type Latency struct {
	P50Micros  float64 `json:"p50_us,omitempty"`
	P95Micros  float64 `json:"p95_us,omitempty"`
	P99Micros  float64 `json:"p99_us,omitempty"`
	P999Micros float64 `json:"p999_us,omitempty"`
	MaxMicros  float64 `json:"max_us,omitempty"`
	MinMicros  float64 `json:"min_us,omitempty"`
	MeanMicros float64 `json:"mean_us,omitempty"`
}

// HoldThreshold is the fraction of its target rate a trial must achieve to
// have held it: the load generator's rule (loadgen.HoldThreshold), defined there once.
const HoldThreshold = loadgen.HoldThreshold

// HeldTarget reports whether the trial achieved at least HoldThreshold of its
// target rate; an unthrottled trial (no target) always holds it.
func (t *Trial) HeldTarget() bool {
	return t.TargetOpsPerSec <= 0 || t.AchievedOpsPerSec >= HoldThreshold*t.TargetOpsPerSec
}
