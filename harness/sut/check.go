package sut

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/inputfile"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/version"
)

// Check refuses, as a usage error naming the side's own flags, a spec no
// provider can start: exactly one of a version, a home or a running cluster;
// a repository only with a version; a JDK, conf, JVM options and jars only
// for clusters regress starts, an info port only for one it does not; --conf written as key=value; a label or
// version that cannot name a store directory.
func (s Spec) Check() error {
	err := s.check()
	if err != nil && s.Role == Up {
		return fault.Usagef("cluster up: %w", err)
	}
	return err
}

func (s Spec) check() error {
	fl := s.flag
	switch s.Role {
	case Run:
		if (s.Version == "" && s.Home == "") == (s.ZK == "") {
			return fault.Usage(errors.New("give exactly one of --version V (started by the provider), --home DIR (an unpacked release or its tarball) or --zk HOST:PORT (a running cluster)"))
		}
		if s.ZK != "" && s.Label == "" {
			return fault.Usage(errors.New("--zk needs --label NAME: the name the results are stored under (e.g. prod-2.6.1)"))
		}
		if err := s.checkLabel(); err != nil {
			return err
		}
	case Up:
		if s.Version == "" && s.Home == "" {
			return fault.Usage(errors.New("give --version V, e.g. --version 2.6.1 (see `regress cluster versions`), or --home DIR (an unpacked release or its tarball)"))
		}
	case Baseline, Candidate:
	default:
		// A caller's mistake, not the user's: the role names every flag.
		return fmt.Errorf("target: role %q is none of %q, %q, %q, %q", s.Role, Baseline, Candidate, Run, Up)
	}
	switch {
	case s.Repo != "" && s.Version == "" && s.Home == "":
		return fault.Usagef("%s needs %s VERSION: the version the repository serves, e.g. 2.6.1", fl("-repo"), fl(""))
	case s.Version == "" && s.ZK == "" && s.Home == "":
		return fault.Usagef("give %s VERSION (started locally), %s DIR (an unpacked release or its tarball) or %s HOST:PORT (a running cluster)", fl(""), fl("-home"), fl("-zk"))
	case s.ZK != "" && (s.Version != "" || s.Home != ""):
		return fault.Usagef("%s, %s and %s exclude each other: choose one", fl("-zk"), fl(""), fl("-home"))
	case s.Home != "" && s.Version != "":
		// A home's version is read from its jars: a second one given beside
		// it would be ignored, or contradict it.
		return fault.Usagef("%s and %s exclude each other: a home's version is read from its jars; drop %s", fl(""), fl("-home"), fl(""))
	case s.Home != "" && s.Repo != "":
		return fault.Usagef("%s and %s exclude each other: a home brings its own jars", fl("-home"), fl("-repo"))
	case s.ZK != "" && s.JavaHome != "":
		return fault.Usagef("%s applies only to clusters regress starts, not to %s", fl("-java-home"), fl("-zk"))
	case s.InfoPort != 0 && s.ZK == "":
		return fault.Usagef("%s applies only to a running cluster (%s): for one regress starts, use %s hbase.regionserver.info.port=%d", fl("-info-port"), fl("-zk"), fl("-conf"), s.InfoPort)
	case s.InfoPort < 0 || s.InfoPort > 65535:
		return fault.Usagef("%s %d is not a port: give 1 to 65535", fl("-info-port"), s.InfoPort)
	case s.JMXPort != 0 && s.ZK == "":
		return fault.Usagef("%s applies only to a running cluster (%s): a cluster regress starts is profiled with JFR through jcmd", fl("-jmx-port"), fl("-zk"))
	case s.JMXPort < 0 || s.JMXPort > 65535:
		return fault.Usagef("%s %d is not a port: give 1 to 65535", fl("-jmx-port"), s.JMXPort)
	}
	if s.Version != "" {
		if err := version.Validate(s.Version); err != nil {
			return fault.Usage(err)
		}
	}
	if s.Repo != "" {
		if err := cluster.CheckRepo(s.Repo); err != nil {
			return fault.Usagef("%s: %w", fl("-repo"), err)
		}
	}
	if err := s.checkLabel(); err != nil {
		return err
	}
	if s.ZK != "" && (len(s.Conf) > 0 || len(s.JVMOpts) > 0 || len(s.Jars) > 0) {
		return fault.Usagef("%s, %s and %s apply only to clusters regress starts, not to %s", fl("-conf"), fl("-jvm-opt"), fl("-jar"), fl("-zk"))
	}
	if s.Home != "" {
		if err := checkHome(s.Home); err != nil {
			return fault.Usagef("%s %s is not an HBase home (%w): give an unpacked HBase binary release or its hbase-X-bin.tar.gz", fl("-home"), s.Home, err)
		}
	}
	if s.JavaHome != "" {
		if fi, err := os.Stat(filepath.Join(s.JavaHome, "bin", "java")); err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
			return fault.Usagef("%s %s: no JDK there (no executable bin/java): give the directory of a JDK install, e.g. /usr/lib/jvm/java-17-openjdk-amd64, or leave the flag out to let regress choose one", fl("-java-home"), s.JavaHome)
		}
	}
	for _, o := range s.JVMOpts {
		if t := strings.TrimSpace(o); t == "" || !strings.HasPrefix(t, "-") {
			return fault.Usagef("%s %q: a JVM option starts with a dash, e.g. -XX:+UseG1GC or -Dkey=value (java would take anything else for its main class)", fl("-jvm-opt"), o)
		}
	}
	for _, j := range s.Jars {
		if fi, err := os.Stat(j); err != nil || fi.IsDir() || !strings.HasSuffix(j, ".jar") {
			return fault.Usagef("%s %s: not a .jar file; give the path of a built jar (a coprocessor or a patched module)", fl("-jar"), j)
		}
	}
	_, err := s.settings()
	return err
}

