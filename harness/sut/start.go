package sut

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/servercost"
)

// DefaultProvider is the provider that starts the sides that name a
// version, and the only one this build has: HBase jars from Maven Central.
const DefaultProvider = "local"

// Options are what starting needs besides the specs, the same for every side of a run.
type Options struct {
	// Provider starts the sides that name a version: DefaultProvider or ""
	// (the same); a side with a home uses the home provider.
	Provider string
	// CacheDir is the jar cache (homes unpack there too); Keep keeps work dirs.
	CacheDir string
	Keep     bool
	// Topology shapes every cluster regress starts.
	Topology Topology
	// WorkDir and StartTimeout are `regress cluster up`'s (see cluster.Spec).
	WorkDir      string
	StartTimeout time.Duration
	// ZNode is the clusters' base znode.
	ZNode string
	// Log receives the clusters' start-up lines; nil means slog.Default().
	Log *slog.Logger
	// Message, if set, shows a line of progress.
	Message func(string)
	// Died, if set, is called with a *cluster.DiedError when a started JVM dies.
	Died func(error)
}

func (o Options) logger() *slog.Logger {
	if o.Log != nil {
		return o.Log
	}
	return slog.Default()
}

func (o Options) message(m string) {
	if o.Message != nil {
		o.Message(m)
	}
}

// provider is the provider that starts s: the home provider for a home, else
// the one --provider names.
func (o Options) provider(s Spec) (cluster.Provider, error) {
	if s.Home != "" {
		return cluster.NewHome(s.Home, o.CacheDir), nil
	}
	switch o.Provider {
	case DefaultProvider, "":
		return cluster.NewLocal(o.CacheDir), nil
	}
	return nil, fault.Usagef("--provider %q: this build has the local provider (HBase jars from Maven Central); for a cluster you run, use --baseline-zk/--candidate-zk or `regress run --zk`", o.Provider)
}

// clusterSpec is what the provider is asked to start for s.
func (o Options) clusterSpec(s Spec) (cluster.Spec, error) {
	own, err := s.settings()
	if err != nil {
		return cluster.Spec{}, err
	}
	// The suite's settings, the side's own over them.
	conf := maps.Clone(o.Topology.Conf)
	if len(own) > 0 && conf == nil {
		conf = map[string]string{}
	}
	maps.Copy(conf, own)
	name := s.Role
	if s.Role == Up {
		name = "" // a cluster up has no side
	}
	return cluster.Spec{Version: s.Version, Plain: s.Plain, Conf: conf, JVMOpts: s.JVMOpts, WorkDir: o.WorkDir, Keep: o.Keep, CacheDir: o.CacheDir,
		StartTimeout: o.StartTimeout, Name: name, JavaHome: s.JavaHome, Repo: s.Repo,
		RegionServers: o.Topology.RegionServers, RSHeap: o.Topology.RSHeap, ExtraJars: s.Jars, JVMOptsByJDK: o.Topology.JVMOptsByJDK,
		// The info server's /prometheus holds the block cache counts of each trial (runner/counts.go).
		InfoServer: true}, nil
}

// Launch starts the cluster a checked spec names (a version through the
// provider, a home through the home provider) without connecting to it:
// `regress cluster up` serves it as it is. The provider's errors come back
// as they are, for the caller to say whose fault they are.
func Launch(ctx context.Context, opt Options, s Spec) (cluster.Cluster, error) {
	p, err := opt.provider(s)
	if err != nil {
		return nil, err
	}
	cs, err := opt.clusterSpec(s)
	if err != nil {
		return nil, err
	}
	return p.Start(ctx, cs)
}

