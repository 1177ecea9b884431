package cluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/regress-hbase/regress/harness/servercost"
	"github.com/regress-hbase/regress/harness/version"
)

// Defaults of the local provider.
const (
	// DefaultStartTimeout bounds the wait for readiness after the JVM starts.
	DefaultStartTimeout = 3 * time.Minute
	// DefaultStopGrace is how long Stop waits after SIGTERM before SIGKILL.
	DefaultStopGrace = 30 * time.Second
	// InterruptGrace is the SIGTERM-to-SIGKILL wait when the context a
	// cluster was started with ends (a signal, or another JVM of it died):
	// the trials are stored and the cluster's data is thrown away, so a
	// graceful HBase shutdown buys nothing and a user would wait for it.
	InterruptGrace = time.Second
	// logTailLines is how much of the HBase log a start-up error shows.
	logTailLines = 30
)

// Local starts standalone HBase (master, region server and ZooKeeper in one
// JVM) from release jars that Maven resolves into a per-version cache.
type Local struct {
	// CacheDir is the artifact cache root; empty means DefaultCacheDir().
	CacheDir string
	// Ready are the readiness checks, polled in order; nil means DefaultReadyChecks().
	Ready []ReadyCheck
	// StopGrace is the SIGTERM-to-SIGKILL wait; 0 means DefaultStopGrace.
	StopGrace time.Duration
	// Logger receives progress messages; nil means slog.Default().
	Logger *slog.Logger
}

// NewLocal returns a local provider caching jars under cacheDir ("" for the default).
func NewLocal(cacheDir string) *Local { return &Local{CacheDir: cacheDir} }

// Name identifies the provider.
func (l *Local) Name() string { return "local" }

func (l *Local) logger() *slog.Logger {
	if l.Logger != nil {
		return l.Logger
	}
	return slog.Default()
}

// cacheFor returns the artifact cache a spec uses.
func (l *Local) cacheFor(s Spec) (*artifactCache, error) {
	root := s.CacheDir
	if root == "" {
		root = l.CacheDir
	}
	if root == "" {
		d, err := DefaultCacheDir()
		if err != nil {
			return nil, err
		}
		root = d
	}
	return &artifactCache{root: root, log: l.logger()}, nil
}

// Resolve makes sure the jars of s's version are in the cache (running
// Maven only when they are not; s.Repo first when set, s.Plain honoured) and
// returns the artifact version Start would run, e.g. 2.6.1-hadoop3. It
// starts no JVM: a run resolves both sides first to give them one flavour.
func (l *Local) Resolve(ctx context.Context, s Spec) (string, error) {
	if err := version.Validate(s.Version); err != nil {
		return "", err
	}
	c, err := l.cacheFor(s)
	if err != nil {
		return "", err
	}
	e, err := c.resolveEntry(ctx, s.Version, s.Repo, s.Plain, l.maven)
	return e.version, err
}

// Versions lists versions in the cache and, when Maven reaches its
// repositories, those published for org.apache.hbase:hbase-server. The error
// reports a failed Maven lookup; the cached versions are returned regardless.
func (l *Local) Versions(ctx context.Context, cacheDir string) (cached, published []string, err error) {
	c, err := l.cacheFor(Spec{CacheDir: cacheDir})
	if err != nil {
		return nil, nil, err
	}
	cached = c.cached()
	m, err := l.maven()
	if err != nil {
		return cached, nil, err
	}
	published, err = m.publishedVersions(ctx)
	return cached, published, err
}

func (l *Local) maven() (*maven, error) {
	p, err := findMaven()
	if err != nil {
		return nil, err
	}
	return &maven{path: p, log: l.logger()}, nil
}

// Start resolves the version's jars (from the cache when present; from
// s.Repo first when set), picks a JDK that runs the version, writes the
// configuration into a work dir, starts HMaster in standalone mode and returns
// once every readiness check passes. The cluster runs until Stop or until ctx
// is done, whichever comes first (like exec.CommandContext: when ctx ends the
// JVMs get SIGTERM and, InterruptGrace later, SIGKILL); on a failed or
// cancelled start no process is left behind.
func (l *Local) Start(ctx context.Context, s Spec) (Cluster, error) {
	if err := version.Validate(s.Version); err != nil {
		return nil, err
	}
	if err := checkConf(s.Conf); err != nil {
		return nil, err
	}
	if err := checkTopology(s); err != nil {
		return nil, err
	}
	jdk, err := FindJDK(ctx, s.Version, s.JavaHome, l.logger())
	if err != nil {
		return nil, err
	}
	cache, err := l.cacheFor(s)
	if err != nil {
		return nil, err
	}
	entry, err := cache.resolveEntry(ctx, s.Version, s.Repo, s.Plain, l.maven)
	if err != nil {
		return nil, err
	}
	return l.launch(ctx, s, launch{version: entry.version, jdk: jdk, jars: entry.jars,
		info: Info{Provider: "local", Repository: s.Repo, Checksums: entry.checksums}})
}

