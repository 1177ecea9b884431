package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/sut"
)

// ClusterUp (`regress cluster up`) checks the spec (its role sut.Up) and
// the topology, starts the cluster, prints its line, and stops it when ctx
// is cancelled (the CLI cancels it on SIGINT/SIGTERM).
func ClusterUp(ctx context.Context, out io.Writer, spec sut.Spec, opt sut.Options) error {
	spec.Role = sut.Up
	if opt.StartTimeout <= 0 {
		return fault.Usagef("cluster up: --start-timeout %v: give how long HBase may take to be ready once its JVM runs, more than 0 (default %v)", opt.StartTimeout, cluster.DefaultStartTimeout)
	}
	if err := spec.Check(); err != nil {
		return err
	}
	if err := opt.Topology.Check(); err != nil {
		return fault.Usagef("cluster up: %w", err)
	}
	c, err := sut.Launch(ctx, opt, spec)
	if err != nil {
		if ctx.Err() != nil {
			// Interrupted while starting: Start left nothing running.
			slog.Info("interrupted before HBase was ready; nothing left running")
			return nil
		}
		return classifyClusterErr(fmt.Errorf("cluster up: %w", err))
	}
	line := fmt.Sprintf("zookeeper=%s version=%s log=%s", c.ZKAddr(), c.Version(), c.LogPath())
	var exited <-chan struct{}
	if w, ok := c.(cluster.Watched); ok {
		exited = w.Exited()
	}
	if d, ok := c.(cluster.Describer); ok {
		slog.Info("HBase ready", "jdk", d.Info().JDK.String(), "pid", d.Info().PID)
	}
	fmt.Fprintln(out, line)
	select {
	case <-ctx.Done():
	case <-exited:
		if d := c.(cluster.Watched).Died(); d != nil {
			return fault.Run(fmt.Errorf("cluster up: %w", d))
		}
	}
	slog.Info("stopping HBase", "version", c.Version())
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.Stop(sctx); err != nil {
		return fault.Run(fmt.Errorf("cluster up: stopping HBase %s: %w", c.Version(), err))
	}
	return nil
}

// classifyClusterErr says whose fault a provider's error is: what the user
// typed (a version, a home, a JDK, a port) or the environment's or HBase's.
func classifyClusterErr(err error) error {
	if errors.Is(err, cluster.ErrBadVersion) || errors.Is(err, cluster.ErrVersionNotFound) || errors.Is(err, cluster.ErrPortInUse) ||
		errors.Is(err, cluster.ErrBadHome) || errors.Is(err, cluster.ErrJDKIncompatible) {
		return fault.Usage(err)
	}
	return fault.Run(err)
}

// ClusterVersions (`regress cluster versions`) lists the versions the cache and
// Maven know, narrowed to lines (e.g. 2.6) when any are given; check fetches
// a jar of each version not yet checked.
func ClusterVersions(ctx context.Context, out io.Writer, cacheDir string, check bool, lines []string) error {
	sts, err := cluster.NewLocal("").VersionStatuses(ctx, cacheDir, check, lines)
	if err != nil {
		if sts == nil && !errors.Is(err, cluster.ErrMavenMissing) {
			return fault.Run(fmt.Errorf("cluster versions: %w", err))
		}
		// The cache still answers when Maven cannot.
		slog.Warn("cannot list the published versions; showing the cached ones", "err", err)
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, st := range sts {
		if len(lines) > 0 && !matchesAnyLine(st.Version, lines) {
			continue
		}
		jdk := st.JDK
		if jdk == "" {
			jdk = "needs " + st.NeedsJDK
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", st.Version, st.State, jdk)
	}
	return tw.Flush()
}

// matchesAnyLine says whether v belongs to one of the lines (2.6 matches 2.6.1-hadoop3).
func matchesAnyLine(v string, lines []string) bool {
	for _, p := range lines {
		p = strings.TrimSuffix(p, ".")
		if v == p || strings.HasPrefix(v, p+".") || strings.HasPrefix(v, p+"-") {
			return true
		}
	}
	return false
}
