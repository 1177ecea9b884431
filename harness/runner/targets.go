package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/servercost"
)

// Side is one side of a run as the user named it: a version regress starts
// (from Maven Central, a repository, or a home), or a running cluster.
type Side struct {
	Role    string // "baseline", "candidate", or "run"
	Version string
	ZK      string // a running cluster's ZooKeeper; then nothing is started
	Conf    map[string]string
	JVMOpts []string
	// Repo, Home and JavaHome say where the jars and the JDK come from; Label
	// is the name to store the results under.
	Repo, Home, JavaHome, Label string
	// Jars are extra jars on the started cluster's class path (a coprocessor, a patch).
	Jars []string
}

// StartOptions are what StartTargets needs besides the sides.
type StartOptions struct {
	// Provider starts the sides that name a version; nil when none does.
	Provider cluster.Provider
	// CacheDir is the jar cache (homes unpack there too); Keep keeps work dirs.
	CacheDir string
	Keep     bool
	// ZNode is the clusters' base znode.
	ZNode string
	// Log receives the clusters' start-up lines; nil means slog.Default().
	Log *slog.Logger
	// Message, if set, shows a line of progress.
	Message func(string)
	// Died, if set, is called with a *cluster.DiedError when a started JVM dies.
	Died func(error)
	// RegionServers and RSHeap shape every cluster regress starts (see
	// cluster.Spec); 0 and "" mean standalone HBase with its default heap.
	RegionServers int
	RSHeap        string
}

func (o StartOptions) logger() *slog.Logger {
	if o.Log != nil {
		return o.Log
	}
	return slog.Default()
}

func (o StartOptions) message(m string) {
	if o.Message != nil {
		o.Message(m)
	}
}