// launch is a standalone start once the jars are known.
type launch struct {
	version string
	jdk     JDK
	// agent holds the JVM options that load regress's agent into region
	// servers (servercost.AgentOptions); empty when it could not be built.
	agent []string
	// jars follow the generated conf dir on the classpath, in order.
	jars []string
	// stubWebapps puts an empty web app (webappsStubJar) on the class
	// path, for jars whose hbase-server jar carries none.
	stubWebapps bool
	// versionLauncher starts the servers through regress's launcher
	// (classLegacyJavaVersion, on the class path): 0.98 on JDK 9+.
	versionLauncher bool
	info            Info
}

// extraJars checks a Spec's ExtraJars and makes them absolute: the JVMs
// run in their own work dir, where a path relative to ours names nothing,
// and every region server would abort on a coprocessor class it cannot
// find (a relative --candidate-jar did, after a 3-minute start timeout).
func extraJars(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, j := range paths {
		if fi, err := os.Stat(j); err != nil || fi.IsDir() {
			return nil, fmt.Errorf("extra jar %s: not a readable file; give the path of a built .jar", j)
		}
		abs, err := filepath.Abs(j)
		if err != nil {
			return nil, fmt.Errorf("extra jar %s: %w", j, err)
		}
		out = append(out, abs)
	}
	return out, nil
}

// launch starts HMaster from ln's jars and waits until it is ready.
func (l *Local) launch(ctx context.Context, s Spec, ln launch) (Cluster, error) {
	extra, err := extraJars(s.ExtraJars)
	if err != nil {
		return nil, err
	}
	ln.jars = append(slices.Clone(ln.jars), extra...)
	ln.info.Hadoop = HadoopStack(ln.jars)
	log := l.logger().With("version", ln.version)
	if s.Name != "" {
		log = log.With("side", s.Name)
	}
	if needsVersionLauncher(ln.version, ln.jdk.Major) {
		dir, err := versionLauncher(ctx, "", ln.jdk.Home)
		if err != nil {
			return nil, err
		}
		log.Info("HBase 0.98 refuses a java.version such as 11.0.13 (its ClassSize wants 1.x.y): its servers start through regress's launcher, which sets java.version to 1.8.0 (the JVM's own in regress.java.version)", "jdk", ln.jdk.Version)
		ln.jars = append(ln.jars, dir)
		ln.versionLauncher = true
	}
	if s.InfoServer && !servesWebapps(ln.jars) {
		// Some hbase-server jars on Maven Central lack the web resources
		// (2.6.3's, 2.5.11-hadoop3's), and the region server then fails to
		// start its info server at all. Without one it ran without the
		// agent and /prometheus: its alloc_per_op was the whole JVM's, so a
		// run against a build that has them compared nothing (issue 43).
		// The info server needs only the directory; /jmx and /prometheus
		// are servlets of its own, so an empty web app serves them.
		log.Info("the hbase-server jar carries no web resources (hbase-webapps/regionserver): the region server's info server runs on an empty web app regress adds to its class path (its /jmx and /prometheus work; its status pages do not)")
		ln.stubWebapps = true
	}
	if s.InfoServer {
		// The agent's bean is read through the info server's /jmx.
		if jar, err := servercost.AgentJar(ctx, "", ln.jdk.Home); err != nil {
			log.Warn("region servers start without regress's agent: alloc_per_op is the whole JVM's, from its GC log", "err", err)
		} else {
			ln.agent = servercost.AgentOptions(jar)
		}
	}
	if opts := jdkOpts(s, ln.jdk.Major); len(opts) > 0 {
		log.Info("the suite's JVM options for this JDK, on every HBase JVM", "jdk", ln.jdk.Major, "options", strings.Join(opts, " "))
		s.JVMOpts = append(slices.Clone(opts), s.JVMOpts...)
		ln.info.JDKOpts = opts
	}
	for attempt := 1; ; attempt++ {
		c, err := l.launchOnce(ctx, s, ln, log, attempt < portAttempts && retriesPorts(s))
		var se *StartError
		if err == nil || !errors.As(err, &se) || !se.PortTaken || attempt == portAttempts || !retriesPorts(s) || ctx.Err() != nil {
			return c, err
		}
		log.Info("a port chosen for HBase was taken before it bound it; starting again on fresh ports", "attempt", attempt+1, "of", portAttempts)
	}
}

