package loadhosts

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadspec"
	"github.com/regress-hbase/regress/harness/workload"
)

// The task carries the trial's spec as the coordinator made it, through
// JSON, and each host takes its share of it.
func TestTaskCarriesTheSpecAndShares(t *testing.T) {
	p := workload.NewProperties()
	p.Set("recordcount", "1000", "suite smoke data")
	p.Set("operationcount", "1000", "suite smoke data")
	p.Set("readproportion", "0.5", "scenarios/workloada")
	p.Set("columnfamily", "family", "suite smoke data")
	spec, err := loadspec.FromProperties(p)
	if err != nil {
		t.Fatal(err)
	}
	spec.Name, spec.Seed = "workloada", 7
	spec.Schedule = loadgen.Schedule{TargetRate: 3000, Rate: 2000, Workers: 32, Warmup: time.Second, Duration: 5 * time.Second}
	task := Task{Trial: "t1", Build: "b", Protocol: protocol, ZK: "zk:2181", ZNode: "/hbase", Spec: spec, Hosts: []string{"a", "b", "c"}}
	data, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"trial":"t1"`, `"build":"b"`, `"protocol":3`, `"hosts":["a","b","c"]`, `"threads":32`, `"target_rate":3000`, `"workload":{`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("task JSON lacks %s: %s", key, data)
		}
	}
	var back Task
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, task) {
		t.Errorf("task after JSON:\n%+v\nwant\n%+v", back, task)
	}
	if s, ok := back.share("b"); !ok || s != (workload.Share{Index: 1, Of: 3}) {
		t.Errorf("host b's share %+v %v, want 1 of 3", s, ok)
	}
	if _, ok := back.share("z"); ok {
		t.Error("a host the task does not name got a share")
	}
	if hs := back.hostSpec(); hs.Workers != 11 || hs.TargetRate != 3000 || hs.Rate != 2000 || hs.Seed != 7 {
		t.Errorf("a host's spec %+v: want 11 of the fleet's 32 threads, the fleet's rates and seed", hs.Schedule)
	}
	for _, c := range []struct{ threads, hosts, want int }{{32, 3, 11}, {8, 2, 4}, {1, 4, 1}} {
		if got := PerHost(c.threads, c.hosts); got != c.want {
			t.Errorf("PerHost(%d, %d) = %d, want %d", c.threads, c.hosts, got, c.want)
		}
	}
}
