package cluster

import (
	"log/slog"
	"os"
	"regexp"

	"github.com/regress-hbase/regress/harness/version"
)

// randomInfoPort reports whether a standalone HBase of version v puts its
// region server's info server on a port of its own choosing: 0.98's
// LocalHBaseCluster sets every region server port to 0 (random) whatever
// hbase-site says; hbase.localcluster.assign.random.ports came with 1.x.
func randomInfoPort(v string) bool {
	maj, _, ok := version.Line(v)
	return ok && maj == 0
}

// jettyRegionServer is the line 0.98's region server info server logs as
// Jetty unpacks its web app into a folder named after the address it bound:
// "... hbase-webapps/regionserver to /tmp/Jetty_0_0_0_0_35925_regionserver____calw3q/webapp".
var jettyRegionServer = regexp.MustCompile(`Jetty_(?:[0-9]+_){4}([0-9]+)_regionserver`)

// infoPortInLog is the region server info server's port as the HBase log
// names it, "" when it names none.
func infoPortInLog(log []byte) string {
	m := jettyRegionServer.FindAllSubmatch(log, -1)
	if len(m) == 0 {
		return ""
	}
	return string(m[len(m)-1][1])
}

// findInfoPort points the cluster's info address (and the agent's) at the
// port the region server's info server took, read from the HBase log, for
// a version that ignores the configured one; without it the agent's bean
// is not read and alloc_per_op is the whole JVM's (said in a warning).
func (c *localCluster) findInfoPort(log *slog.Logger) {
	b, err := os.ReadFile(c.logPath)
	port := ""
	if err == nil {
		port = infoPortInLog(b)
	}
	if port == "" {
		log.Warn("the region server's info server took a port of its own and the HBase log does not name it: its /jmx (regress's agent) is not read, so alloc_per_op is the whole JVM's, from its GC log", "configured", c.infoAddr, "log", c.logPath)
		return
	}
	was := c.infoAddr
	c.infoAddr = infoAddr(port)
	if c.main != nil && c.main.agent != "" {
		c.main.agent = c.infoAddr
	}
	log.Info("this HBase line ignores the configured region server info port (its standalone picks one): its info server found in the HBase log", "configured", was, "info", c.infoAddr)
}
