// Package cluster starts and stops the HBase clusters a regression run measures.
// A Provider turns a Spec (version, hbase-site overrides, JVM options) into a
// running Cluster that reports its ZooKeeper address and log, and stops cleanly.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/regress-hbase/regress/harness/version"
)

// Spec describes the cluster a provider should start.
type Spec struct {
	// Version is the HBase release, e.g. "2.6.1" or "2.6.1-hadoop3".
	Version string
	// Plain starts a plain Version's plain build even where its -hadoop3
	// build is published: what a run whose other side has no -hadoop3
	// build asks for, so both sides run one Hadoop client stack.
	Plain bool
	// Conf holds hbase-site.xml overrides; they win over the provider's defaults.
	Conf map[string]string
	// JVMOpts are extra JVM options, appended after the provider's own.
	JVMOpts []string
	// JVMOptsByJDK are the suite's JVM options for the JDK a key names
	// by its major version ("11"): put before JVMOpts on every HBase JVM
	// started on that JDK, less any option JVMOpts sets itself.
	JVMOptsByJDK map[string][]string
	// WorkDir is the cluster's working directory; empty means a fresh temporary one.
	WorkDir string
	// Keep leaves the work dir (data, config, log) in place after Stop.
	Keep bool
	// CacheDir overrides the provider's per-version artifact cache root.
	CacheDir string
	// StartTimeout bounds the wait for readiness once the JVM runs; 0 means the default.
	StartTimeout time.Duration
	// Name is the side the cluster plays ("baseline", "candidate"), for logs and errors.
	Name string
	// JavaHome is the JDK to run HBase on; empty means FindJDK's pick.
	JavaHome string
	// InfoServer starts the region server's info server on a free loopback
	// port, for its /jmx and /prometheus metrics (make bench-fidelity, a
	// trial's block cache counts). Some hbase-server jars on Maven Central
	// lack its web resources (2.6.3, 2.5.11-hadoop3): those get an empty
	// web app on the class path (webapps.go), which serves /jmx and
	// /prometheus but not the status pages.
	InfoServer bool
	// Repo is a Maven repository URL (a staging repository, or file:///...)
	// searched first for the HBase jars; empty means Maven's own settings.
	Repo string
	// RegionServers is how many region servers to start. 0 or 1 starts
	// standalone HBase (ZooKeeper, master and region server in one JVM); 2
	// or more a pseudo-distributed cluster: a ZooKeeper JVM, a master JVM and
	// that many region server JVMs, each with its own ports, log and heap,
	// sharing the work dir's file system as root dir.
	RegionServers int
	// RSHeap is each region server's maximum heap, e.g. "2g" (-Xmx); empty
	// means 1g. In standalone HBase it is the one JVM's heap.
	RSHeap string
	// ExtraJars go on every HBase JVM's class path after the release's jars:
	// a coprocessor or a patched class a developer tests, as HBASE_CLASSPATH would.
	ExtraJars []string
}

// Info says how a cluster was made, for manifests and reports.
type Info struct {
	// Provider is "local" (jars through Maven) or "home" (an unpacked release).
	Provider string
	// Version is the HBase version started, as its jars say.
	Version string
	// JDK is the Java installation HBase runs on.
	JDK JDK
	// Repository is the Maven repository searched first, if any.
	Repository string
	// Home is the HBase home directory (or tarball) started, if any.
	Home string
	// Checksums maps each HBase jar's file name to its SHA-256 (hex).
	Checksums map[string]string
	// PID is the JVM's process id (the master's in a pseudo-distributed cluster).
	PID int
	// RegionServers is how many region servers were started (1 for standalone HBase).
	RegionServers int
	// RSHeap is each region server's -Xmx as asked ("" for the default).
	RSHeap string
	// Hadoop is the Hadoop client stack on the class path (HadoopStack), "" when none was found.
	Hadoop string
	// JDKOpts are the suite's JVM options for JDK (Spec.JVMOptsByJDK) that
	// every HBase JVM was started with.
	JDKOpts []string
}

// Describer is implemented by clusters that know how they were made.
type Describer interface {
	// Info says how the cluster was made.
	Info() Info
}

// Watched is implemented by clusters whose processes the provider watches.
type Watched interface {
	// Exited is closed once the cluster's process is gone, stopped or not.
	Exited() <-chan struct{}
	// Died says how the process died when it exited without Stop, else nil.
	Died() *DiedError
}

// Cluster is a running HBase cluster.
type Cluster interface {
	// ZKAddr is the ZooKeeper quorum as host:port.
	ZKAddr() string
	// Version is the HBase version actually started (e.g. with the -hadoop3 suffix).
	Version() string
	// LogPath is the cluster's HBase log file.
	LogPath() string
	// Stop shuts the cluster down and waits until no process of it remains.
	Stop(ctx context.Context) error
}

