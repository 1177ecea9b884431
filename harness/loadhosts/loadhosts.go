// Package loadhosts lets several load hosts drive one trial as one client.
// Each host runs `regress worker`, which registers in the cluster's own
// ZooKeeper and waits; the coordinator (the `regress` process that runs the
// trials) writes each trial as a task naming the hosts, waits until every
// host has prepared, opens a barrier, and collects every host's histograms,
// which add exactly into the trial's result.
//
// Host i of N runs every N-th slot of the one global open-loop schedule from
// slot i (loadgen.Config.Share), its share of the operation count, and its
// own disjoint run-phase insert keys (workload.Share), so the union of the
// hosts' work is exactly the schedule one host would run. Every host starts
// its schedule at one agreed instant: the coordinator writes it into the
// barrier on ZooKeeper's clock, and each host, having read its own clock
// against ZooKeeper's (Clock), places it on its own. So a duet's two trials
// start together on every host, and the coordinator knows the measurement
// window's edges to read the servers at. Latencies are each host's own.
//
// The znodes, under Root (DefaultRoot unless set):
//
//	hosts/<id>                   ephemeral, one per waiting worker (JSON Host)
//	trials/<trial>               the task (JSON Task)
//	trials/<trial>/ready/<id>    ephemeral: the host has prepared (JSON: its Clock)
//	trials/<trial>/go            the barrier (JSON: the start instant on ZooKeeper's clock)
//	clocks/<id>                  ephemeral, written to read ZooKeeper's clock (Clock)
//	trials/<trial>/done/<id>     the host's report (JSON), its interval log in chunks below
//
// The coordinator deletes a trial's znodes when the trial ends, however it ends.
package loadhosts

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadspec"
	"github.com/regress-hbase/regress/harness/workload"
)

// DefaultRoot is the znode under which load hosts register and trials are handed out.
const DefaultRoot = "/regress-load"

// protocol is the version of the task and report formats; hosts of another
// refuse. 2: the task carries the trial's loadspec.Spec (typed workload,
// fleet's threads) instead of YCSB properties and per-host threads. 3: the
// barrier carries the agreed start, the ready znode the host's clock.
const protocol = 3

// Protocol is the task and report format this build's workers and
// coordinator speak: `regress version` prints it beside Build.
func Protocol() int { return protocol }

// Host is a registered load host, as its znode says.
type Host struct {
	// ID is the host's znode name, unique per worker process.
	ID string `json:"id"`
	// Hostname and PID say where the worker runs, for errors.
	Hostname string `json:"hostname"`
	PID      int    `json:"pid"`
	// Build identifies the regress binary; a coordinator refuses hosts of another build.
	Build string `json:"build"`
	// Protocol is the task format the host speaks.
	Protocol int `json:"protocol"`
	// Started is when the worker registered.
	Started time.Time `json:"started"`
}

// Name says which host this is, for messages: hostname:pid (id).
func (h Host) Name() string { return fmt.Sprintf("%s:%d (%s)", h.Hostname, h.PID, h.ID) }

// Task is one trial as every load host runs its share of it.
type Task struct {
	// Trial names the trial; it is the trial's znode name.
	Trial string `json:"trial"`
	// Build and Protocol must match the host's.
	Build    string `json:"build"`
	Protocol int    `json:"protocol"`
	// ZK and ZNode locate the HBase cluster to drive.
	ZK    string `json:"zk"`
	ZNode string `json:"znode"`
	// Spec is the trial's load as the coordinator made it, the fleet's
	// totals (rate, threads, operation count) included: each host runs
	// its share (PerHost threads, every len(Hosts)-th slot). Its fields
	// are the task's own in the JSON.
	loadspec.Spec
	// Hosts are the host IDs in share order: Hosts[i] runs share i of len(Hosts).
	Hosts []string `json:"hosts"`
}

// share returns host id's share of t, or false when t does not name it.
func (t *Task) share(id string) (workload.Share, bool) {
	for i, h := range t.Hosts {
		if h == id {
			return workload.Share{Index: i, Of: len(t.Hosts)}, true
		}
	}
	return workload.Share{}, false
}

// hostSpec is the load one host of t's fleet runs: the fleet's spec with
// the host's part of the threads.
func (t *Task) hostSpec() loadspec.Spec {
	s := t.Spec
	s.Workers = PerHost(s.Workers, len(t.Hosts))
	return s
}

// PerHost is each of hosts load hosts' share of a client's threads, so the
// fleet has at least the client's concurrency.
func PerHost(threads, hosts int) int { return max(1, (threads+hosts-1)/max(hosts, 1)) }

// HostResult is what one host ran in a trial, kept in the trial's manifest.
type HostResult struct {
	// Host is the host that ran the share, Share its index.
	Host  Host `json:"host"`
	Share int  `json:"share"`
	// Result is the host's own measurement window.
	Result *loadgen.Result `json:"-"`
	// ClockAhead is how far the host's clock is ahead of the coordinator's,
	// both read against ZooKeeper's; ClockError bounds it.
	ClockAhead time.Duration
	ClockError time.Duration
	// Lead is how long before the agreed start the host saw the barrier
	// (negative: it started late, by that much).
	Lead time.Duration
}

var (
	buildOnce sync.Once
	build     string
)

// Build identifies this regress binary: the module version and VCS revision
// it was built from (with +dirty for a modified tree), or, for a binary
// without that information (go test, go run), a hash of the executable.
func Build() string {
	buildOnce.Do(func() { build = readBuild() })
	return build
}

func readBuild() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+dirty"
				}
			}
		}
		if rev != "" && dirty == "" {
			return bi.Main.Version + " " + rev
		}
	}
	// Without a clean revision, the bytes of the binary decide.
	exe, err := os.Executable()
	if err == nil {
		if f, err := os.Open(exe); err == nil {
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				return "binary " + hex.EncodeToString(h.Sum(nil))[:16]
			}
		}
	}
	return "unknown"
}