// StartTargets starts (or connects to) every side concurrently; stop tears all
// down. A started cluster whose JVM dies calls died (if set) with the death.
func StartTargets(ctx context.Context, opt StartOptions, sides []Side) ([]*Target, func(), error) {
	log := opt.logger()
	targets := make([]*Target, len(sides))
	clusters := make([]cluster.Cluster, len(sides))
	errs := make([]error, len(sides))
	var wg sync.WaitGroup
	var provider cluster.Provider
	needProvider := false
	for _, s := range sides {
		needProvider = needProvider || (s.ZK == "" && s.Home == "")
	}
	if needProvider {
		if opt.Provider == nil {
			return nil, func() {}, errors.New("runner: a side needs a cluster started and StartOptions.Provider is nil")
		}
		provider = opt.Provider
	}
	for i, s := range sides {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := &Target{Settings: s.Conf, JVMOpts: s.JVMOpts, Jars: s.Jars}
			zk := s.ZK
			if zk == "" {
				p, what := provider, s.Version
				if s.Home != "" {
					p, what = cluster.NewHome(s.Home, opt.CacheDir), "from "+s.Home
				}
				opt.message(fmt.Sprintf("%s: starting HBase %s (%s provider)", s.Role, what, p.Name()))
				cl, err := p.Start(ctx, cluster.Spec{Version: s.Version, Conf: s.Conf, JVMOpts: s.JVMOpts, Keep: opt.Keep, CacheDir: opt.CacheDir,
					Name: s.Role, JavaHome: s.JavaHome, Repo: s.Repo, RegionServers: opt.RegionServers, RSHeap: opt.RSHeap, ExtraJars: s.Jars,
					InfoServer: true}) // its /prometheus holds the block cache counts (counts.go)
				if err != nil {
					errs[i] = (fmt.Errorf("%s: start HBase %s: %w", s.Role, what, err))
					return
				}
				clusters[i] = cl
				zk = cl.ZKAddr()
				t.Provider = p.Name()
				t.Version = cl.Version()
				t.RegionServers, t.RSHeap = max(opt.RegionServers, 1), opt.RSHeap
				jdk := ""
				if d, ok := cl.(cluster.Describer); ok {
					info := d.Info()
					jdk = info.JDK.String()
					t.JDK = "JDK " + info.JDK.Version + " (" + info.JDK.Java + ")"
					t.Repository, t.Home, t.Checksums = info.Repository, info.Home, info.Checksums
				}
				t.Servers, t.ServersNote = regionServers(cl)
				if w, ok := cl.(cluster.Watched); ok && opt.Died != nil {
					go func() {
						<-w.Exited()
						if d := w.Died(); d != nil {
							opt.Died(d)
						}
					}()
				}
				log.Info("cluster ready", "side", s.Role, "version", cl.Version(), "jdk", jdk, "zookeeper", zk, "log", cl.LogPath())
			} else {
				t.Provider = "external"
			}
			cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			client, err := hbase.Connect(cctx, zk, hbase.WithZNodeParent(opt.ZNode))
			if err != nil {
				errs[i] = (fmt.Errorf("%s: connect to HBase at %s: %w", s.Role, zk, err))
				return
			}
			t.Client, t.ZK, t.ZNode = client, zk, opt.ZNode
			if t.Provider == "external" {
				t.Servers, t.ServersNote = infoServers(cctx, client)
			}
			if t.Version == "" {
				if v, err := client.ClusterVersion(cctx); err == nil {
					t.Version = v
				} else {
					t.Version = "unknown"
				}
				t.Label = s.Role + "-" + sanitizeLabel(zk)
			}
			if s.Label != "" {
				t.Label = s.Label
			}
			t.Name = TargetName(t)
			targets[i] = t
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

// TargetName is the store target: the version, plus a short hash of any
// settings so a configuration change never mixes with plain trials.
func TargetName(t *Target) string {
	if t.Label != "" {
		return t.Label
	}
	name := t.Version
	if t.Repository != "" || t.Home != "" {
		// Jars from an RC carry the release's version: their own digest keeps
		// them apart from the release and from other RCs.
		if d := cluster.JarsDigest(t.Checksums); d != "" {
			name += "+jars-" + d[:8]
		}
	}
	if t.RegionServers > 1 {
		// Results of N region servers are stored apart from standalone ones.
		name += fmt.Sprintf("+rs%d", t.RegionServers)
	}
	if len(t.Settings) > 0 || len(t.JVMOpts) > 0 || t.RSHeap != "" || len(t.Jars) > 0 {
		keys := make([]string, 0, len(t.Settings))
		for k := range t.Settings {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		h := sha256.New()
		for _, k := range keys {
			fmt.Fprintf(h, "%s=%s\n", k, t.Settings[k])
		}
		for _, o := range t.JVMOpts {
			fmt.Fprintf(h, "jvm:%s\n", o)
		}
		if t.RSHeap != "" {
			fmt.Fprintf(h, "rs_heap:%s\n", t.RSHeap)
		}
		for _, j := range t.Jars {
			// The jar's content, not its name: a rebuilt coprocessor is another build.
			fmt.Fprintf(h, "jar:%s:%s\n", filepath.Base(j), fileDigest(j))
		}
		name += "+conf-" + hex.EncodeToString(h.Sum(nil))[:8]
	}
	return name
}

// DistinctNames keeps two sides with the same version and settings (an A/A run) apart in the store.
func DistinctNames(b, c *Target) {
	if b.Name == c.Name {
		b.Name += "+baseline"
		c.Name += "+candidate"
		b.Label, c.Label = b.Name, c.Name
	}
}

func sanitizeLabel(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteRune('-')
		}
	}
	return b.String()
}

// regionServers lists the region server JVMs of a cluster regress started,
// for the server cost of each trial.
func regionServers(cl cluster.Cluster) (servercost.Servers, string) {
	ps, ok := cl.(cluster.Processes)
	if !ok {
		return nil, "server cost not available: this provider does not list its processes"
	}
	var out servercost.Servers
	for _, p := range ps.Processes() {
		if p.Role == "hbase" || strings.HasPrefix(p.Role, "region server") {
			out = append(out, servercost.Server{Name: p.Role, PID: p.PID, GCLog: p.GCLog, Log: p.LogPath})
		}
	}
	if len(out) == 0 {
		return nil, "server cost not available: no region server process found"
	}
	return out, ""
}

// fileDigest is the hex SHA-256 of a file's content, or "" when unreadable.
func fileDigest(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// infoServers lists the region servers of a cluster regress did not start,
// to be read through their info servers' /jmx: CPU, heap, GC and flush,
// compaction and split counts, not allocation.
func infoServers(ctx context.Context, c *hbase.Client) (servercost.Servers, string) {
	infos, err := c.InfoServers(ctx)
	if err != nil {
		return nil, "server cost not available: " + err.Error()
	}
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
	return out, "allocation per operation not available: a cluster regress did not start is read through /jmx, which has no allocation counter"
}