// portAttempts is how many times a start whose chosen port was taken
// meanwhile is tried: another process (a second cluster starting beside
// it, a client's outgoing connection) can bind a port in the moment
// between our choosing it and HBase binding it.
const portAttempts = 3

// retriesPorts says whether a start that lost a port may be tried again:
// only when regress chose every port (a port the user set stays theirs,
// and its clash is theirs to fix) and no kept work dir would be reused.
func retriesPorts(s Spec) bool {
	for _, k := range portKeys {
		if v, ok := s.Conf[k]; ok {
			if p, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && p > 0 {
				return false
			}
		}
	}
	return !(s.Keep && s.WorkDir != "")
}

// launchOnce is one start attempt. When retry is set and the start fails on
// a taken port, its work dir goes entirely (the next attempt writes its own).
func (l *Local) launchOnce(ctx context.Context, s Spec, ln launch, log *slog.Logger, retry bool) (Cluster, error) {
	resolved := ln.version
	wd, cleanup, err := prepareWorkDir(s.WorkDir, resolved)
	if err != nil {
		return nil, err
	}
	if ln.stubWebapps {
		stub := filepath.Join(wd, "conf", webappsStubJar)
		if err := writeWebappsStub(stub); err != nil {
			cleanup()
			return nil, err
		}
		ln.jars = append(slices.Clone(ln.jars), stub)
	}
	c := &localCluster{
		version:   resolved,
		side:      s.Name,
		info:      ln.info,
		workDir:   wd,
		keep:      s.Keep,
		cleanup:   cleanup,
		done:      make(chan struct{}),
		firstExit: make(chan struct{}),
		hurried:   make(chan struct{}),
		grace:     l.StopGrace,
		log:       log,
		startedAt: time.Now(),
	}
	if c.grace == 0 {
		c.grace = DefaultStopGrace
	}
	timeout := s.StartTimeout
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}
	checks := l.Ready
	if checks == nil {
		checks = DefaultReadyChecks()
	}
	var err2 error
	if s.RegionServers > 1 {
		checks = append(slices.Clone(checks), RegionServersReady(s.RegionServers))
		err2 = c.startDistributed(ctx, s, ln, timeout)
	} else {
		err2 = c.startStandalone(s, ln)
	}
	c.seal()
	if err2 == nil {
		err2 = c.waitReady(ctx, timeout, checks)
	}
	if err2 == nil && s.RegionServers <= 1 && c.infoAddr != "" && randomInfoPort(ln.version) {
		c.findInfoPort(log)
	}
	if err := err2; err != nil {
		if len(c.procs()) == 0 {
			cleanup() // nothing ran: nothing to debug
			return nil, err
		}
		c.stopping.Store(true)
		if kerr := c.kill(); kerr != nil {
			err = errors.Join(err, kerr)
		}
		var se *StartError
		switch {
		case retry && errors.As(err, &se) && se.PortTaken:
			// Tried again at once: this attempt's dir is no evidence.
			cleanup()
		case s.Keep:
		case ctx.Err() != nil:
			// Interrupted, not failed: nothing to debug.
			cleanup()
		default:
			// Keep the log (and config) the error names; drop the data.
			c.dropData()
			log.Info("HBase start failed; its log and config are kept", "workdir", wd)
		}
		return nil, err
	}
	c.ready.Store(true)
	log.Info("HBase ready", "zookeeper", c.zkAddr, "region_servers", c.RegionServers(), "took", time.Since(c.startedAt).Round(time.Millisecond))
	go func() {
		select {
		case <-ctx.Done():
			log.Info("context done; stopping HBase at once", "cause", context.Cause(ctx), "grace", InterruptGrace)
			c.hurry()
			_ = c.Stop(context.Background())
		case <-c.done:
		}
	}()
	return c, nil
}

