package cluster

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"maps"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// portKeys are the hbase-site keys that name a TCP port the standalone binds.
var portKeys = []string{
	"hbase.zookeeper.property.clientPort",
	"hbase.master.port",
	"hbase.regionserver.port",
	"hbase.master.info.port",
	"hbase.regionserver.info.port",
}

// ValidateConf refuses malformed overrides (a key that is no property name,
// a port that is no port) without touching the machine: callers check a
// side's flags with it before any cluster of the run starts.
func ValidateConf(conf map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(conf)) {
		if strings.TrimSpace(k) == "" || strings.ContainsFunc(k, func(r rune) bool {
			return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune("<>&\"'", r)
		}) {
			return fmt.Errorf("invalid hbase-site key %q (value %q): keys are property names such as hbase.regionserver.handler.count", k, conf[k])
		}
	}
	for _, k := range portKeys {
		v, ok := conf[k]
		if !ok {
			continue
		}
		p, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || p < -1 || p > 65535 {
			return fmt.Errorf("invalid port %s=%q: use a number from 1 to 65535 (0 or -1 where HBase allows it)", k, v)
		}
	}
	return nil
}

// checkConf refuses malformed overrides and ports that are already taken,
// before anything is started.
func checkConf(conf map[string]string) error {
	if err := ValidateConf(conf); err != nil {
		return err
	}
	for _, k := range portKeys {
		v, ok := conf[k]
		if !ok {
			continue
		}
		p, _ := strconv.Atoi(strings.TrimSpace(v))
		if p <= 0 {
			continue
		}
		if err := portFree(p); err != nil {
			return fmt.Errorf("%w: %s=%d: something already listens on 127.0.0.1:%d; stop it or choose another port (%v)", ErrPortInUse, k, p, p, err)
		}
	}
	return nil
}

// portFree checks that 127.0.0.1:p can be bound now.
func portFree(p int) error {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	if err != nil {
		return err
	}
	return l.Close()
}

// freePorts returns n distinct loopback ports that were free a moment ago,
// chosen at random below the kernel's ephemeral range when it leaves room:
// an outgoing connection (HBase's own clients, a second cluster starting
// beside this one) takes its local port from that range, and took a port
// chosen there before HBase bound it. A rare clash left is retried (launch).
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	lo, hi := portPool()
	ports := make([]int, 0, n)
	for range n {
		l, err := listenInPool(lo, hi)
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// pickPorts chooses a start's ports: freePorts, or a test's stand-in.
var pickPorts = freePorts

// poolFloor is the lowest port freePorts picks: clear of the registered
// services most machines run.
const poolFloor = 10000

// portPool is the range [lo, hi) freePorts picks from: poolFloor up to the
// start of the ephemeral range, or (0, 0) when that leaves under 1,000
// ports or the range cannot be read (then the kernel picks).
func portPool() (lo, hi int) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0, 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, 0
	}
	eph, err := strconv.Atoi(f[0])
	if err != nil || eph-poolFloor < 1000 {
		return 0, 0
	}
	return poolFloor, eph
}

// listenInPool binds a random free port in [lo, hi), or one the kernel
// picks when the pool is empty or a few tries all found taken ports.
func listenInPool(lo, hi int) (net.Listener, error) {
	for range 32 {
		if hi <= lo {
			break
		}
		p := lo + rand.IntN(hi-lo)
		if l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p))); err == nil {
			return l, nil
		}
	}
	return net.Listen("tcp", "127.0.0.1:0")
}

