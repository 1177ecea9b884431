package loadhosts

import (
	"testing"

	"github.com/regress-hbase/regress/harness/workload"
)

func TestTaskCarriesPropertiesAndShares(t *testing.T) {
	p := workload.NewProperties()
	p.Set("recordcount", "1000", "suite smoke data")
	p.Set("readproportion", "0.5", "scenarios/workloada")
	var task Task
	task.SetProperties(p)
	task.Hosts = []string{"a", "b", "c"}
	back := task.properties()
	for _, k := range []string{"recordcount", "readproportion"} {
		want, _ := p.Get(k)
		if got, _ := back.Get(k); got != want || back.Source(k) != p.Source(k) {
			t.Errorf("%s: %q from %q, want %q from %q", k, got, back.Source(k), want, p.Source(k))
		}
	}
	if s, ok := task.share("b"); !ok || s != (workload.Share{Index: 1, Of: 3}) {
		t.Errorf("host b's share %+v %v, want 1 of 3", s, ok)
	}
	if _, ok := task.share("z"); ok {
		t.Error("a host the task does not name got a share")
	}
	for _, c := range []struct{ threads, hosts, want int }{{32, 3, 11}, {8, 2, 4}, {1, 4, 1}} {
		if got := PerHost(c.threads, c.hosts); got != c.want {
			t.Errorf("PerHost(%d, %d) = %d, want %d", c.threads, c.hosts, got, c.want)
		}
	}
}