// prepareWorkDir creates the cluster's work dir and returns a cleanup that
// removes what this cluster created: the whole dir when it made it, only its
// own subdirectories when the user named an existing one.
func prepareWorkDir(dir, version string) (string, func(), error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "regress-hbase-"+version+"-")
		if err != nil {
			return "", nil, fmt.Errorf("creating a work dir for HBase %s: %w", version, err)
		}
		return d, func() { os.RemoveAll(d) }, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, fmt.Errorf("work dir %s: %w", dir, err)
	}
	if _, err := os.Stat(abs); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return "", nil, fmt.Errorf("creating work dir %s: %w", abs, err)
		}
		return abs, func() { os.RemoveAll(abs) }, nil
	} else if err != nil {
		return "", nil, fmt.Errorf("work dir %s: %w", abs, err)
	}
	return abs, func() {
		for _, sub := range []string{"conf", "logs", "hbase", "zk", "tmp"} {
			os.RemoveAll(filepath.Join(abs, sub))
		}
	}, nil
}

// jvm is one JVM of a cluster: the standalone HBase, or in a
// pseudo-distributed cluster its ZooKeeper, master or one region server.
type jvm struct {
	// role is "" for the standalone JVM, else "zookeeper", "master" or "region server N".
	role    string
	cmd     *exec.Cmd
	pgid    int
	logPath string
	// gcLog is the JVM's GC log (servercost reads it), "" when it has none.
	gcLog string
	// agent is the info server answering regress's agent bean, "" when none.
	agent   string
	logFile *os.File
	done    chan struct{}
	waitErr error
}

// what names the JVM in messages: "JVM" or "region server 2 JVM".
func (j *jvm) what() string {
	if j.role == "" {
		return "JVM"
	}
	return j.role + " JVM"
}

// Process is one running JVM of a cluster, for callers that measure it.
type Process struct {
	// Role is "hbase" (standalone), "zookeeper", "master" or "region server N".
	Role    string
	PID     int
	LogPath string
	// GCLog is the JVM's unified GC log, for the bytes it allocates; "" when none.
	GCLog string
	// Agent is the host:port of the JVM's info server when the JVM runs
	// regress's agent (servercost.AgentBean), for its request threads'
	// allocation; "" when it does not.
	Agent string
}

// Processes is implemented by clusters that can list their JVMs.
type Processes interface {
	// Processes lists the cluster's JVMs in start order.
	Processes() []Process
}

// localCluster is the JVMs of one local HBase: a single standalone JVM, or a
// ZooKeeper, a master and N region servers. All of them live and die together:
// one dying unasked kills the rest, and done closes once none is left.
type localCluster struct {
	version, side, zkAddr, parent, logPath, workDir string
	info                                            Info
	infoAddr                                        string // a region server's info server (/jmx)
	regionServers                                   int
	ready, stopping                                 atomic.Bool
	died                                            atomic.Pointer[DiedError]
	keep                                            bool
	cleanup                                         func()
	mu                                              sync.Mutex
	jvms                                            []*jvm // in start order
	main                                            *jvm   // the standalone JVM or the master
	wg                                              sync.WaitGroup
	sealOnce                                        sync.Once
	done                                            chan struct{} // closed once every JVM has exited
	firstExit                                       chan struct{} // closed once any JVM has exited
	firstOnce                                       sync.Once
	first                                           atomic.Pointer[jvm]
	grace                                           time.Duration
	log                                             *slog.Logger
	startedAt                                       time.Time
	stopOnce                                        sync.Once
	stopErr                                         error
	// hurried closes InterruptGrace after the start context ended: a
	// graceful stop in progress (or one to come) SIGKILLs then.
	hurried   chan struct{}
	hurryOnce sync.Once
}

// hurry cuts any graceful stop, running or to come, to InterruptGrace from now.
func (c *localCluster) hurry() {
	c.hurryOnce.Do(func() { time.AfterFunc(InterruptGrace, func() { close(c.hurried) }) })
}

func (c *localCluster) ZKAddr() string      { return c.zkAddr }
func (c *localCluster) Version() string     { return c.version }
func (c *localCluster) LogPath() string     { return c.logPath }
func (c *localCluster) ZNodeParent() string { return c.parent }

// InfoAddr is the (first) region server's info server as host:port (its /jmx
// holds HBase's metrics), or "" when the info server is disabled.
func (c *localCluster) InfoAddr() string { return c.infoAddr }

