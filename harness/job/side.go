package job

import (
	"fmt"
	"os"
	"strings"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
)

// Side is one side as its flags gave it: a version, a home or a running
// cluster, and where its jars, JDK, settings and store name come from.
type Side struct {
	Version, ZK, Repo, Home, JavaHome, Label string
	// Conf are hbase-site.xml overrides as key=value; JVMOpts extra JVM options.
	Conf, JVMOpts []string
	// Jars go on the started cluster's class path (a coprocessor, a patched build's jar).
	Jars []string
}

// Check validates a side's flags (named for role: baseline, candidate, or
// run for `regress run`'s unprefixed ones): exactly one of a version, a home
// or a running cluster; a repository only with a version; a JDK and conf only
// for clusters regress starts.
func (src Side) Check(role string) (runner.Side, error) {
	s := runner.Side{Role: role, Version: src.Version, ZK: src.ZK, JVMOpts: src.JVMOpts, Repo: src.Repo, Home: src.Home, JavaHome: src.JavaHome, Label: src.Label, Jars: src.Jars}
	fl := func(suffix string) string { return sideFlag(role, suffix) }
	version, zk := src.Version, src.ZK
	switch {
	case src.Repo != "" && version == "" && src.Home == "":
		return s, fault.Usagef("%s needs %s VERSION: the version the repository serves, e.g. 2.6.1", fl("-repo"), fl(""))
	case version == "" && zk == "" && src.Home == "":
		return s, fault.Usagef("give %s VERSION (started locally), %s DIR (an unpacked release or its tarball) or %s HOST:PORT (a running cluster)", fl(""), fl("-home"), fl("-zk"))
	case zk != "" && (version != "" || src.Home != ""):
		return s, fault.Usagef("%s, %s and %s exclude each other: choose one", fl("-zk"), fl(""), fl("-home"))
	case src.Home != "" && src.Repo != "":
		return s, fault.Usagef("%s and %s exclude each other: a home brings its own jars", fl("-home"), fl("-repo"))
	case zk != "" && src.JavaHome != "":
		return s, fault.Usagef("%s applies only to clusters regress starts, not to %s", fl("-java-home"), fl("-zk"))
	}
	if version != "" {
		if err := cluster.ValidateVersion(version); err != nil {
			return s, fault.Usage(err)
		}
	}
	if src.Repo != "" {
		if err := cluster.CheckRepo(src.Repo); err != nil {
			return s, fault.Usagef("%s: %w", fl("-repo"), err)
		}
	}
	if src.Label != "" {
		if err := results.ValidateTarget(src.Label); err != nil {
			return s, fault.Usagef("%s: %w", fl("-label"), err)
		}
	}
	if zk != "" && (len(src.Conf) > 0 || len(src.JVMOpts) > 0 || len(src.Jars) > 0) {
		return s, fault.Usagef("--%s-conf, --%s-jvm-opt and --%s-jar apply only to clusters regress starts, not to --%s-zk", role, role, role, role)
	}
	for _, j := range src.Jars {
		if fi, err := os.Stat(j); err != nil || fi.IsDir() || !strings.HasSuffix(j, ".jar") {
			return s, fault.Usagef("%s %s: not a .jar file; give the path of a built jar (a coprocessor or a patched module)", fl("-jar"), j)
		}
	}
	var err error
	if s.Conf, err = parseConf(role, src.Conf); err != nil {
		return s, err
	}
	return s, nil
}

// sideFlag names a side's flag: --candidate-home, or for `regress run` (one
// side, role "run") --home; suffix "" is the version flag.
func sideFlag(role, suffix string) string {
	if role != "run" {
		return "--" + role + suffix
	}
	if suffix == "" {
		return "--version"
	}
	return "--" + suffix[1:]
}

func parseConf(role string, kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fault.Usage(fmt.Errorf("--%s-conf %q: write key=value, e.g. hbase.regionserver.handler.count=30", role, kv))
		}
		m[strings.TrimSpace(k)] = v
	}
	return m, nil
}
