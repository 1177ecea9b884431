package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Defaults of the local provider.
const (
	// DefaultStartTimeout bounds the wait for readiness after the JVM starts.
	DefaultStartTimeout = 3 * time.Minute
	// DefaultStopGrace is how long Stop waits after SIGTERM before SIGKILL.
	DefaultStopGrace = 30 * time.Second
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

// Resolve makes sure the jars of version are in the cache (running Maven only
// when they are not) and returns the artifact version used, e.g. 2.6.1-hadoop3.
func (l *Local) Resolve(ctx context.Context, s Spec) (string, error) {
	if err := ValidateVersion(s.Version); err != nil {
		return "", err
	}
	c, err := l.cacheFor(s)
	if err != nil {
		return "", err
	}
	v, _, err := c.resolve(ctx, s.Version, l.maven)
	return v, err
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
// is done, whichever comes first (like exec.CommandContext); on a failed or
// cancelled start no process is left behind.
func (l *Local) Start(ctx context.Context, s Spec) (Cluster, error) {
	if err := ValidateVersion(s.Version); err != nil {
		return nil, err
	}
	if err := checkConf(s.Conf); err != nil {
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
	entry, err := cache.resolveEntry(ctx, s.Version, s.Repo, l.maven)
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
	// jars follow the generated conf dir on the classpath, in order.
	jars []string
	info Info
}

// launch starts HMaster from ln's jars and waits until it is ready.
func (l *Local) launch(ctx context.Context, s Spec, ln launch) (Cluster, error) {
	log := l.logger().With("version", ln.version)
	if s.Name != "" {
		log = log.With("side", s.Name)
	}
	resolved, jars, jdk := ln.version, ln.jars, ln.jdk
	wd, cleanup, err := prepareWorkDir(s.WorkDir, resolved)
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(4)
	if err != nil {
		cleanup()
		return nil, err
	}
	site := siteConf(wd, ports[0], ports[1], ports[2], s.Conf)
	if _, set := s.Conf["hbase.regionserver.info.port"]; s.InfoServer && !set {
		// The region server's info server serves /jmx, where HBase's own
		// per-call times are read (make bench-fidelity).
		site["hbase.regionserver.info.port"] = strconv.Itoa(ports[3])
	}
	logDir := filepath.Join(wd, "logs")
	logPath := filepath.Join(logDir, "hbase.log")
	confDir := filepath.Join(wd, "conf")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		cleanup()
		return nil, fmt.Errorf("creating log dir %s: %w", logDir, err)
	}
	if err := writeConf(confDir, site, logPath); err != nil {
		cleanup()
		return nil, err
	}
	// JVM stdout/stderr go to the same file as log4j2 (both append), so errors
	// printed before logging starts (bad JVM flags, ZK port clash) are in it too.
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("opening HBase log %s: %w", logPath, err)
	}

	cmd := exec.Command(jdk.Java, javaArgs(jdk.Major, confDir, jars, s.JVMOpts)...)
	cmd.Dir = wd
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		cleanup()
		return nil, fmt.Errorf("starting %s for HBase %s: %w", jdk.Java, resolved, err)
	}
	info := ln.info
	info.Version, info.JDK, info.PID = resolved, jdk, cmd.Process.Pid
	c := &localCluster{
		version:   resolved,
		side:      s.Name,
		info:      info,
		zkAddr:    "127.0.0.1:" + site["hbase.zookeeper.property.clientPort"],
		infoAddr:  infoAddr(site["hbase.regionserver.info.port"]),
		parent:    site["zookeeper.znode.parent"],
		logPath:   logPath,
		workDir:   wd,
		keep:      s.Keep,
		cleanup:   cleanup,
		cmd:       cmd,
		pgid:      cmd.Process.Pid, // Setpgid makes the JVM its group's leader
		done:      make(chan struct{}),
		logFile:   logFile,
		grace:     l.StopGrace,
		log:       log,
		startedAt: time.Now(),
	}
	if c.grace == 0 {
		c.grace = DefaultStopGrace
	}
	go c.watch()
	log.Info("HBase JVM started", "pid", c.pgid, "jdk", jdk.String(), "zookeeper", c.zkAddr, "log", logPath, "workdir", wd)

	timeout := s.StartTimeout
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}
	checks := l.Ready
	if checks == nil {
		checks = DefaultReadyChecks()
	}
	if err := c.waitReady(ctx, timeout, checks); err != nil {
		c.stopping.Store(true)
		if kerr := c.kill(); kerr != nil {
			err = errors.Join(err, kerr)
		}
		c.closeLog()
		switch {
		case s.Keep:
		case ctx.Err() != nil:
			// Interrupted, not failed: nothing to debug.
			cleanup()
		default:
			// Keep the log (and config) the error names; drop the data.
			for _, sub := range []string{"hbase", "zk", "tmp"} {
				os.RemoveAll(filepath.Join(wd, sub))
			}
			log.Info("HBase start failed; its log and config are kept", "workdir", wd)
		}
		return nil, err
	}
	c.ready.Store(true)
	log.Info("HBase ready", "zookeeper", c.zkAddr, "took", time.Since(c.startedAt).Round(time.Millisecond))
	go func() {
		select {
		case <-ctx.Done():
			log.Info("context done; stopping HBase", "cause", context.Cause(ctx))
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

// localCluster is one standalone HBase JVM.
type localCluster struct {
	version, side, zkAddr, parent, logPath, workDir string
	info                                            Info
	infoAddr                                        string // the region server info server (/jmx)
	ready, stopping                                 atomic.Bool
	died                                            atomic.Pointer[DiedError]
	keep                                            bool
	cleanup                                         func()
	cmd                                             *exec.Cmd
	pgid                                            int
	done                                            chan struct{}
	waitErr                                         error
	logFile                                         *os.File
	logOnce                                         sync.Once
	grace                                           time.Duration
	log                                             *slog.Logger
	startedAt                                       time.Time
	stopOnce                                        sync.Once
	stopErr                                         error
}

func (c *localCluster) ZKAddr() string      { return c.zkAddr }
func (c *localCluster) Version() string     { return c.version }
func (c *localCluster) LogPath() string     { return c.logPath }
func (c *localCluster) ZNodeParent() string { return c.parent }

// InfoAddr is the region server's info server as host:port (its /jmx holds
// HBase's metrics), or "" when the info server is disabled.
func (c *localCluster) InfoAddr() string { return c.infoAddr }

func infoAddr(port string) string {
	if n, err := strconv.Atoi(port); err != nil || n <= 0 {
		return ""
	}
	return "127.0.0.1:" + port
}

// Info says how the cluster was made.
func (c *localCluster) Info() Info { return c.info }

// Exited is closed once the JVM is gone, stopped or not.
func (c *localCluster) Exited() <-chan struct{} { return c.done }

// Died returns how the JVM died when it exited without Stop, else nil.
func (c *localCluster) Died() *DiedError { return c.died.Load() }

// watch reaps the JVM and, when it exits on its own after start-up, records
// and logs the death with its exit code or signal and the log tail.
func (c *localCluster) watch() {
	c.waitErr = c.cmd.Wait()
	if c.ready.Load() && !c.stopping.Load() {
		d := &DiedError{Side: c.side, Version: c.version, PID: c.pgid, LogPath: c.logPath, Exit: exitDescription(c.cmd.ProcessState, c.waitErr)}
		d.Tail = tailFile(c.logPath, logTailLines)
		c.died.Store(d)
		c.log.Error("HBase JVM died", "pid", c.pgid, "exit", d.Exit, "log", c.logPath, "ran", time.Since(c.startedAt).Round(time.Second))
	}
	close(c.done)
}

// WorkDir is the cluster's working directory (config, data, log).
func (c *localCluster) WorkDir() string { return c.workDir }

// PGID is the process group of the cluster's JVM.
func (c *localCluster) PGID() int { return c.pgid }

// waitReady polls the checks until all pass, the JVM exits, ctx is done or
// the timeout expires.
func (c *localCluster) waitReady(ctx context.Context, timeout time.Duration, checks []ReadyCheck) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	var last error
	for {
		select {
		case <-c.done:
			return c.startError(fmt.Sprintf("the JVM exited before becoming ready (%v)", c.waitErr))
		case <-ctx.Done():
			return fmt.Errorf("starting HBase %s (log %s): %w", c.version, c.logPath, ctx.Err())
		case <-deadline.C:
			return c.startError(fmt.Sprintf("not ready after %s (last check: %v); raise the start timeout if the machine is slow", timeout, last))
		case <-tick.C:
		}
		last = nil
		for _, check := range checks {
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			last = check(cctx, c)
			cancel()
			if last != nil {
				break
			}
		}
		if last == nil {
			return nil
		}
	}
}

// startError builds a StartError with the log tail, pointing at a port clash
// when the log shows one.
func (c *localCluster) startError(reason string) error {
	tail := tailFile(c.logPath, logTailLines)
	for _, l := range tail {
		if strings.Contains(l, "Address already in use") || strings.Contains(l, "Could not start ZK at requested port") {
			reason += "; a port it was given is taken (" + ErrPortInUse.Error() + "): retry, or set the port with --conf"
			break
		}
	}
	return &StartError{Version: c.version, LogPath: c.logPath, Tail: tail, Reason: reason}
}

// Stop sends SIGTERM to the JVM's process group, waits up to the grace period
// (or ctx), then SIGKILLs the group and waits until none of it remains. The
// work dir is removed unless Keep was set. Calling Stop again returns the
// first result.
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
		c.closeLog()
		if d := c.Died(); d != nil {
			c.log.Warn("HBase was already dead when stopped", "pid", c.pgid, "exit", d.Exit)
		}
		if err == nil && !c.keep {
			c.cleanup()
		}
		return err
	default:
	}
	if err := syscall.Kill(-c.pgid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		c.log.Warn("SIGTERM to HBase process group failed", "pgid", c.pgid, "err", err)
	}
	graceful := true
	select {
	case <-c.done:
	case <-ctx.Done():
		graceful = false
	case <-time.After(c.grace):
		graceful = false
	}
	err := c.kill()
	c.closeLog()
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

// kill SIGKILLs the whole process group and waits until it is gone.
func (c *localCluster) kill() error {
	if err := syscall.Kill(-c.pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("killing HBase process group %d: %w", c.pgid, err)
	}
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		return fmt.Errorf("HBase JVM pid %d did not exit 30s after SIGKILL", c.pgid)
	}
	// The leader is reaped; wait for any other member of the group too.
	for i := 0; i < 100; i++ {
		if err := syscall.Kill(-c.pgid, 0); errors.Is(err, syscall.ESRCH) {
			return nil
		}
		_ = syscall.Kill(-c.pgid, syscall.SIGKILL)
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("processes of HBase group %d remain after SIGKILL", c.pgid)
}

func (c *localCluster) closeLog() { c.logOnce.Do(func() { c.logFile.Close() }) }

// tailFile returns the last n lines of path (or a note why it cannot).
func tailFile(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return []string{"(cannot read log: " + err.Error() + ")"}
	}
	defer f.Close()
	// Read at most the last 256 KiB: enough for 30 lines of stack traces.
	const max = 256 << 10
	if st, err := f.Stat(); err == nil && st.Size() > max {
		_, _ = f.Seek(st.Size()-max, 0)
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