// RegionServers is how many region servers the cluster was started with.
func (c *localCluster) RegionServers() int { return max(c.regionServers, 1) }

func infoAddr(port string) string {
	if n, err := strconv.Atoi(port); err != nil || n <= 0 {
		return ""
	}
	return "127.0.0.1:" + port
}

// Info says how the cluster was made.
func (c *localCluster) Info() Info { return c.info }

// Exited is closed once every JVM is gone, stopped or not.
func (c *localCluster) Exited() <-chan struct{} { return c.done }

// Died returns how the first JVM to die unasked died, else nil.
func (c *localCluster) Died() *DiedError { return c.died.Load() }

// Processes lists the cluster's JVMs in start order.
func (c *localCluster) Processes() []Process {
	var out []Process
	for _, j := range c.procs() {
		role := j.role
		if role == "" {
			role = "hbase"
		}
		out = append(out, Process{Role: role, PID: j.pgid, LogPath: j.logPath, GCLog: j.gcLog, Agent: j.agent})
	}
	return out
}

func (c *localCluster) procs() []*jvm {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.jvms)
}

// startJVM starts java with args in the work dir, its stdout and stderr
// appended to logPath (log4j2 appends there too, so errors printed before
// logging starts, such as bad JVM flags or a port clash, are in the same
// file), in its own process group, and watches it.
func (c *localCluster) startJVM(java string, args []string, role, logPath, gcLog string) (*jvm, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening HBase log %s: %w", logPath, err)
	}
	cmd := exec.Command(java, args...)
	cmd.Dir = c.workDir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		what := "HBase " + c.version
		if role != "" {
			what += " " + role
		}
		return nil, fmt.Errorf("starting %s for %s: %w", java, what, err)
	}
	// Setpgid makes the JVM its group's leader.
	j := &jvm{role: role, cmd: cmd, pgid: cmd.Process.Pid, logPath: logPath, gcLog: gcLog, logFile: logFile, done: make(chan struct{})}
	c.mu.Lock()
	c.jvms = append(c.jvms, j)
	c.mu.Unlock()
	c.wg.Add(1)
	go c.watch(j)
	if role != "" {
		c.log.Info("HBase JVM started", "role", role, "pid", j.pgid, "log", logPath)
	}
	return j, nil
}

// seal says no more JVMs will start: done closes once those started exited.
func (c *localCluster) seal() {
	c.sealOnce.Do(func() {
		go func() {
			c.wg.Wait()
			close(c.done)
		}()
	})
}

// watch reaps a JVM and, when it exits on its own after start-up, records
// and logs the death with its role, exit code or signal and log tail, and
// kills the cluster's other JVMs: a cluster missing a server measures nothing
// comparable, and no JVM may outlive the cluster.
func (c *localCluster) watch(j *jvm) {
	defer c.wg.Done()
	j.waitErr = j.cmd.Wait()
	j.logFile.Close()
	c.firstOnce.Do(func() {
		c.first.Store(j)
		close(c.firstExit)
	})
	if c.ready.Load() && !c.stopping.Load() {
		d := &DiedError{Side: c.side, Version: c.version, Role: j.role, PID: j.pgid, LogPath: j.logPath, Exit: exitDescription(j.cmd.ProcessState, j.waitErr)}
		d.Tail = tailFile(j.logPath, logTailLines)
		if c.died.CompareAndSwap(nil, d) {
			c.log.Error("HBase JVM died", "role", j.what(), "pid", j.pgid, "exit", d.Exit, "log", j.logPath, "ran", time.Since(c.startedAt).Round(time.Second))
			for _, o := range c.procs() {
				if o != j {
					_ = syscall.Kill(-o.pgid, syscall.SIGKILL)
				}
			}
		}
	}
	close(j.done)
}

// WorkDir is the cluster's working directory (config, data, logs).
func (c *localCluster) WorkDir() string { return c.workDir }

// PGID is the process group of the standalone JVM or the master.
func (c *localCluster) PGID() int { return c.main.pgid }

// PGIDs are the process groups of all the cluster's JVMs.
func (c *localCluster) PGIDs() []int {
	var out []int
	for _, j := range c.procs() {
		out = append(out, j.pgid)
	}
	return out
}

