package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/profile"
	"github.com/regress-hbase/regress/harness/servercost"
)

// Doctor is `regress doctor`: it prints the report of the cluster at ZK
// (znode ZNode), giving up after Timeout. Any failure means the cluster is
// not usable as given: bad input, like other usage errors.
type Doctor struct {
	ZK, ZNode string
	Timeout   time.Duration
	// InfoPort places every region server's info server at its host and
	// this port, whatever ZooKeeper says (--info-port); 0: ZooKeeper's.
	InfoPort int
	// JMXPort checks each region server's JMX remote connector at its host
	// and this port, as --*-jmx-port records profiles there: the
	// JFR-over-JMX recorder connects and creates a recording, closed
	// unstarted; 0: not checked.
	JMXPort int
}

// Run checks the flags, reaches the cluster and prints its report to out.
func (j *Doctor) Run(ctx context.Context, out io.Writer) error {
	zkAddr, znode, timeout := j.ZK, j.ZNode, j.Timeout
	if zkAddr == "" {
		return fault.Usage(errors.New("doctor: --zk HOST:PORT is required (the address `regress cluster up` prints)"))
	}
	if err := CheckZNode("--znode", znode); err != nil {
		return err
	}
	if timeout <= 0 {
		return fault.Usage(fmt.Errorf("doctor: --timeout %v must be positive", timeout))
	}
	if j.InfoPort < 0 || j.InfoPort > 65535 {
		return fault.Usage(fmt.Errorf("doctor: --info-port %d is not a port: give 1 to 65535", j.InfoPort))
	}
	if j.JMXPort < 0 || j.JMXPort > 65535 {
		return fault.Usage(fmt.Errorf("doctor: --jmx-port %d is not a port: give 1 to 65535", j.JMXPort))
	}
	outer := ctx // the JMX check has its own time: a JVM a server, and a compile the first time
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	fail := func(what string, err error) error {
		if outer.Err() != nil {
			// A signal, not the cluster: say so, exit 3 as every interrupted command.
			return fault.Run(fmt.Errorf("doctor: interrupted before HBase at ZooKeeper %s answered: %w", zkAddr, context.Cause(outer)))
		}
		if ctx.Err() != nil {
			// --timeout ran out: a ZooKeeper that takes connections and
			// never answers is unreachable like one that refuses them (exit
			// 2), not an interrupted command.
			err = fmt.Errorf("no answer within --timeout %v (a ZooKeeper that accepts connections but never answers, or a cluster still starting: raise --timeout)", timeout)
		}
		return fault.Usage(fmt.Errorf("doctor: %s (ZooKeeper %s, znode %s, timeout %v): %w", what, zkAddr, znode, timeout, err))
	}
	// Retries are bounded by the timeout, not a count: a master that is still
	// initializing answers PleaseHold for a while and should get that time.
	opts := []hbase.Option{hbase.WithZNodeParent(znode), hbase.WithRPCTimeout(timeout), hbase.WithMaxRetries(1000), hbase.WithZKWait(timeout, nil)}
	if j.InfoPort > 0 {
		opts = append(opts, hbase.WithInfoPort(j.InfoPort))
	}
	c, err := hbase.Connect(ctx, zkAddr, opts...)
	if err != nil {
		return fail("cannot reach HBase; is it running and is --zk the address `regress cluster up` printed?", err)
	}
	defer c.Close()
	version, err := c.ClusterVersion(ctx)
	if err != nil {
		return fail("cluster version", err)
	}
	servers, err := c.LiveRegionServers(ctx)
	if err != nil {
		return fail("live region servers", err)
	}
	tables, err := c.ListTables(ctx)
	if err != nil {
		return fail("tables", err)
	}
	snaps, err := c.ListSnapshots(ctx)
	if err != nil {
		return fail("snapshots", err)
	}
	fmt.Fprintf(out, "HBase version:       %s\n", version)
	fmt.Fprintf(out, "Master:              %s\n", c.MasterAddr())
	fmt.Fprintf(out, "Live region servers: %d\n", len(servers))
	for _, s := range servers {
		fmt.Fprintf(out, "  %s\n", s)
	}
	fmt.Fprintf(out, "Tables:              %d\n", len(tables))
	for _, t := range tables {
		fmt.Fprintf(out, "  %s\n", t)
	}
	fmt.Fprintf(out, "Snapshots:           %d\n", len(snaps))
	for _, s := range snaps {
		fmt.Fprintf(out, "  %s (table %s, %s)\n", s.Name, s.Table, s.Created.UTC().Format(time.RFC3339))
	}
	infos, err := c.InfoServers(ctx)
	if err != nil {
		// Neither section fails doctor: trials run without them.
		fmt.Fprintf(out, "Server cost:         not read (%v)\n", err)
		if j.JMXPort > 0 {
			fmt.Fprintf(out, "JFR over JMX:        not checked (%v)\n", err)
		}
		return nil
	}
	serverCost(ctx, out, infos)
	if j.JMXPort > 0 {
		jfrOverJMX(outer, out, infos, j.JMXPort)
	}
	return nil
}

