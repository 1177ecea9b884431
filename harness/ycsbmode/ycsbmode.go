// Package ycsbmode is regress's YCSB-compatible mode, `regress ycsb
// create-table|load|run`: YCSB's command-line flags and property names, run
// through the native client and the open-loop load generator, printing
// YCSB's text output (package ycsbfmt). Its errors say whether the input was
// bad (fault.UsageError) or the run failed (fault.RunError); the CLI maps them to exit codes.
package ycsbmode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/binding"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/loadspec"
	"github.com/regress-hbase/regress/harness/workload"
	"github.com/regress-hbase/regress/harness/ycsbfmt"
)

// usageErr is bad input: flags, properties, an unreachable cluster or a
// missing table (the CLI exits 2); runErr a phase that ran and failed (3).
func usageErr(err error) error { return &fault.UsageError{Err: err} }
func runErr(err error) error   { return &fault.RunError{Err: err} }

// FlagsHelp documents the YCSB-style flags ParseArgs takes for load and run,
// and the properties they read: the commands' help shows it.
const FlagsHelp = `Flags (YCSB's own syntax, single dash):
  --zk HOST:PORT   ZooKeeper of the cluster (the zookeeper= address 'regress cluster up' prints); required
  -P FILE          property file; repeatable, later files win (e.g. -P scenarios/workloadc)
  -p KEY=VALUE     property; repeatable, wins over every -P file
  -threads N       client threads (property threadcount, default 1)
  -target R        global target rate in ops/s (property target, default 0 = as fast as possible)
  -s               print a status line to stderr every status.interval seconds (default 10)
  -l LABEL         prefix for the status lines
  --load-hosts N   run only: run on N 'regress worker' load hosts registered in the
                   cluster's ZooKeeper and print their merged result as one client's
  --log-format F   log lines on stderr as text (default) or json, as every command
  -db CLASS        accepted for YCSB command lines that name an HBase binding; ignored
  -load / -t       accepted when they agree with the command (load / run)

Properties are YCSB's: table (default usertable), columnfamily (required, as in
YCSB's hbase2 binding), recordcount, operationcount, insertstart, insertcount,
fieldcount, fieldlength, readallfields, writeallfields, the *proportion mix,
requestdistribution, insertorder, zeropadding, threadcount, target,
maxexecutiontime (seconds), durability (USE_DEFAULT, SKIP_WAL, ASYNC_WAL,
SYNC_WAL, FSYNC_WAL), measurement.interval, hdrhistogram.percentiles
(default 50,95,99), hdrhistogram.fileoutput, hdrhistogram.output.path,
status.interval, exportfile, zookeeper.znode.parent (default /hbase). Beyond
YCSB: seed=N fixes the random draws (default: from the clock, logged).

Latencies: measurement.interval=op (the default, as in YCSB) reports service
time, from each operation's actual start. With -target, -p
measurement.interval=both adds [Intended-READ]-style blocks measured from each
operation's scheduled start: the coordinated-omission-corrected figures, which
include the time an operation waited because the client fell behind.
measurement.interval=intended reports only those, under the plain names.
The rate is paced open-loop over one global schedule; when the achieved rate
falls below 95% of the target a warning says so on stderr.`