// Provider starts clusters of one kind (local jars, HBase home, external, ...).
type Provider interface {
	// Name identifies the provider in logs and manifests.
	Name() string
	// Start starts a cluster for s and returns once it is ready to serve.
	Start(ctx context.Context, s Spec) (Cluster, error)
}

// Errors callers can test with errors.Is.
var (
	// ErrBadVersion marks a version string that is not a plausible release name.
	ErrBadVersion = version.ErrBad
	// ErrJavaMissing marks a missing java executable.
	ErrJavaMissing = errors.New("java not found")
	// ErrMavenMissing marks a missing mvn executable.
	ErrMavenMissing = errors.New("mvn not found")
	// ErrVersionNotFound marks a version Maven cannot find.
	ErrVersionNotFound = errors.New("HBase version not published")
	// ErrJDKIncompatible marks an HBase version that cannot run on the selected JDK.
	ErrJDKIncompatible = errors.New("HBase version cannot run on this JDK")
	// ErrPortInUse marks a configured port that something else already listens on.
	ErrPortInUse = errors.New("port already in use")
	// ErrStartFailed marks an HBase process that exited or never became ready.
	ErrStartFailed = errors.New("HBase failed to start")
	// ErrClusterDied marks an HBase process that exited on its own after it was ready.
	ErrClusterDied = errors.New("HBase process died")
)

// DiedError reports a cluster's JVM that exited without being stopped.
type DiedError struct {
	Side, Version string
	// Role is the JVM that died in a pseudo-distributed cluster: "zookeeper",
	// "master" or "region server N"; empty for standalone HBase.
	Role string
	PID  int
	// Exit is "killed by signal 9 (killed)" or "exited with code 1".
	Exit    string
	LogPath string
	Tail    []string
}

func (e *DiedError) Error() string {
	who := "HBase " + e.Version
	if e.Side != "" {
		who = e.Side + " " + who
	}
	jvm := "JVM"
	if e.Role != "" {
		jvm = e.Role + " JVM"
	}
	msg := fmt.Sprintf("%s died: its %s (pid %d) %s; log %s", who, jvm, e.PID, e.Exit, e.LogPath)
	if len(e.Tail) > 0 {
		msg += fmt.Sprintf(", last %d lines:\n", len(e.Tail))
		for _, l := range e.Tail {
			msg += "  " + l + "\n"
		}
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrClusterDied) hold.
func (e *DiedError) Unwrap() error { return ErrClusterDied }

// exitDescription says how a process ended: its signal or exit code.
func exitDescription(ps *os.ProcessState, waitErr error) string {
	if ps == nil {
		return fmt.Sprintf("ended (%v)", waitErr)
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("was killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
	}
	return fmt.Sprintf("exited with code %d", ps.ExitCode())
}

// VersionNotFoundError says which version Maven could not find and the nearest
// published ones, when the metadata was reachable.
type VersionNotFoundError struct {
	Version string
	// Repo is the repository asked, when the user named one.
	Repo    string
	Nearest []string
	Detail  string
}

func (e *VersionNotFoundError) Error() string {
	if e.Repo != "" {
		msg := fmt.Sprintf("org.apache.hbase:hbase-server:%s (or its -hadoop3 build) is not in repository %s: check the URL and the version the RC carries", e.Version, e.Repo)
		if e.Detail != "" {
			msg += " (" + e.Detail + ")"
		}
		return msg
	}
	msg := fmt.Sprintf("org.apache.hbase:hbase-server:%s is not on Maven Central (or the repositories your Maven settings name)", e.Version)
	if len(e.Nearest) > 0 {
		msg += fmt.Sprintf("; nearest published versions: %v", e.Nearest)
	} else {
		msg += "; run 'regress cluster versions' to list the published ones"
	}
	if e.Detail != "" {
		msg += " (maven: " + e.Detail + ")"
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrVersionNotFound) hold.
func (e *VersionNotFoundError) Unwrap() error { return ErrVersionNotFound }

// StartError reports a failed start-up with the tail of the HBase log.
type StartError struct {
	Version string
	LogPath string
	Tail    []string
	Reason  string
	// PortTaken says the log shows a port clash: something bound a port
	// between our choosing it and HBase binding it.
	PortTaken bool
}

func (e *StartError) Error() string {
	msg := fmt.Sprintf("HBase %s failed to start: %s; log %s", e.Version, e.Reason, e.LogPath)
	if len(e.Tail) > 0 {
		msg += fmt.Sprintf(", last %d lines:\n", len(e.Tail))
		for _, l := range e.Tail {
			msg += "  " + l + "\n"
		}
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrStartFailed) hold.
func (e *StartError) Unwrap() error { return ErrStartFailed }
