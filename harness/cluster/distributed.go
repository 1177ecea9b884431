package cluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/regress-hbase/regress/harness/servercost"
)

// Limits of Spec.RegionServers and Spec.RSHeap.
const (
	// MaxRegionServers bounds --region-servers: every region server is a JVM
	// with its own heap on this one machine.
	MaxRegionServers = 16
	// minRSHeapBytes is the smallest heap a region server starts with: below
	// it the memstore and block cache shares leave HBase too little to run.
	minRSHeapBytes = 256 << 20
)

// Heaps of the pseudo-distributed cluster's other JVMs: the master holds no
// user regions, ZooKeeper a few hundred znodes.
const (
	masterHeap    = "512m"
	zookeeperHeap = "256m"
)

// Roles of the JVMs of a pseudo-distributed cluster.
const (
	roleZooKeeper = "zookeeper"
	roleMaster    = "master"
)

// roleRegionServer names region server i (1-based).
func roleRegionServer(i int) string { return fmt.Sprintf("region server %d", i) }

var heapRE = regexp.MustCompile(`^([1-9][0-9]*)([kKmMgG])$`)

// ParseHeap reads a JVM heap size such as 512m or 2g into bytes.
func ParseHeap(h string) (int64, error) {
	m := heapRE.FindStringSubmatch(h)
	if m == nil {
		return 0, fmt.Errorf("heap %q: write a size with a unit, e.g. 512m or 2g (it becomes the JVM's -Xmx)", h)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || n > 1<<40 {
		return 0, fmt.Errorf("heap %q: too large", h)
	}
	shift := map[string]uint{"k": 10, "m": 20, "g": 30}[strings.ToLower(m[2])]
	return n << shift, nil
}

// ValidateTopology checks a region server count and heap before anything
// starts; flag and suite errors name their own key around it.
func ValidateTopology(regionServers int, rsHeap string) error {
	if regionServers < 0 || regionServers > MaxRegionServers {
		return fmt.Errorf("region servers: %d is out of range: use 1 (standalone HBase, the default) up to %d", regionServers, MaxRegionServers)
	}
	if rsHeap == "" {
		return nil
	}
	b, err := ParseHeap(rsHeap)
	if err != nil {
		return err
	}
	if b < minRSHeapBytes {
		return fmt.Errorf("heap %q is below 256m: a region server needs at least that much to start", rsHeap)
	}
	if mem := machineMemory(); mem > 0 && b > mem {
		return fmt.Errorf("heap %q is more than this machine's memory (%d MiB): give each region server a heap that fits beside the others, e.g. 1g or 2g", rsHeap, mem>>20)
	}
	return nil
}

// machineMemory is this machine's memory in bytes (MemTotal of /proc/meminfo;
// 0 when unknown): a region server heap beyond it could only swap, and one
// beyond the address space fails when its JVM starts.
var machineMemory = func() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "MemTotal:" && strings.EqualFold(f[2], "kB") {
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return n << 10
			}
		}
	}
	return 0
}

// perServerKeys are set for each region server of a pseudo-distributed
// cluster: one value for all of them would make them clash.
var perServerKeys = []string{"hbase.regionserver.port", "hbase.regionserver.info.port"}

// checkTopology refuses a spec the pseudo-distributed path cannot honour.
func checkTopology(s Spec) error {
	if err := ValidateTopology(s.RegionServers, s.RSHeap); err != nil {
		return err
	}
	if s.RegionServers < 2 {
		return nil
	}
	for _, k := range perServerKeys {
		if _, ok := s.Conf[k]; ok {
			return fmt.Errorf("%s cannot be set with %d region servers: each gets its own free port (drop the override)", k, s.RegionServers)
		}
	}
	return nil
}

