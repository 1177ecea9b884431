// Package sut owns each system under test, one side of a run (a Target):
// what its flags say (a Spec), their checks (exactly one of a version, a
// home or a running cluster; jars, JDK, --conf key=value and the region
// servers' topology), starting its cluster through the local or home
// provider or connecting to a running one, and the name its results are
// stored under. (Not named target: a folder called target is Maven's build
// output, which tools and Java developers' global gitignores skip.) The job and `regress cluster up` go
// through it; runner only runs trials on the Targets it is handed.
package sut

import (
	"context"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// Roles a side plays; the role names its flags and its messages.
const (
	// Baseline and Candidate are the job's two sides (--baseline-home, ...).
	Baseline  = "baseline"
	Candidate = "candidate"
	// Run is `regress run`'s one side, whose flags carry no prefix (--home).
	Run = "run"
	// Up is `regress cluster up`: unprefixed flags, no running cluster, no
	// label, its messages prefixed "cluster up: ".
	Up = "cluster up"
)

// Spec is one side as its flags gave it: a version, a home or a running
// cluster, and where its jars, JDK, settings and store name come from.
type Spec struct {
	// Role is Baseline, Candidate, Run or Up.
	Role string
	// Version is started from Maven Central (or Repo first); Home is an
	// unpacked release or its tarball; ZK is a running cluster's ZooKeeper.
	Version, Home, ZK string
	// Repo is a Maven repository searched first; JavaHome the JDK to run on.
	Repo, JavaHome string
	// Label is the name to store the results under instead of the version.
	Label string
	// Conf are hbase-site.xml overrides as key=value; JVMOpts extra JVM options.
	Conf, JVMOpts []string
	// Jars go on the started cluster's class path (a coprocessor, a patched build's jar).
	Jars []string
	// Plain starts Version's plain build even where a -hadoop3 build is
	// published: Start sets it when the other side has none (flavour.go).
	Plain bool
	// InfoPort, for a running cluster (ZK), is where its region servers'
	// info servers are, at each one's host, whatever ZooKeeper says; 0: ZooKeeper's.
	InfoPort int
	// JMXPort, for a running cluster (ZK), is its region servers' JMX
	// remote connector port, at each one's host: profiles are recorded
	// there with JFR over JMX. 0: none (/prof, where it answers).
	JMXPort int
}

// Target is one side of a run, started or connected: a cluster, a client
// to it and how it was made.
type Target struct {
	// Name is the store target (Name(t), kept apart by DistinctNames and ApartFrom).
	Name string
	// Version is the HBase version the cluster reports.
	Version string
	// Label is the label a person gave the side (--label); "" for none.
	Label    string
	Provider string
	ZK       string
	// ZNode is the cluster's znode parent (load hosts connect with it).
	ZNode    string
	Settings map[string]string
	JVMOpts  []string
	// Jars are extra jars on the cluster's class path (--candidate-jar).
	Jars   []string
	Client *hbase.Client
	// JDK is the JDK the cluster runs on, when regress started it (zero otherwise).
	JDK results.JDK
	// Hadoop is the Hadoop client stack on the cluster's class path
	// ("2.10.2", "3.4.1"), when regress started it; "" when unknown.
	Hadoop string
	// Repository and Home say where the HBase jars came from; Checksums are their SHA-256s.
	Repository, Home string
	Checksums        map[string]string
	// RegionServers is how many region servers regress started (0 for a
	// cluster someone else runs); RSHeap their heap as asked.
	RegionServers int
	RSHeap        string
	// Servers are the region server JVMs this machine can read each trial's
	// server cost from (local clusters); empty means not available.
	Servers servercost.Servers
	// ServersNote says why Servers is empty, for the reports.
	ServersNote string
	// Stop closes the client and stops the cluster when regress started
	// it (nil for a cluster someone else runs): Renew's first step.
	Stop func(ctx context.Context) error

	// zkRole is the role a running cluster given no label is named by
	// ("baseline-zk1-2181"); apart the role that keeps an A/A side apart.
	zkRole, apart string
}

// flag names a side's flag: --candidate-home, or for Run and Up (unprefixed
// flags) --home; suffix "" is the version flag.
func (s Spec) flag(suffix string) string {
	if s.Role != Run && s.Role != Up {
		return "--" + s.Role + suffix
	}
	if suffix == "" {
		return "--version"
	}
	return "--" + suffix[1:]
}

// started says whether regress starts this side's cluster (else it connects).
func (s Spec) started() bool { return s.ZK == "" }