// Start starts (or connects to) every checked spec concurrently and returns
// their targets, named for the store; stop tears all down, and is never nil.
// A started cluster whose JVM dies calls opt.Died (if set) with the death.
func Start(ctx context.Context, opt Options, specs ...Spec) ([]*Target, func(), error) {
	log := opt.logger()
	for _, s := range specs {
		if s.started() {
			// An unknown provider is refused before any side starts.
			if _, err := opt.provider(s); err != nil {
				return nil, func() {}, err
			}
		}
	}
	if len(specs) == 2 && specs[0].started() && specs[0].Home == "" {
		if p, err := opt.provider(specs[0]); err == nil {
			if l, ok := p.(*cluster.Local); ok {
				// Before any JVM starts: both sides on one build flavour.
				var err error
				if specs, err = sameFlavour(ctx, opt, specs, l.Resolve); err != nil {
					return nil, func() {}, err
				}
			}
		}
	}
	targets := make([]*Target, len(specs))
	clusters := make([]cluster.Cluster, len(specs))
	errs := make([]error, len(specs))
	var wg sync.WaitGroup
	for i, s := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			targets[i], clusters[i], errs[i] = start(ctx, opt, log, s)
		}()
	}
	wg.Wait()
	stop := func() {
		for _, t := range targets {
			if t != nil && t.Client != nil {
				t.Client.Close()
			}
		}
		var swg sync.WaitGroup
		for _, cl := range clusters {
			if cl == nil {
				continue
			}
			swg.Add(1)
			go func() {
				defer swg.Done()
				sctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				if err := cl.Stop(sctx); err != nil {
					log.Warn("stopping cluster", "version", cl.Version(), "err", err)
				}
			}()
		}
		swg.Wait()
	}
	if err := errors.Join(errs...); err != nil {
		if ctx.Err() != nil {
			return nil, stop, fmt.Errorf("interrupted while starting clusters (nothing was measured or stored; every JVM started is stopped): %w", err)
		}
		return nil, stop, err
	}
	return targets, stop, nil
}

// Renew replaces old, a cluster regress started from s, by a fresh one:
// old stops (its JVMs, its data), and s starts again as Start would, under
// old's name and label. A run that starts each side afresh several times
// (run.instances) calls it between blocks of pairs. stop tears the new
// cluster down and is never nil.
func Renew(ctx context.Context, opt Options, s Spec, old *Target) (*Target, func(), error) {
	if old == nil || old.Stop == nil {
		return nil, func() {}, fmt.Errorf("%s: a cluster regress did not start cannot be started afresh", s.Role)
	}
	sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	err := old.Stop(sctx)
	cancel()
	if err != nil {
		opt.logger().Warn("stopping the previous instance", "side", s.Role, "err", err)
	}
	ts, stop, err := Start(ctx, opt, renewedFlavour(s, old))
	if err != nil {
		return nil, stop, err
	}
	ts[0].Name, ts[0].Label, ts[0].zkRole, ts[0].apart = old.Name, old.Label, old.zkRole, old.apart
	return ts[0], stop, nil
}

// start starts (or connects to) one side; the cluster it returns, if any, is
// stopped by Start's stop even when connecting to it failed.
func start(ctx context.Context, opt Options, log *slog.Logger, s Spec) (*Target, cluster.Cluster, error) {
	t := &Target{JVMOpts: s.JVMOpts, Jars: s.Jars}
	var err error
	if t.Settings, err = s.settings(); err != nil {
		return nil, nil, err
	}
	zk := s.ZK
	var cl cluster.Cluster
	if s.started() {
		p, err := opt.provider(s)
		if err != nil {
			return nil, nil, err
		}
		what := s.Version
		if s.Home != "" {
			what = "from " + s.Home
		}
		opt.message(fmt.Sprintf("%s: starting HBase %s (%s provider)", s.Role, what, p.Name()))
		cs, err := opt.clusterSpec(s)
		if err != nil {
			return nil, nil, err
		}
		if cl, err = p.Start(ctx, cs); err != nil {
			return nil, nil, fmt.Errorf("%s: start HBase %s: %w", s.Role, what, err)
		}
		zk = cl.ZKAddr()
		t.Provider = p.Name()
		t.Version = cl.Version()
		t.RegionServers, t.RSHeap = max(opt.Topology.RegionServers, 1), opt.Topology.RSHeap
		jdk := ""
		if d, ok := cl.(cluster.Describer); ok {
			info := d.Info()
			jdk = info.JDK.String()
			t.JDK = StoredJDK(info.JDK, info.JDKOpts)
			t.Hadoop = info.Hadoop
			t.Repository, t.Home, t.Checksums = info.Repository, info.Home, info.Checksums
		}
		t.Servers, t.ServersNote = Servers(cl)
		if w, ok := cl.(cluster.Watched); ok && opt.Died != nil {
			go func() {
				<-w.Exited()
				if d := w.Died(); d != nil {
					opt.Died(d)
				}
			}()
		}
		log.Info("cluster ready", "side", s.Role, "version", cl.Version(), "hadoop", t.Hadoop, "jdk", jdk, "zookeeper", zk, "log", cl.LogPath())
	} else {
		t.Provider = "external"
	}
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	copts := []hbase.Option{hbase.WithZNodeParent(opt.ZNode), hbase.WithZKWait(hbase.ZKAnswerTimeout, func(msg string) { log.Warn(msg, "side", s.Role) })}
	if s.InfoPort > 0 {
		// The client's every InfoServers (server cost here, the runner's
		// block cache counts) then finds the info servers at this port.
		copts = append(copts, hbase.WithInfoPort(s.InfoPort))
	}
	client, err := hbase.Connect(cctx, zk, copts...)
	if err != nil {
		return nil, cl, fmt.Errorf("%s: connect to HBase at %s: %w", s.Role, zk, err)
	}
	t.Client, t.ZK, t.ZNode = client, zk, opt.ZNode
	if cl != nil {
		t.Stop = func(ctx context.Context) error { client.Close(); return cl.Stop(ctx) }
	}
	if t.Provider == "external" {
		t.Servers, t.ServersNote = infoServers(cctx, client)
		if s.JMXPort > 0 {
			withJMXRemote(t.Servers, s.JMXPort)
		}
	}
	if t.Version == "" {
		if v, err := client.ClusterVersion(cctx); err == nil {
			t.Version = v
		} else {
			t.Version = "unknown"
		}
		t.zkRole = s.Role
	}
	t.Label = s.Label
	t.Name = Name(t)
	return t, cl, nil
}