// startStandalone starts one HMaster JVM holding the master, a region server
// and ZooKeeper: today's standalone HBase, which everything else is tested on.
func (c *localCluster) startStandalone(s Spec, ln launch) error {
	wd := c.workDir
	ports, err := pickPorts(4)
	if err != nil {
		return err
	}
	site := siteConf(wd, ports[0], ports[1], ports[2], s.Conf)
	if _, set := s.Conf["hbase.regionserver.info.port"]; s.InfoServer && !set {
		// The region server's info server serves /jmx, where HBase's own
		// per-call times are read (make bench-fidelity).
		site["hbase.regionserver.info.port"] = strconv.Itoa(ports[3])
	}
	logDir := filepath.Join(wd, "logs")
	c.logPath = filepath.Join(logDir, "hbase.log")
	confDir := filepath.Join(wd, "conf")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return fmt.Errorf("creating log dir %s: %w", logDir, err)
	}
	if err := writeConf(confDir, site, c.logPath); err != nil {
		return err
	}
	c.zkAddr = "127.0.0.1:" + site["hbase.zookeeper.property.clientPort"]
	c.infoAddr = infoAddr(site["hbase.regionserver.info.port"])
	c.parent = site["zookeeper.znode.parent"]
	c.regionServers = 1
	c.info.Version, c.info.JDK, c.info.RegionServers, c.info.RSHeap = ln.version, ln.jdk, 1, s.RSHeap
	// The GC log says what each collection freed: servercost's allocation figure.
	gcLog := filepath.Join(logDir, "hbase-gc.log")
	opts := append(servercost.GCLogOptions(ln.jdk.Major, gcLog), s.JVMOpts...)
	if c.infoAddr != "" {
		opts = append(opts, ln.agent...)
	}
	main, args := ln.mainArgs(classHMaster, "start")
	j, err := c.startJVM(ln.jdk.Java, jvmArgs(ln.jdk.Major, confDir, ln.jars, DefaultRSHeap, s.RSHeap, opts, main, args...), "", c.logPath, gcLog)
	if err != nil {
		return err
	}
	if c.infoAddr != "" && len(ln.agent) > 0 {
		j.agent = c.infoAddr
	}
	c.main, c.info.PID = j, j.pgid
	c.log.Info("HBase JVM started", "pid", j.pgid, "jdk", ln.jdk.String(), "zookeeper", c.zkAddr, "log", c.logPath, "workdir", wd)
	return nil
}

// distSiteConf is the hbase-site of a pseudo-distributed cluster's master
// and region servers: standalone's loopback settings, with the cluster
// distributed over JVMs, the master waiting for all n region servers before
// it assigns, and the user's overrides last.
func distSiteConf(workDir string, zkPort, masterPort, n int, overrides map[string]string) map[string]string {
	c := siteConf(workDir, zkPort, masterPort, 0, nil)
	c["hbase.cluster.distributed"] = "true"
	// Without all n servers checked in, the master would put hbase:meta and
	// the first tables on whichever came first.
	c["hbase.master.wait.on.regionservers.mintostart"] = strconv.Itoa(n)
	c["hbase.master.wait.on.regionservers.maxtostart"] = strconv.Itoa(n)
	// ZooKeeper is its own JVM here and outlives the servers at shutdown:
	// HBase's retries to reach it (3 at 1 s) cover a busy moment again.
	delete(c, "zookeeper.recovery.retry")
	delete(c, "zookeeper.recovery.retry.intervalmill")
	// The periodic balancer would move regions while a trial measures them;
	// the lifecycle balances the seed table itself before its snapshot.
	c["hbase.balancer.period"] = strconv.Itoa(int((24 * time.Hour).Milliseconds()))
	delete(c, "hbase.regionserver.port") // per server
	maps.Copy(c, overrides)
	return c
}

// regionServerConf is region server i's hbase-site: its own ports and tmp dir.
func regionServerConf(base map[string]string, workDir string, i, port, infoPort int) map[string]string {
	c := maps.Clone(base)
	c["hbase.regionserver.port"] = strconv.Itoa(port)
	c["hbase.regionserver.info.port"] = strconv.Itoa(infoPort)
	c["hbase.tmp.dir"] = filepath.Join(workDir, "tmp", fmt.Sprintf("rs%d", i))
	return c
}