// checkLabel refuses a label that cannot name a store directory.
func (s Spec) checkLabel() error {
	if s.Label == "" {
		return nil
	}
	if err := results.ValidateLabel(s.Label, s.Version); err != nil {
		return fault.Usagef("%s: %w", s.flag("-label"), err)
	}
	if s.Label == s.Version && (len(s.Conf) > 0 || len(s.JVMOpts) > 0 || len(s.Jars) > 0) {
		// The version's own name holds its plain results: the settings'
		// would be pooled with them.
		return fault.Usagef("%s %s: that is the name %s's plain results are stored under; with %s, %s or %s they are stored as %s+conf-...: drop the label, or choose one of their own", s.flag("-label"), s.Label, s.Version, s.flag("-conf"), s.flag("-jvm-opt"), s.flag("-jar"), s.Version)
	}
	return nil
}

// checkHome refuses an HBase home no provider can start from: it must be a
// directory (an unpacked release) or a .tar.gz (.tgz) file.
func checkHome(home string) error {
	fi, err := os.Stat(home)
	switch {
	case err != nil:
		return err
	case fi.IsDir():
		return nil
	case !fi.Mode().IsRegular():
		return fmt.Errorf("it is %s", inputfile.Kind(fi.Mode()))
	case !strings.HasSuffix(home, ".tar.gz") && !strings.HasSuffix(home, ".tgz"):
		return errors.New("a file, but not a .tar.gz")
	}
	return nil
}

// settings are the spec's --conf key=value flags as hbase-site.xml
// overrides (nil when none); the key is trimmed, the value kept as written.
func (s Spec) settings() (map[string]string, error) {
	if len(s.Conf) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, kv := range s.Conf {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fault.Usagef("%s %q: write key=value, e.g. hbase.regionserver.handler.count=30", s.flag("-conf"), kv)
		}
		m[strings.TrimSpace(k)] = v
	}
	// Checked here, with the other flags, not when the side's cluster
	// starts: the other side's JVM may be up by then.
	if err := cluster.ValidateConf(m); err != nil {
		return nil, fault.Usagef("%s: %w", s.flag("-conf"), err)
	}
	return m, nil
}

// Topology is the shape of every cluster regress starts in a run: how many
// region servers (0 and 1: standalone HBase) and each one's heap ("": 1g).
type Topology struct {
	RegionServers int
	RSHeap        string
	// JVMOptsByJDK are the suite's JVM options per JDK major version
	// (suite.Cluster.JVMOptsByJDK).
	JVMOptsByJDK map[string][]string
	// Conf is the suite's hbase-site settings (suite.Cluster.Conf), under
	// each side's own --*-conf.
	Conf map[string]string
}

// Shape is the topology a run starts: each of the flags' values over the
// suite's cluster section.
func Shape(flags Topology, s *suite.Suite) Topology {
	return Topology{RegionServers: cmp.Or(flags.RegionServers, s.Cluster.RegionServers), RSHeap: cmp.Or(flags.RSHeap, s.Cluster.RSHeap),
		JVMOptsByJDK: s.Cluster.JVMOptsByJDK, Conf: s.Cluster.Conf}
}

// Check refuses, as a usage error naming --region-servers and --rs-heap, a
// count or heap no provider starts.
func (t Topology) Check() error {
	if err := cluster.ValidateTopology(t.RegionServers, t.RSHeap); err != nil {
		return fault.Usagef("--region-servers/--rs-heap: %w", err)
	}
	return nil
}

// CheckSuite refuses a suite's cluster section no provider starts, or whose
// region servers outnumber the seed table's regions; its errors name the
// suite's keys (the caller says which suite).
func CheckSuite(s *suite.Suite) error {
	c := s.Cluster
	if err := cluster.ValidateTopology(c.RegionServers, c.RSHeap); err != nil {
		return fault.Usagef("cluster: %w", err)
	}
	if n := c.RegionServers; n > 1 && s.Data.Regions < n {
		return fault.Usagef("cluster.region_servers: %d servers need at least as many seed regions, but data.regions is %d: raise data.regions (a multiple of %d spreads evenly)", n, s.Data.Regions, n)
	}
	return nil
}
