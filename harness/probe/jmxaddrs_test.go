package probe

import (
	"slices"
	"testing"

	"github.com/regress-hbase/regress/harness/servercost"
)

// TestCountsReadInfoServersAsSutFoundThem: a side read through /jmx has its
// block cache counts read at the same info servers (https:// where they
// speak TLS, the port --*-info-port gave); a side of local processes, or
// one mixed, finds them in ZooKeeper.
func TestCountsReadInfoServersAsSutFoundThem(t *testing.T) {
	jmx := servercost.Servers{{Name: "a", JMX: "https://a:8443"}, {Name: "b", JMX: "b:16030"}}
	if got := jmxAddrs(jmx); !slices.Equal(got, []string{"https://a:8443", "b:16030"}) {
		t.Errorf("servers read through /jmx: %v", got)
	}
	for _, ss := range []servercost.Servers{nil, {{Name: "rs1", PID: 42}}, {{Name: "a", JMX: "a:1"}, {Name: "rs1", PID: 42}}} {
		if got := jmxAddrs(ss); got != nil {
			t.Errorf("%+v: %v, want nil (ZooKeeper's)", ss, got)
		}
	}
}