// LogFormatArg is the value of the global --log-format among a ycsb
// command's args ("" when absent): those commands parse their own flags, so
// the CLI reads this one through here.
func LogFormatArg(args []string) string {
	for i, arg := range args {
		if v, ok := strings.CutPrefix(arg, "--log-format="); ok {
			return v
		}
		if arg == "--log-format" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// Main runs one ycsb command (Create, Load or Run) on its raw command line:
// YCSB's flags are parsed here, not by the CLI. It returns ErrHelp when the
// command's help was asked for.
func Main(ctx context.Context, stdout, stderr io.Writer, phase string, args []string) error {
	a, err := ParseArgs(phase, args)
	if err != nil {
		return err
	}
	if phase == Create {
		return CreateTable(ctx, stdout, a)
	}
	if LogFormatArg(args) == "json" {
		a.log = slog.New(slog.NewJSONHandler(stderr, nil))
		// YCSB's -s status lines become log records: one format on stderr.
		lw := &lineLog{log: a.log, phase: phase}
		defer lw.flush()
		stderr = lw
	} else {
		a.log = slog.New(slog.NewTextHandler(stderr, nil))
	}
	return RunPhase(ctx, stdout, stderr, phase, a)
}

// lineLog logs each line written to it as one record ("status", with the
// phase and YCSB's line as fields): stderr under --log-format json.
type lineLog struct {
	mu    sync.Mutex
	log   *slog.Logger
	phase string
	part  []byte
}

// Write logs every complete line of p, keeping a partial one for the next write.
func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.part = append(l.part, p...)
	for {
		i := bytes.IndexByte(l.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		if line := strings.TrimSpace(string(l.part[:i])); line != "" {
			l.log.Info("status", "phase", l.phase, "line", line)
		}
		l.part = l.part[i+1:]
	}
}

// flush logs a last line written without its newline.
func (l *lineLog) flush() {
	_, _ = l.Write([]byte("\n"))
}

// PhaseHelp is the create-table, load or run command's usage line, one-line and long help.
func PhaseHelp(phase string) (use, short, long string) {
	switch phase {
	case Create:
		return Create + " --zk HOST:PORT -p columnfamily=F [-p table=T] [-p regions=N] [-P FILE]...",
			"Create YCSB's table with one column family, pre-split into equal shares of the keys",
			"create-table creates the table YCSB's hbase2 binding expects (table, default usertable) with one " +
				"column family (columnfamily, required). With -p regions=N (N > 1) the table is pre-split at the N-1 " +
				"row keys that cut the recordcount rows the load phase writes into equal shares, so recordcount must " +
				"be set too (in a -P file or with -p); insertorder and zeropadding are honoured. -p compression=SNAPPY " +
				"(NONE, GZ, LZ4, ZSTD...) sets the family's compression. A table that exists already is an error."
	case Load:
		return phaseUse(phase), "YCSB's load phase: insert insertcount rows from insertstart with -threads workers",
			"load inserts the rows insertstart .. insertstart+insertcount-1 (insertcount defaults to " +
				"recordcount-insertstart), one INSERT with all fields per row, as YCSB's load phase does; -target " +
				"paces it. It fails (exit 3) when any insert failed, since the data set is then incomplete.\n\n" + FlagsHelp
	}
	return phaseUse(phase), "YCSB's run phase: operationcount operations of the workload's mix at -target ops/s",
		"run performs operationcount operations of the workload's mix (stopping earlier at " +
			"maxexecutiontime seconds when set), paced open-loop to -target ops/s over all threads. " +
			"Operation errors are counted in Return=ERROR lines and warned about, as YCSB does, without failing the run.\n\n" + FlagsHelp
}

// phaseUse is the load or run command's usage line.
func phaseUse(phase string) string {
	return phase + " --zk HOST:PORT -P FILE [-P FILE]... [-p KEY=VALUE]... [-threads N] [-target R] [-s]"
}

// ErrHelp is returned by ParseArgs for -h, -help and --help: print the command's help.
var ErrHelp = errors.New("help requested")

// The commands of the mode, named as YCSB's phases are.
const (
	Create = "create-table"
	Load   = "load"
	Run    = "run"
)

// Args is a parsed YCSB-style command line.
type Args struct {
	zk     string
	props  workload.Properties
	status bool
	label  string
	// loadHosts is the number of `regress worker` load hosts that run the
	// run phase together (0: this process runs it).
	loadHosts int
	// log is the command's log on its own stderr (nil: slog's default).
	log *slog.Logger
}

// logger is the command's log: its warnings reach its own stderr in its
// --log-format even while other commands run in the process (tests).
func (a *Args) logger() *slog.Logger {
	if a.log != nil {
		return a.log
	}
	return slog.Default()
}

// ParseArgs reads YCSB's flag syntax (-P, -p, -threads, -target, -s, -l,
// -db, -load, -t) plus --zk. As in YCSB, -p, -threads and -target win over
// every -P file whatever their order, and later files win over earlier ones.
func ParseArgs(phase string, args []string) (*Args, error) {
	a := &Args{}
	files, cmdline := workload.NewProperties(), workload.NewProperties()
	for i := 0; i < len(args); i++ {
		arg := args[i]
		value := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", arg)
			}
			i++
			return args[i], nil
		}
		var err error
		switch arg {
		case "-h", "-help", "--help":
			return nil, ErrHelp
		case "--zk", "-zk":
			if a.zk, err = value(); err == nil {
				_, err = hbase.ParseQuorum(a.zk)
			}
		case "-P":
			var path string
			if path, err = value(); err == nil {
				var p workload.Properties
				if p, err = workload.LoadPropertiesFile(path); err != nil {
					err = fmt.Errorf("-P %s: %w", path, err)
				} else {
					files.Merge(p)
				}
			}
		case "-p":
			var kv string
			if kv, err = value(); err == nil {
				err = cmdline.ParseOverride(kv)
			}
		case "-threads", "-target":
			var v string
			if v, err = value(); err == nil {
				key := map[string]string{"-threads": "threadcount", "-target": "target"}[arg]
				cmdline.Set(key, v, arg)
			}
		case "--load-hosts", "-load-hosts":
			var v string
			if v, err = value(); err == nil {
				if a.loadHosts, err = strconv.Atoi(v); err == nil && a.loadHosts < 1 {
					err = errors.New("must be at least 1")
				}
				if err != nil {
					err = fmt.Errorf("--load-hosts %s: %v: give the number of `regress worker` hosts", v, err)
				} else if phase != Run {
					err = fmt.Errorf("--load-hosts applies to `regress ycsb run` only")
				}
			}
		case "--log-format":
			_, err = value() // the CLI's global flag, applied through LogFormatArg before this runs
		case "-s":
			a.status = true
		case "-l":
			a.label, err = value()
		case "-db":
			var db string
			if db, err = value(); err == nil && !strings.Contains(strings.ToLower(db), "hbase") {
				err = fmt.Errorf("-db %s: only HBase is supported (this mode is YCSB's hbase2 binding); drop -db", db)
			}
		case "-load", "-t":
			if (arg == "-load") != (phase == Load) {
				err = fmt.Errorf("%s contradicts `regress ycsb %s`: drop it", arg, phase)
			}
		default:
			if v, ok := strings.CutPrefix(arg, "--zk="); ok {
				a.zk = v
				break
			}
			if strings.HasPrefix(arg, "--log-format=") {
				break
			}
			if strings.HasPrefix(arg, "-") {
				err = fmt.Errorf("unknown option %s", arg)
			} else {
				err = fmt.Errorf("unexpected argument %q: every value follows its flag (-P FILE, -p KEY=VALUE)", arg)
			}
		}
		if err != nil {
			return nil, usageErr(fmt.Errorf("ycsb %s: %w (see regress ycsb %s --help)", phase, err, phase))
		}
	}
	files.Merge(cmdline)
	a.props = files
	return a, nil
}