// jmxCheckTimeout bounds doctor's JFR-over-JMX check, --timeout aside: the
// recorder is compiled on first use, and each server gets a JVM of its own.
const jmxCheckTimeout = 2 * time.Minute

// jfrOverJMX prints, for each region server, whether --profile can record
// it over JMX at its host and port: the recorder connects and creates a
// recording (closed unstarted), or the line says what it met. Like
// serverCost it never fails doctor: trials run without profiles.
func jfrOverJMX(ctx context.Context, out io.Writer, infos []hbase.InfoServer, port int) {
	ctx, cancel := context.WithTimeout(ctx, jmxCheckTimeout)
	defer cancel()
	rec, err := profile.NewJMXRecorder(ctx, "")
	if err != nil {
		fmt.Fprintf(out, "JFR over JMX:        not checked (%v)\n", err)
		return
	}
	dir, err := os.MkdirTemp("", "regress-doctor-jmx-*")
	if err != nil {
		fmt.Fprintf(out, "JFR over JMX:        not checked (%v)\n", err)
		return
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(out, "JFR over JMX:        what --profile records per region server (--*-jmx-port %d)\n", port)
	for i, is := range infos {
		host, _, err := net.SplitHostPort(is.Server)
		if err != nil {
			fmt.Fprintf(out, "  %s: no: %v\n", is.Server, err)
			continue
		}
		addr := net.JoinHostPort(host, strconv.Itoa(port))
		run, err := rec.Prepare(ctx, addr, filepath.Join(dir, fmt.Sprintf("%d.jfr", i)))
		if err == nil {
			err = run.Ready(ctx)
			run.Cancel()
		}
		if err != nil {
			fmt.Fprintf(out, "  %s: no, connector %s: %v\n", is.Server, addr, err)
			continue
		}
		fmt.Fprintf(out, "  %s: ready, connector %s (JFR recording created and closed)\n", is.Server, addr)
	}
}

// serverCost prints what a trial on this cluster, were regress not to start
// it, would read of each region server's cost (through its info server's
// /jmx): the request threads' figures, the process's, or nothing.
func serverCost(ctx context.Context, out io.Writer, infos []hbase.InfoServer) {
	fmt.Fprintf(out, "Server cost:         what --*-zk trials read per region server\n")
	for _, is := range infos {
		fmt.Fprintf(out, "  %s: %s\n", is.Server, costSource(ctx, is))
	}
}

// costSource is doctor's line for one region server: what a trial reads of
// it, or why nothing (no info server, one that does not answer, or one
// that will not answer regress: TLS that does not verify, SPNEGO, 403).
func costSource(ctx context.Context, is hbase.InfoServer) string {
	if is.Info == "" {
		return "none: it runs no info server (hbase.regionserver.info.port), whose /jmx holds its CPU"
	}
	s, err := servercost.InfoSource(ctx, is.Info)
	var nr *servercost.NotReadError
	switch {
	case errors.As(err, &nr):
		return "none: " + nr.Error()
	case err != nil:
		return fmt.Sprintf("none: its info server %s does not answer /jmx (%v)", is.Info, err)
	}
	return s + ", info server " + is.Info
}