// siteConf builds the standalone hbase-site settings for a work dir and ports,
// with the user's overrides applied last.
func siteConf(workDir string, zkPort, masterPort, rsPort int, overrides map[string]string) map[string]string {
	c := map[string]string{
		"hbase.cluster.distributed":              "false",
		"hbase.rootdir":                          "file://" + filepath.ToSlash(filepath.Join(workDir, "hbase")),
		"hbase.tmp.dir":                          filepath.Join(workDir, "tmp"),
		"hbase.zookeeper.property.dataDir":       filepath.Join(workDir, "zk"),
		"hbase.zookeeper.quorum":                 "127.0.0.1",
		"hbase.zookeeper.property.clientPort":    strconv.Itoa(zkPort),
		"hbase.master.port":                      strconv.Itoa(masterPort),
		"hbase.regionserver.port":                strconv.Itoa(rsPort),
		"hbase.master.info.port":                 "-1",
		"hbase.regionserver.info.port":           "-1",
		"hbase.master.ipc.address":               "127.0.0.1",
		"hbase.regionserver.ipc.address":         "127.0.0.1",
		"hbase.master.hostname":                  "127.0.0.1",
		"hbase.unsafe.regionserver.hostname":     "127.0.0.1",
		"hbase.localcluster.assign.random.ports": "false",
		// Standalone has one region server: once it reports, the master need
		// not wait out the 4.5 s default for more.
		"hbase.master.wait.on.regionservers.mintostart": "1",
		"hbase.master.wait.on.regionservers.maxtostart": "1",
		// ZooKeeper runs inside the same JVM: when it is gone it is not coming
		// back. At shutdown the hooks run in any order, and with the default 3
		// retries at 1 s backoff the region server kept retrying a ZooKeeper
		// already stopped for ~20 s. One quick retry still covers a transient
		// connection loss under load.
		"zookeeper.recovery.retry":              "1",
		"zookeeper.recovery.retry.intervalmill": "100",
		// Standalone HBase gives its region server a 10 s ZooKeeper session
		// (HMasterCommandLine's ".localHBaseCluster" default): a 10 s stall
		// of a busy shared VM, or a SIGSTOP of that length, expired it and
		// the server aborted mid-run. ZooKeeper caps what it grants at 20
		// ticks (40 s); a real cluster's sessions are 90 s asked.
		"zookeeper.session.timeout.localHBaseCluster": "60000",
		// A file:// root dir has no hflush/hsync; HBase refuses it unless told.
		"hbase.unsafe.stream.capability.enforce": "false",
	}
	for k, v := range overrides {
		c[k] = v
	}
	return c
}

