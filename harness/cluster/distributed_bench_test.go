package cluster

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkLocalClusterStart starts a local cluster of 1, 2 and 3 region
// servers (default heaps) and reports how long Start took until ready and
// the resident memory of all its JVMs, read from /proc once ready and again
// after 20 s idle (make bench-cluster). Figures, not assertions.
func BenchmarkLocalClusterStart(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("reads resident memory from /proc")
	}
	for _, n := range []int{1, 2, 3} {
		b.Run(fmt.Sprintf("region_servers=%d", n), func(b *testing.B) {
			for range b.N {
				start := time.Now()
				c, err := NewLocal("").Start(context.Background(), Spec{Version: testVersion(), RegionServers: n, StartTimeout: 5 * time.Minute})
				if err != nil {
					b.Fatal(err)
				}
				took := time.Since(start)
				ready := rssOf(b, c)
				time.Sleep(20 * time.Second)
				idle := rssOf(b, c)
				stopStart := time.Now()
				if err := c.Stop(context.Background()); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(took.Seconds(), "s_to_ready")
				b.ReportMetric(time.Since(stopStart).Seconds(), "s_to_stop")
				b.ReportMetric(float64(ready.total)/(1<<20), "MiB_rss_ready")
				b.ReportMetric(float64(idle.total)/(1<<20), "MiB_rss_idle")
				b.Logf("%d region server(s): ready in %s; RSS at ready %s; after 20 s idle %s", n, took.Round(100*time.Millisecond), ready, idle)
			}
		})
	}
}

// rss is the resident memory of a cluster's JVMs.
type rss struct {
	total  int64
	byRole []string
}

func (r rss) String() string {
	return fmt.Sprintf("%d MiB (%s)", r.total>>20, strings.Join(r.byRole, ", "))
}

func rssOf(b *testing.B, c Cluster) rss {
	b.Helper()
	var out rss
	for _, p := range c.(Processes).Processes() {
		kb, err := vmRSSKiB(p.PID)
		if err != nil {
			b.Fatalf("%s JVM: %v", p.Role, err)
		}
		out.total += kb << 10
		out.byRole = append(out.byRole, fmt.Sprintf("%s %d", p.Role, kb>>10))
	}
	return out
}

// vmRSSKiB reads VmRSS of pid from /proc/<pid>/status.
func vmRSSKiB(pid int) (int64, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}