// Servers lists the region server JVMs of a cluster regress started, for
// the server cost of each trial, or says why there are none.
func Servers(cl cluster.Cluster) (servercost.Servers, string) {
	ps, ok := cl.(cluster.Processes)
	if !ok {
		return nil, "server cost not available: this provider does not list its processes"
	}
	var out servercost.Servers
	for _, p := range ps.Processes() {
		if p.Role == "hbase" || strings.HasPrefix(p.Role, "region server") {
			out = append(out, servercost.Server{Name: p.Role, PID: p.PID, GCLog: p.GCLog, Log: p.LogPath, Agent: p.Agent})
		}
	}
	if len(out) == 0 {
		return nil, "server cost not available: no region server process found"
	}
	return out, ""
}

// withJMXRemote places each server's JMX remote connector at its info
// server's host and port.
func withJMXRemote(servers servercost.Servers, port int) {
	for i, sv := range servers {
		u, err := url.Parse(sv.InfoURL())
		if err != nil || u.Hostname() == "" {
			continue
		}
		servers[i].JMXRemote = net.JoinHostPort(u.Hostname(), strconv.Itoa(port))
	}
}

// infoServers lists the region servers of a cluster regress did not start,
// to be read through their info servers' /jmx: CPU, heap, GC, flush,
// compaction and split counts, and on JDK 14+ the whole JVM's allocation.
func infoServers(ctx context.Context, c *hbase.Client) (servercost.Servers, string) {
	infos, err := c.InfoServers(ctx)
	if err != nil {
		return nil, "server cost not available: " + err.Error()
	}
	return serversOf(ctx, infos)
}

// serversOf is infoServers' list of the info servers found: each one asked
// once how it answers (plain HTTP or TLS), or the note of the first that
// will not answer regress (a certificate that does not verify, SPNEGO, 403):
// a side whose cost cannot be summed over every server has none. One that
// does not answer at all is kept as found, for each trial's reading to say so.
func serversOf(ctx context.Context, infos []hbase.InfoServer) (servercost.Servers, string) {
	var out servercost.Servers
	var missing []string
	for _, is := range infos {
		if is.Info == "" {
			missing = append(missing, is.Server)
			continue
		}
		out = append(out, servercost.Server{Name: "region server " + is.Server, JMX: is.Info})
	}
	switch {
	case len(out) == 0:
		return nil, "server cost not available: no region server runs an info server (hbase.regionserver.info.port), whose /jmx holds its CPU"
	case len(missing) > 0:
		return nil, fmt.Sprintf("server cost not available: region servers %s run no info server, so the cluster's CPU cannot be summed", strings.Join(missing, ", "))
	}
	notes := make([]error, len(out))
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() {
			at, err := servercost.FindJMX(ctx, out[i].JMX)
			if nr := (*servercost.NotReadError)(nil); errors.As(err, &nr) {
				notes[i] = nr
			} else if at != "" {
				out[i].JMX = at
			}
		})
	}
	wg.Wait()
	var shut []error
	for _, e := range notes {
		if e != nil {
			shut = append(shut, e)
		}
	}
	switch len(shut) {
	case 0:
		return out, ""
	case 1:
		return nil, "server cost not available: " + shut[0].Error()
	}
	others := fmt.Sprintf("%d other info servers", len(shut)-1)
	if len(shut) == 2 {
		others = "1 other info server"
	}
	return nil, fmt.Sprintf("server cost not available: %v (and %s not read either)", shut[0], others)
}