// startDistributed starts a pseudo-distributed cluster: ZooKeeper first (the
// servers give up on a ZooKeeper that does not answer), then the master and
// the region servers at once. Each JVM has its own conf dir (hbase-site.xml,
// log4j config naming its log) under conf/, its log under logs/.
func (c *localCluster) startDistributed(ctx context.Context, s Spec, ln launch, timeout time.Duration) error {
	wd, n := c.workDir, s.RegionServers
	ports, err := pickPorts(2 + 2*n)
	if err != nil {
		return err
	}
	zkPort, masterPort := ports[0], ports[1]
	base := distSiteConf(wd, zkPort, masterPort, n, s.Conf)
	logDir := filepath.Join(wd, "logs")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return fmt.Errorf("creating log dir %s: %w", logDir, err)
	}
	type plan struct {
		role, conf, gcLog, agent string
		site                     map[string]string
		args                     []string
	}
	heap := s.RSHeap
	if heap == "" {
		heap = DefaultRSHeap
	}
	zkData := filepath.Join(wd, "zk")
	if err := os.MkdirAll(zkData, 0o755); err != nil {
		return fmt.Errorf("creating ZooKeeper data dir %s: %w", zkData, err)
	}
	plans := []plan{
		{role: roleZooKeeper, conf: "zookeeper", site: base},
		{role: roleMaster, conf: "master", site: base},
	}
	for i := 1; i <= n; i++ {
		info := -1
		if s.InfoServer {
			info = ports[1+n+i]
		}
		pl := plan{role: roleRegionServer(i), conf: fmt.Sprintf("regionserver-%d", i),
			site: regionServerConf(base, wd, i, ports[1+i], info)}
		if info > 0 && len(ln.agent) > 0 {
			pl.agent = "127.0.0.1:" + strconv.Itoa(info)
		}
		plans = append(plans, pl)
	}
	logs := map[string]string{}
	for i := range plans {
		p := &plans[i]
		confDir := filepath.Join(wd, "conf", p.conf)
		logPath := filepath.Join(logDir, p.conf+".log")
		logs[p.role] = logPath
		if err := writeConf(confDir, p.site, logPath); err != nil {
			return err
		}
		switch p.role {
		case roleZooKeeper:
			// ZooKeeper 3.4 (HBase 1.x) registers log4j JMX beans that 1.7's
			// reload4j jar lacks; the beans serve nothing here.
			p.args = jvmArgs(ln.jdk.Major, confDir, ln.jars, zookeeperHeap, "", []string{"-Dzookeeper.jmx.log4j.disable=true"},
				classZooKeeper, strconv.Itoa(zkPort), zkData)
		case roleMaster:
			main, args := ln.mainArgs(classHMaster, "start")
			p.args = jvmArgs(ln.jdk.Major, confDir, ln.jars, masterHeap, "", s.JVMOpts, main, args...)
		default:
			p.gcLog = filepath.Join(logDir, p.conf+"-gc.log")
			opts := append(servercost.GCLogOptions(ln.jdk.Major, p.gcLog), s.JVMOpts...)
			if p.agent != "" {
				opts = append(opts, ln.agent...)
			}
			main, args := ln.mainArgs(classHRegionServer, "start")
			p.args = jvmArgs(ln.jdk.Major, confDir, ln.jars, DefaultRSHeap, heap, opts, main, args...)
		}
	}
	c.logPath = logs[roleMaster]
	c.zkAddr = "127.0.0.1:" + strconv.Itoa(zkPort)
	c.parent = base["zookeeper.znode.parent"]
	c.regionServers = n
	if s.InfoServer {
		c.infoAddr = infoAddr(strconv.Itoa(ports[2+n]))
	}
	c.info.Version, c.info.JDK, c.info.RegionServers, c.info.RSHeap = ln.version, ln.jdk, n, s.RSHeap
	c.log.Info("starting a pseudo-distributed HBase", "region_servers", n, "rs_heap", heap, "jdk", ln.jdk.String(),
		"zookeeper", c.zkAddr, "master_log", c.logPath, "workdir", wd)

	if _, err := c.startJVM(ln.jdk.Java, plans[0].args, plans[0].role, logs[roleZooKeeper], ""); err != nil {
		return err
	}
	if err := c.waitZooKeeper(ctx, timeout); err != nil {
		return err
	}
	for _, p := range plans[1:] {
		j, err := c.startJVM(ln.jdk.Java, p.args, p.role, logs[p.role], p.gcLog)
		if err != nil {
			return err
		}
		j.agent = p.agent
		if p.role == roleMaster {
			c.main, c.info.PID = j, j.pgid
		}
	}
	return nil
}

// waitZooKeeper waits until the ZooKeeper JVM serves sessions.
func (c *localCluster) waitZooKeeper(ctx context.Context, timeout time.Duration) error {
	return c.pollStart(ctx, timeout, 200*time.Millisecond, 5*time.Second,
		func(ctx context.Context) error {
			return zkCheck(ctx, c.zkAddr, func(conn *zk.Conn) error {
				_, _, err := conn.Exists("/")
				return err
			})
		},
		func(err error) error {
			return fmt.Errorf("starting HBase %s: waiting for its ZooKeeper %s: %w", c.version, c.zkAddr, err)
		},
		func(last error) error {
			return c.startError(fmt.Sprintf("its ZooKeeper did not serve within %s (last: %v)", timeout, last), filepath.Join(c.workDir, "logs", "zookeeper.log"))
		})
}

// RegionServersReady returns a check that passes once n region servers have
// registered with ZooKeeper (the children of <parent>/rs).
func RegionServersReady(n int) ReadyCheck {
	return func(ctx context.Context, c Cluster) error {
		rs := path.Join(znodeParent(c), "rs")
		return zkCheck(ctx, c.ZKAddr(), func(conn *zk.Conn) error {
			kids, _, err := conn.Children(rs)
			if errors.Is(err, zk.ErrNoNode) {
				return fmt.Errorf("znode %s not yet created", rs)
			}
			if err != nil {
				return fmt.Errorf("ZooKeeper %s: listing %s: %w", c.ZKAddr(), rs, err)
			}
			if len(kids) < n {
				return fmt.Errorf("%d of %d region servers registered", len(kids), n)
			}
			return nil
		})
	}
}