// connect opens the cluster named by --zk.
func (a *Args) connect(ctx context.Context, phase string, stderr io.Writer) (*hbase.Client, error) {
	if a.zk == "" {
		return nil, usageErr(fmt.Errorf("ycsb %s: --zk HOST:PORT is required (the zookeeper= address `regress cluster up` prints)", phase))
	}
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	say := func(msg string) { a.logger().Warn(msg, "phase", phase) }
	c, err := hbase.Connect(cctx, a.zk, hbase.WithZNodeParent(a.props.String("zookeeper.znode.parent", hbase.DefaultZNodeParent)), hbase.WithZKWait(hbase.ZKAnswerTimeout, say))
	if err != nil && ctx.Err() != nil {
		// A signal, not the address: an interrupted phase (exit 3).
		return nil, runErr(fmt.Errorf("ycsb %s: interrupted before HBase at ZooKeeper %s answered: %w", phase, a.zk, context.Cause(ctx)))
	}
	if err != nil {
		return nil, usageErr(fmt.Errorf("ycsb %s: cannot reach HBase through ZooKeeper %s (is it running, and is --zk the address `regress cluster up` printed?): %w", phase, a.zk, err))
	}
	return c, nil
}

// columnFamily returns the required columnfamily property.
func (a *Args) columnFamily(phase string) (string, error) {
	cf := strings.TrimSpace(a.props.String("columnfamily", ""))
	if cf == "" {
		return "", usageErr(fmt.Errorf("ycsb %s: columnfamily is not set: pass -p columnfamily=family (YCSB's hbase2 binding has no default either)", phase))
	}
	return cf, nil
}