// waitReady polls the checks until all pass, a JVM exits, ctx is done or
// the timeout expires.
func (c *localCluster) waitReady(ctx context.Context, timeout time.Duration, checks []ReadyCheck) error {
	return c.pollStart(ctx, timeout, 500*time.Millisecond, 10*time.Second,
		func(ctx context.Context) error {
			for _, check := range checks {
				if err := check(ctx, c); err != nil {
					return err
				}
			}
			return nil
		},
		func(err error) error {
			return fmt.Errorf("starting HBase %s (log %s): %w", c.version, c.logPath, err)
		},
		func(last error) error {
			return c.startError(fmt.Sprintf("not ready after %s (last check: %v); raise the start timeout if the machine is slow", timeout, last), c.logPath)
		})
}

// pollStart runs check every interval (each call bounded by callTimeout)
// until it passes, a JVM exits (its StartError), ctx ends (canceled wraps
// ctx's error) or timeout, counted from the first JVM's start, passes
// (late gets the last check's error).
func (c *localCluster) pollStart(ctx context.Context, timeout, interval, callTimeout time.Duration,
	check func(context.Context) error, canceled func(error) error, late func(last error) error) error {
	deadline := time.NewTimer(max(time.Until(c.startedAt.Add(timeout)), time.Millisecond))
	defer deadline.Stop()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var last error
	abort := abortWatch{path: c.logPath}
	for {
		select {
		case <-c.firstExit:
			return c.exitedError()
		case <-ctx.Done():
			return canceled(ctx.Err())
		case <-deadline.C:
			return late(last)
		case <-tick.C:
		}
		if line := abort.check(); line != "" {
			return c.startError("a region server aborted while starting: "+line, c.logPath)
		}
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		last = check(cctx)
		cancel()
		if last == nil {
			return nil
		}
	}
}

// abortMarker is how HBase logs a region server aborting ("***** ABORTING
// region server host,port,code: why *****"). In a standalone JVM the master
// stays up after it, so nothing exits: without reading the log the start
// would wait out its whole timeout (3 minutes for a coprocessor class the
// server could not find).
const abortMarker = "***** ABORTING region server"

// abortWatch reads a log as it grows for abortMarker.
type abortWatch struct {
	path   string
	offset int64
	carry  []byte // the end of the last read, in case the marker spans reads
}

