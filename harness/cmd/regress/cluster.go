package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/cluster"
)

func init() { register(newClusterCmd) }

func newClusterCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Start a standalone HBase from Maven Central, or list the versions that can be started",
	}
	cmd.AddCommand(newClusterUpCmd(), newClusterVersionsCmd())
	return cmd
}

func newClusterUpCmd() *cobra.Command {
	var (
		version  string
		confKVs  []string
		jvmOpts  []string
		workDir  string
		keep     bool
		cacheDir string
		timeout  time.Duration
	)
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Start a standalone HBase and keep it up until interrupted",
		Long: "up resolves the HBase release's jars with mvn (once per version, into the cache), starts a " +
			"standalone HBase (ZooKeeper, master and region server in one JVM on 127.0.0.1) and prints " +
			"one line, zookeeper=127.0.0.1:PORT version=V log=PATH, when it is ready. It stays up until " +
			"SIGINT or SIGTERM, then stops HBase and exits 0.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if version == "" {
				return usageErr(errors.New("cluster up: --version is required, e.g. --version 2.6.1 (see `regress cluster versions`)"))
			}
			conf, err := parseConfKVs(confKVs)
			if err != nil {
				return usageErr(fmt.Errorf("cluster up: %w", err))
			}
			spec := cluster.Spec{Version: version, Conf: conf, JVMOpts: jvmOpts, WorkDir: workDir,
				Keep: keep, CacheDir: cacheDir, StartTimeout: timeout}
			return runClusterUp(cmd.Context(), cmd.OutOrStdout(), cluster.NewLocal(""), spec)
		},
	}
	f := cmd.Flags()
	f.StringVar(&version, "version", "", "HBase version, e.g. 2.6.1 (the -hadoop3 build is used when published) or 2.6.1-hadoop3")
	f.StringArrayVar(&confKVs, "conf", nil, "hbase-site.xml override key=value (repeatable)")
	f.StringArrayVar(&jvmOpts, "jvm-opt", nil, "extra JVM option, e.g. -Xmx4g (repeatable; default heap is -Xmx1g)")
	f.StringVar(&workDir, "workdir", "", "work dir for config, data and log (default: a new temporary dir)")
	f.BoolVar(&keep, "keep", false, "keep the work dir (data, config, log) after stopping")
	f.StringVar(&cacheDir, "cache-dir", "", "artifact cache root (default $"+cluster.CacheDirEnv+" or <user cache dir>/regress/hbase)")
	f.DurationVar(&timeout, "start-timeout", cluster.DefaultStartTimeout, "give up when HBase is not ready this long after its JVM started")
	return cmd
}

// parseConfKVs turns repeated key=value flags into a map, refusing malformed ones.
func parseConfKVs(kvs []string) (map[string]string, error) {
	conf := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--conf %q: want key=value, e.g. --conf hbase.regionserver.handler.count=60", kv)
		}
		conf[strings.TrimSpace(k)] = v
	}
	return conf, nil
}

// runClusterUp starts the cluster, prints its line, and stops it when ctx is
// cancelled (main cancels it on SIGINT/SIGTERM).
func runClusterUp(ctx context.Context, out io.Writer, p cluster.Provider, spec cluster.Spec) error {
	c, err := p.Start(ctx, spec)
	if err != nil {
		if ctx.Err() != nil {
			// Interrupted while starting: Start left nothing running.
			slog.Info("interrupted before HBase was ready; nothing left running")
			return nil
		}
		return classifyClusterErr(fmt.Errorf("cluster up: %w", err))
	}
	fmt.Fprintf(out, "zookeeper=%s version=%s log=%s\n", c.ZKAddr(), c.Version(), c.LogPath())
	<-ctx.Done()
	slog.Info("stopping HBase", "version", c.Version())
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.Stop(sctx); err != nil {
		return runErr(fmt.Errorf("cluster up: stopping HBase %s: %w", c.Version(), err))
	}
	return nil
}

// classifyClusterErr maps provider errors to exit codes: what the user typed
// is wrong (2) or the environment or HBase failed (3).
func classifyClusterErr(err error) error {
	if errors.Is(err, cluster.ErrBadVersion) || errors.Is(err, cluster.ErrVersionNotFound) || errors.Is(err, cluster.ErrPortInUse) {
		return usageErr(err)
	}
	return runErr(err)
}

func newClusterVersionsCmd() *cobra.Command {
	var cacheDir string
	cmd := &cobra.Command{
		Use:   "versions",
		Short: "List HBase versions: those in the cache and those Maven can see for org.apache.hbase:hbase-server",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cached, published, err := cluster.NewLocal("").Versions(cmd.Context(), cacheDir)
			if err != nil {
				if cached == nil && published == nil && !errors.Is(err, cluster.ErrMavenMissing) {
					return runErr(fmt.Errorf("cluster versions: %w", err))
				}
				// The cache still answers when Maven cannot.
				slog.Warn("cannot list the published versions; showing the cached ones", "err", err)
			}
			all := cluster.SortVersions(append(append([]string(nil), cached...), published...))
			for _, v := range all {
				fmt.Fprintln(cmd.OutOrStdout(), v)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&cacheDir, "cache-dir", "", "artifact cache root (default $"+cluster.CacheDirEnv+" or <user cache dir>/regress/hbase)")
	return cmd
}