// CreateTable is `regress ycsb create-table`: the table (-p table, default usertable) with its column
// family, pre-split into -p regions, as YCSB's HBase docs have users do in the shell.
func CreateTable(ctx context.Context, out io.Writer, a *Args) error {
	fail := func(err error) error { return usageErr(fmt.Errorf("ycsb %s: %w", Create, err)) }
	p := a.props
	table := strings.TrimSpace(p.String("table", "usertable"))
	if table == "" {
		return fail(errors.New("table is empty: pass -p table=NAME or leave it unset for usertable"))
	}
	cf, err := a.columnFamily(Create)
	if err != nil {
		return err
	}
	regions, err := p.Int("regions", 1, 1, 100000)
	if err != nil {
		return fail(err)
	}
	var splits [][]byte
	if regions > 1 {
		if _, ok := p.Get("recordcount"); !ok {
			return fail(fmt.Errorf("regions=%d needs recordcount to place the split keys: pass -p recordcount=N or the -P file of the load", regions))
		}
		records, err := p.Int("recordcount", 0, 1, 1<<62)
		if err != nil {
			return fail(err)
		}
		pad, err := p.Int("zeropadding", 1, 0, 40)
		if err != nil {
			return fail(err)
		}
		order, err := p.OneOf("insertorder", "hashed", "hashed", "ordered")
		if err != nil {
			return fail(err)
		}
		if splits, err = workload.SplitKeys(records, int(regions), int(pad), order == "ordered"); err != nil {
			return fail(err)
		}
	}
	c, err := a.connect(ctx, Create, os.Stderr)
	if err != nil {
		return err
	}
	defer c.Close()
	exists, err := c.TableExists(ctx, table)
	if err != nil {
		return runErr(fmt.Errorf("ycsb %s: check whether table %s exists: %w", Create, table, err))
	}
	if exists {
		return fail(fmt.Errorf("table %s exists already: drop it in the HBase shell (disable '%s'; drop '%s') or pass another -p table=", table, table, table))
	}
	spec := hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: cf, Compression: p.String("compression", "")}}, SplitKeys: splits}
	if err := c.CreateTable(ctx, spec); err != nil {
		return runErr(fmt.Errorf("ycsb %s: %w", Create, err))
	}
	regionsWord := "regions"
	if len(splits) == 0 {
		regionsWord = "region"
	}
	_, err = fmt.Fprintf(out, "created table %s, column family %s, %d %s\n", table, cf, len(splits)+1, regionsWord)
	return err
}

// settings is a load or run phase's settings, read from the properties.
type settings struct {
	name string
	// load is the phase's load: -threads, -target, maxexecutiontime, the
	// operations to do (MaxOps; 0 means until maxexecutiontime) and the
	// seed on top of the properties' workload, family and durability.
	load        loadspec.Spec
	interval    ycsbfmt.Interval
	percentiles []float64
	hdrPrefix   string // hdrhistogram.output.path when hdrhistogram.fileoutput=true
	hdrOut      bool
	statusEvery time.Duration
	exportFile  string
}