// check returns the log line holding abortMarker once it is written, else "".
func (a *abortWatch) check() string {
	f, err := os.Open(a.path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if _, err := f.Seek(a.offset, io.SeekStart); err != nil {
		return ""
	}
	b, err := io.ReadAll(io.LimitReader(f, 8<<20))
	if err != nil || len(b) == 0 {
		return ""
	}
	a.offset += int64(len(b))
	buf := append(a.carry, b...)
	if i := bytes.Index(buf, []byte(abortMarker)); i >= 0 {
		start := bytes.LastIndexByte(buf[:i], '\n') + 1
		end := bytes.IndexByte(buf[i:], '\n')
		if end < 0 {
			end = len(buf) - i
		}
		return strings.TrimSpace(string(buf[start : i+end]))
	}
	// Keep the last line (at most 4 KiB) for the next read.
	keep := buf[bytes.LastIndexByte(buf, '\n')+1:]
	a.carry = append([]byte(nil), keep[max(0, len(keep)-4096):]...)
	return ""
}

// exitedError is the StartError for the first JVM that exited during start-up, with its log.
func (c *localCluster) exitedError() error {
	j := c.first.Load()
	<-j.done
	return c.startError(fmt.Sprintf("the %s exited before becoming ready (%v)", j.what(), j.waitErr), j.logPath)
}

// startError builds a StartError with the tail of logPath, pointing at a
// port clash when the log shows one.
func (c *localCluster) startError(reason, logPath string) error {
	tail := tailFile(logPath, logTailLines)
	taken := false
	for _, l := range tail {
		if strings.Contains(l, "Address already in use") || strings.Contains(l, "Could not start ZK at requested port") {
			reason += "; a port it was given is taken (" + ErrPortInUse.Error() + "): retry, or set the port with --conf"
			taken = true
			break
		}
	}
	return &StartError{Version: c.version, LogPath: logPath, Tail: tail, Reason: reason, PortTaken: taken}
}

// Stop sends SIGTERM to the JVMs' process groups (the HBase servers first,
// ZooKeeper once they are gone), waits up to the grace period (or ctx), then
// SIGKILLs every group and waits until none of it remains. The work dir is
// removed unless Keep was set. Calling Stop again returns the first result.
func (c *localCluster) Stop(ctx context.Context) error {
	c.stopOnce.Do(func() { c.stopErr = c.stop(ctx) })
	return c.stopErr
}

func (c *localCluster) stop(ctx context.Context) error {
	start := time.Now()
	c.stopping.Store(true)
	select {
	case <-c.done:
		// Nothing to stop gracefully: say so instead of "graceful=true".
		err := c.kill()
		d := c.Died()
		if d != nil {
			c.log.Warn("HBase was already dead when stopped", "role", d.Role, "pid", d.PID, "exit", d.Exit)
		}
		switch {
		case err != nil || c.keep:
		case d != nil:
			// The error that reported the death names this log: keep it.
			c.dropData()
			c.log.Info("HBase died; its log and config are kept", "workdir", c.workDir)
		default:
			c.cleanup()
		}
		return err
	default:
	}
	var servers, zk []*jvm
	for _, j := range c.procs() {
		if j.role == roleZooKeeper {
			zk = append(zk, j)
		} else {
			servers = append(servers, j)
		}
	}
	grace := time.NewTimer(c.grace)
	defer grace.Stop()
	graceful := c.term(ctx, grace.C, servers) && c.term(ctx, grace.C, zk)
	err := c.kill()
	c.log.Info("HBase stopped", "graceful", graceful, "took", time.Since(start).Round(time.Millisecond))
	if err != nil {
		return err
	}
	if !c.keep {
		c.cleanup()
	} else {
		c.log.Info("work dir kept", "workdir", c.workDir)
	}
	return nil
}

// dropData removes the cluster's data (HBase's root dir, ZooKeeper's, tmp)
// and keeps its logs and config, for a cluster whose failure an error names
// its log for.
func (c *localCluster) dropData() {
	for _, sub := range []string{"hbase", "zk", "tmp"} {
		os.RemoveAll(filepath.Join(c.workDir, sub))
	}
}

// term SIGTERMs the JVMs and says whether all exited before ctx or grace ended.
func (c *localCluster) term(ctx context.Context, grace <-chan time.Time, jvms []*jvm) bool {
	for _, j := range jvms {
		if err := syscall.Kill(-j.pgid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
			c.log.Warn("SIGTERM to HBase process group failed", "role", j.what(), "pgid", j.pgid, "err", err)
		}
	}
	for _, j := range jvms {
		select {
		case <-j.done:
		case <-ctx.Done():
			return false
		case <-grace:
			return false
		case <-c.hurried:
			return false
		}
	}
	return true
}

// kill SIGKILLs every JVM's process group and waits until all are gone.
func (c *localCluster) kill() error {
	var errs []error
	jvms := c.procs()
	for _, j := range jvms {
		if err := syscall.Kill(-j.pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("killing HBase %s process group %d: %w", j.what(), j.pgid, err))
		}
	}
	timeout := time.After(30 * time.Second)
	for _, j := range jvms {
		select {
		case <-j.done:
		case <-timeout:
			errs = append(errs, fmt.Errorf("HBase %s pid %d did not exit 30s after SIGKILL", j.what(), j.pgid))
		}
	}
	// The leaders are reaped; wait for any other member of their groups too.
	for _, j := range jvms {
		gone := false
		for i := 0; i < 100 && !gone; i++ {
			if err := syscall.Kill(-j.pgid, 0); errors.Is(err, syscall.ESRCH) {
				gone = true
				break
			}
			_ = syscall.Kill(-j.pgid, syscall.SIGKILL)
			time.Sleep(50 * time.Millisecond)
		}
		if !gone {
			errs = append(errs, fmt.Errorf("processes of HBase %s group %d remain after SIGKILL", j.what(), j.pgid))
		}
	}
	return errors.Join(errs...)
}

// tailFile returns the last n lines of path (or a note why it cannot).
func tailFile(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return []string{"(cannot read log: " + err.Error() + ")"}
	}
	defer f.Close()
	// Read at most the last 256 KiB: enough for 30 lines of stack traces.
	const tail = 256 << 10
	if st, err := f.Stat(); err == nil && st.Size() > tail {
		_, _ = f.Seek(st.Size()-tail, 0)
	}
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > 4*n {
			lines = append(lines[:0], lines[len(lines)-n:]...)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// tailLines returns the last n non-empty lines of s.
func tailLines(s string, n int) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// pgidAlive says whether any process of group pgid exists (for tests and callers).
func pgidAlive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