// siteXML renders settings as hbase-site.xml, keys sorted for stable diffs.
func siteXML(conf map[string]string) []byte {
	keys := make([]string, 0, len(conf))
	for k := range conf {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("<?xml version=\"1.0\"?>\n<configuration>\n")
	for _, k := range keys {
		b.WriteString("  <property><name>")
		_ = xml.EscapeText(&b, []byte(k))
		b.WriteString("</name><value>")
		_ = xml.EscapeText(&b, []byte(conf[k]))
		b.WriteString("</value></property>\n")
	}
	b.WriteString("</configuration>\n")
	return b.Bytes()
}

// log4j2Config sends all HBase logging to one file per cluster.
func log4j2Config(logPath string) []byte {
	return []byte(`status = warn
name = regress
appender.file.type = File
appender.file.name = file
appender.file.fileName = ` + strings.ReplaceAll(logPath, `\`, `\\`) + `
appender.file.append = true
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{ISO8601} %-5p [%t] %c{2}: %m%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = file
logger.zookeeper.name = org.apache.zookeeper
logger.zookeeper.level = WARN
logger.zkserver.name = org.apache.zookeeper.server.ZooKeeperServer
logger.zkserver.level = ERROR
logger.hadoop.name = org.apache.hadoop
logger.hadoop.level = WARN
logger.hbase.name = org.apache.hadoop.hbase
logger.hbase.level = INFO
`)
}

// log4jConfig is log4j2Config for homes that log through log4j 1.x (1.x and
// 2.4 tarballs): the conf dir leads the classpath, where log4j 1 looks.
func log4jConfig(logPath string) []byte {
	return []byte(`log4j.rootLogger=INFO,file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=` + strings.ReplaceAll(logPath, `\`, `\\`) + `
log4j.appender.file.Append=true
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{2}: %m%n
log4j.logger.org.apache.zookeeper=WARN
log4j.logger.org.apache.zookeeper.server.ZooKeeperServer=ERROR
log4j.logger.org.apache.hadoop=WARN
log4j.logger.org.apache.hadoop.hbase=INFO
`)
}

// writeConf writes hbase-site.xml, log4j2.properties and log4j.properties into dir.
func writeConf(dir string, site map[string]string, logPath string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating conf dir %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hbase-site.xml"), siteXML(site), 0o644); err != nil {
		return fmt.Errorf("writing hbase-site.xml in %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "log4j2.properties"), log4j2Config(logPath), 0o644); err != nil {
		return fmt.Errorf("writing log4j2.properties in %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "log4j.properties"), log4jConfig(logPath), 0o644); err != nil {
		return fmt.Errorf("writing log4j.properties in %s: %w", dir, err)
	}
	return nil
}

// jdk17Flags are the module flags bin/hbase adds on JDK 11+; without them
// HBase's netty and Hadoop's reflection fail on JDK 17.
var jdk17Flags = []string{
	"-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
	"--add-modules", "jdk.unsupported",
	"--add-opens", "java.base/java.io=ALL-UNNAMED",
	"--add-opens", "java.base/java.nio=ALL-UNNAMED",
	"--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-opens", "java.base/java.lang=ALL-UNNAMED",
	"--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
	"--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
	"--add-opens", "java.base/java.util=ALL-UNNAMED",
	"--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED",
	"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
	"--add-exports", "java.security.jgss/sun.security.krb5=ALL-UNNAMED",
	"--add-exports", "java.base/sun.net.dns=ALL-UNNAMED",
	"--add-exports", "java.base/sun.net.util=ALL-UNNAMED",
}

// DefaultRSHeap is the heap (-Xmx) of every JVM a local cluster starts when
// neither --rs-heap nor a -Xmx option sets one: a fixed heap keeps runs
// comparable across machines of different memory.
const DefaultRSHeap = "1g"

// javaArgs builds the JVM command line for a standalone HMaster: heap is
// its -Xmx ("" for DefaultRSHeap), after the user's options so --rs-heap wins.
func javaArgs(jdk int, confDir string, jars []string, heap string, userOpts []string) []string {
	return jvmArgs(jdk, confDir, jars, DefaultRSHeap, heap, userOpts, classHMaster, "start")
}

// Main classes of the JVMs a local cluster runs.
const (
	classHMaster       = "org.apache.hadoop.hbase.master.HMaster"
	classHRegionServer = "org.apache.hadoop.hbase.regionserver.HRegionServer"
	// ZooKeeper's own single-server main, in the zookeeper jar every HBase
	// release depends on: unlike HBase's HQuorumPeer it needs no quorum
	// entry matching this host's interfaces, and it takes its port and data
	// dir as arguments from 3.4 to 3.8.
	classZooKeeper = "org.apache.zookeeper.server.ZooKeeperServerMain"
)

// jvmArgs builds a JVM command line running main with args: defHeap is the
// -Xmx unless the user's options set one, heap (when set) the -Xmx that
// wins over both; confDir leads the class path (hbase-site.xml, log4j).
func jvmArgs(jdk int, confDir string, jars []string, defHeap, heap string, userOpts []string, main string, args ...string) []string {
	var out []string
	hasHeap := false
	for _, o := range userOpts {
		if strings.HasPrefix(o, "-Xmx") || strings.HasPrefix(o, "-XX:MaxRAM") {
			hasHeap = true
		}
	}
	if !hasHeap && heap == "" {
		// A fixed default heap keeps runs comparable across machines of different RAM.
		out = append(out, "-Xmx"+defHeap)
	}
	if jdk >= 11 {
		out = append(out, jdk17Flags...)
	}
	out = append(out,
		"-Djava.net.preferIPv4Stack=true",
		"-Dzookeeper.admin.enableServer=false",
		"-Dlog4j2.configurationFile="+filepath.Join(confDir, "log4j2.properties"),
	)
	out = append(out, userOpts...)
	if heap != "" {
		out = append(out, "-Xmx"+heap)
	}
	cp := append([]string{confDir}, jars...)
	out = append(out, "-cp", strings.Join(cp, string(os.PathListSeparator)), main)
	return append(out, args...)
}