func readPhase(phase string, a *Args) (*settings, error) {
	p := a.props
	fail := func(err error) error { return usageErr(fmt.Errorf("ycsb %s: %w", phase, err)) }
	ph := &settings{name: phase}
	family, err := a.columnFamily(phase)
	if err != nil {
		return nil, err
	}
	if mt := p.String("measurementtype", "hdrhistogram"); mt != "hdrhistogram" {
		return nil, fail(fmt.Errorf("measurementtype=%s: only hdrhistogram is supported (YCSB's default)", mt))
	}
	if ex := p.String("exporter", ""); ex != "" && !strings.HasSuffix(ex, "TextMeasurementsExporter") {
		return nil, fail(fmt.Errorf("exporter=%s: only YCSB's text output is written; convert it with regress import-ycsb", ex))
	}
	var errs []error
	collect := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	threads, err := p.Int("threadcount", 1, 1, 1<<16)
	collect(err)
	target, err := p.Float64("target", 0)
	collect(err)
	if target < 0 {
		collect(fmt.Errorf("target=%v: must be 0 (as fast as possible) or a rate in ops/s", target))
	}
	secs, err := p.Int("maxexecutiontime", 0, 0, 1<<31)
	collect(err)
	maxTime := time.Duration(secs) * time.Second
	seed, err := p.Int64("seed", time.Now().UnixNano())
	collect(err)
	ph.interval, err = ycsbfmt.ParseInterval(p.String("measurement.interval", "op"))
	collect(err)
	ph.percentiles, err = ycsbfmt.ParsePercentiles(p.String("hdrhistogram.percentiles", ""))
	collect(err)
	ph.hdrOut, err = p.Bool("hdrhistogram.fileoutput", false)
	collect(err)
	ph.hdrPrefix = p.String("hdrhistogram.output.path", "")
	every, err := p.Int("status.interval", 10, 1, 86400)
	collect(err)
	ph.statusEvery = time.Duration(every) * time.Second
	ph.exportFile = p.String("exportfile", "")
	if ph.exportFile != "" {
		// Checked now, not when the run is over and its report would be lost.
		if st, err := os.Stat(ph.exportFile); err == nil && st.IsDir() {
			collect(fmt.Errorf("exportfile=%s is a directory: give the path of the file the report is written to", ph.exportFile))
		} else if st, err := os.Stat(filepath.Dir(ph.exportFile)); err != nil || !st.IsDir() {
			collect(fmt.Errorf("exportfile=%s: directory %s does not exist: create it, or give a path in an existing directory", ph.exportFile, filepath.Dir(ph.exportFile)))
		}
	}
	if zp := p.String("zookeeper.znode.parent", hbase.DefaultZNodeParent); !strings.HasPrefix(zp, "/") {
		collect(fmt.Errorf("zookeeper.znode.parent=%s: give the cluster's base znode, an absolute path such as /hbase (the default)", zp))
	}
	ph.load, err = loadspec.FromProperties(p)
	collect(err)
	if len(errs) > 0 {
		return nil, fail(errors.Join(errs...))
	}
	if ph.hdrOut {
		if dir := filepath.Dir(ph.hdrPrefix + "X.hdr"); dir != "." {
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return nil, fail(fmt.Errorf("hdrhistogram.output.path=%s: directory %s does not exist (the path is a prefix: end a directory with /)", ph.hdrPrefix, dir))
			}
		}
	}
	var ops int64
	if phase == Load {
		ops = ph.load.Workload.InsertCount
		if ops == 0 {
			return nil, fail(errors.New("insertcount=0: there is nothing to load (set recordcount, or insertcount)"))
		}
		ph.load.Insert = &loadgen.Inserts{Batch: 1}
	} else {
		ops = ph.load.Workload.OperationCount
		if ops == 0 && maxTime == 0 {
			return nil, fail(errors.New("operationcount=0 and no maxexecutiontime: the run would never end; set one of them"))
		}
	}
	if ops > 0 && threads > ops {
		threads = ops // as YCSB: no thread without an operation
	}
	ph.load.Name, ph.load.Family, ph.load.Seed = "ycsb "+phase, family, seed
	ph.load.Schedule = loadgen.Schedule{TargetRate: target, Workers: int(threads), Duration: maxTime, MaxOps: ops}
	return ph, nil
}

// statusSlack lets a progress tick that lands a little before a status
// deadline print that status line, instead of a whole tick late.
const statusSlack = 100 * time.Millisecond

// RunPhase is `regress ycsb load` or `run` (phase): YCSB's properties read, the table checked,
// the operations run through the native client and reported in YCSB's output format.
func RunPhase(ctx context.Context, stdout, stderr io.Writer, phase string, a *Args) error {
	ph, err := readPhase(phase, a)
	if err != nil {
		return err
	}
	table, ld := ph.load.Workload.Table, &ph.load
	c, err := a.connect(ctx, phase, stderr)
	if err != nil {
		return err
	}
	defer c.Close()
	exists, err := c.TableExists(ctx, table)
	if err != nil {
		return runErr(fmt.Errorf("ycsb %s: check whether table %s exists: %w", phase, table, err))
	}
	if !exists {
		return usageErr(fmt.Errorf("ycsb %s: table %s does not exist: create it first with `regress ycsb create-table --zk %s -p table=%s -p columnfamily=%s`", phase, table, a.zk, table, ld.Family))
	}
	if a.loadHosts > 0 {
		return runOnLoadHosts(ctx, stdout, stderr, a, ph)
	}
	cfg, err := binding.NewRun(c, ph.load, workload.Share{}, slog.Default())
	if err != nil {
		return usageErr(fmt.Errorf("ycsb %s: %w", phase, err))
	}
	slog.Info("ycsb "+phase, "table", table, "columnfamily", ld.Family, "threads", ld.Workers, "target", ld.TargetRate, "operations", ld.MaxOps, "maxexecutiontime", ld.Duration, "seed", ld.Seed)

	// The interval log is only read when status lines or .hdr files need it.
	start := time.Now()
	var (
		status   *ycsbfmt.Status
		files    *ycsbfmt.HdrFiles
		splitter *ycsbfmt.Splitter
		sideErr  error // status or .hdr trouble: reported, never aborting the run
	)
	if a.status {
		status = ycsbfmt.NewStatus(stderr, a.label, start, ld.MaxOps)
	}
	if ph.hdrOut {
		files = ycsbfmt.NewHdrFiles(ph.hdrPrefix, start)
	}
	if status != nil || files != nil {
		splitter = ycsbfmt.NewSplitter(ph.interval, func(name string, h *hdr.Histogram) error {
			if status != nil {
				status.Add(name, h)
			}
			if files != nil {
				return files.Write(name, h)
			}
			return nil
		})
		cfg.Hlog = splitter
	}
	// Status lines are due every status.interval from the start, as YCSB's
	// deadlines are; a tick landing just short of a deadline counts for it.
	nextStatus := start.Add(ph.statusEvery)
	printedOps := int64(-1)
	flush := func() {
		if splitter != nil && sideErr == nil {
			sideErr = splitter.Flush()
		}
	}
	cfg.Progress = func(pr loadgen.Progress) {
		flush()
		if now := start.Add(pr.Elapsed); status != nil && !now.Before(nextStatus.Add(-statusSlack)) {
			status.Print(now, pr.Ops)
			printedOps = pr.Ops
			for !now.Before(nextStatus.Add(-statusSlack)) {
				nextStatus = nextStatus.Add(ph.statusEvery)
			}
		}
	}
	if status != nil {
		status.Print(start, 0)
	}
	res, runErrV := loadgen.Run(ctx, cfg)
	if res == nil {
		return runErr(fmt.Errorf("ycsb %s: %w", phase, runErrV))
	}
	flush()
	// The closing line, as YCSB prints one when its clients finish, unless
	// the last tick's line already showed every operation.
	if status != nil && printedOps != res.Ops {
		status.Print(time.Now(), res.Ops)
	}
	if status != nil {
		sideErr = errors.Join(sideErr, status.Err())
	}
	if files != nil {
		sideErr = errors.Join(sideErr, files.Close())
		slog.Info("wrote HdrHistogram interval logs", "files", files.Paths())
	}

	if err := writeReport(stdout, ph, res); err != nil {
		return runErr(fmt.Errorf("ycsb %s: %w", phase, err))
	}

	if ld.TargetRate > 0 && !res.HeldTarget() {
		a.logger().Warn(res.RateMessage(), "phase", phase)
	}
	var failed int64
	for _, o := range res.PerOp {
		if o != nil && o.Op != workload.ReadModifyWrite { // its READ and UPDATE are counted already
			failed += o.Status(workload.Error)
		}
	}
	if failed > 0 && runErrV == nil { // a canceled run fails its operations in flight: not worth a warning
		a.logger().Warn("operations failed (Return=ERROR); the first failure of each kind is logged above", "phase", phase, "failed", failed)
	}
	switch {
	case runErrV != nil:
		return runErr(fmt.Errorf("ycsb %s: %w (the figures above cover the operations done)", phase, runErrV))
	case sideErr != nil:
		return runErr(fmt.Errorf("ycsb %s: %w", phase, sideErr))
	case phase == Load && failed > 0:
		return runErr(fmt.Errorf("ycsb load: %d of %d rows were not written: the table is incomplete", failed, ld.MaxOps))
	}
	return nil
}

// writeReport prints the final block to stdout, or to the exportfile
// property's file as YCSB does.
func writeReport(stdout io.Writer, ph *settings, res *loadgen.Result) error {
	rep := ycsbfmt.FromResult(res, ph.interval)
	if ph.exportFile == "" {
		return rep.WriteText(stdout, ph.percentiles)
	}
	// Written whole or not at all: a run stopped midway leaves an earlier
	// export as it was.
	err := atomicfile.Write(ph.exportFile, 0o644, func(w io.Writer) error {
		return rep.WriteText(w, ph.percentiles)
	})
	if err != nil {
		return fmt.Errorf("exportfile=%s: %w", ph.exportFile, err)
	}
	return nil
}

// runOnLoadHosts runs the run phase on a.loadHosts `regress worker` hosts
// registered in the cluster's ZooKeeper, and prints their merged result as
// one YCSB client's. Status lines and .hdr files are not streamed from the
// hosts: -s prints the start and the end only.
func runOnLoadHosts(ctx context.Context, stdout, stderr io.Writer, a *Args, ph *settings) error {
	co, err := loadhosts.Connect(ctx, a.zk, "", slog.Default())
	if err != nil {
		return runErr(fmt.Errorf("ycsb run: %w", err))
	}
	defer co.Close()
	if _, err := co.WaitHosts(ctx, a.loadHosts, 0); err != nil {
		return runErr(fmt.Errorf("ycsb run: %w", err))
	}
	ld := &ph.load
	task := loadhosts.Task{
		Trial: fmt.Sprintf("ycsb-%s-%d", ld.Workload.Table, time.Now().UnixNano()), ZK: a.zk,
		ZNode: a.props.String("zookeeper.znode.parent", hbase.DefaultZNodeParent), Spec: *ld,
	}
	var status *ycsbfmt.Status
	start := time.Now()
	if a.status {
		status = ycsbfmt.NewStatus(stderr, a.label, start, ld.MaxOps)
		status.Print(start, 0)
	}
	slog.Info("ycsb run on load hosts", "hosts", a.loadHosts, "table", ld.Workload.Table, "threads per host", loadhosts.PerHost(ld.Workers, a.loadHosts), "target", ld.TargetRate, "operations", ld.MaxOps)
	tr, err := co.Run(ctx, task)
	if err != nil {
		return runErr(fmt.Errorf("ycsb run: %w", err))
	}
	if status != nil {
		status.Print(time.Now(), tr.Merged.Ops)
	}
	for _, h := range tr.Hosts {
		slog.Info("load host", "host", h.Host.Name(), "share", h.Share, "ops", h.Result.Ops, "rate", h.Result.RateMessage(), "cpu per op", h.Result.CPUPerOp())
	}
	if err := writeReport(stdout, ph, tr.Merged); err != nil {
		return runErr(fmt.Errorf("ycsb run: %w", err))
	}
	if ld.TargetRate > 0 && !tr.Merged.HeldTarget() {
		a.logger().Warn(tr.Merged.RateMessage(), "phase", Run)
	}
	return nil
}
