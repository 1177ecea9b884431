// Package loadspec is one run's load, described once: the typed workload,
// how the binding meets the table (column family, durability) and the
// schedule (the rate already clamped, workers, windows, count) with its
// seed. The suite makes one for each trial; a load host receives it in its
// task unchanged; binding.NewRun builds its workers once; loadgen runs them.
// It knows no HBase type: durability is YCSB's name for it.
package loadspec

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// Spec is one run's load.
type Spec struct {
	// Name names the workload in messages: a suite's workload file, a case.
	Name string `json:"name"`
	// Workload is the core workload's settings, read once; its Table is the
	// table the run reads and writes.
	Workload workload.Config `json:"workload"`
	// Family is the column family the binding reads and writes.
	Family string `json:"columnfamily"`
	// Durability is how the binding's writes use the WAL.
	Durability Durability `json:"durability"`
	// Schedule is the rate (asked for, and paced to after the per-server
	// clamp), the workers, the windows and the operation count; a load
	// host's task carries the fleet's, and each host takes its share.
	loadgen.Schedule
	// Seed fixes the workers' draws: worker i draws with Seed+i.
	Seed int64 `json:"seed"`
	// Insert, when set, makes the run a load phase that inserts the
	// workload's load rows (MaxOps slots of Insert.Batch rows); nil runs
	// the workload's transactions.
	Insert *loadgen.Inserts `json:"insert,omitempty"`
}

// Validate says whether s can be built into a run: its workload, family and
// durability (loadgen checks the schedule when it runs).
func (s Spec) Validate() error {
	var errs []error
	if err := s.Workload.Validate(); err != nil {
		errs = append(errs, err)
	}
	if strings.TrimSpace(s.Family) == "" {
		errs = append(errs, errors.New("no column family: set columnfamily"))
	}
	if _, err := ParseDurability(string(s.Durability)); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("load of %s: %w", s.name(), err)
	}
	return nil
}

func (s Spec) name() string {
	if s.Name != "" {
		return s.Name
	}
	return "table " + s.Workload.Table
}

// FromProperties reads the load a YCSB property set describes: its core
// workload, columnfamily and durability. The schedule, seed and name are the
// caller's.
func FromProperties(p workload.Properties) (Spec, error) {
	d, derr := ParseDurability(strings.TrimSpace(p.String("durability", "")))
	cfg, err := workload.NewConfig(p)
	if err := errors.Join(derr, err); err != nil {
		return Spec{}, err
	}
	return Spec{Workload: cfg, Family: strings.TrimSpace(p.String("columnfamily", "")), Durability: d}, nil
}

// Durability is YCSB's durability property: how a write uses the WAL.
type Durability string

// The durabilities YCSB's HBase binding knows.
const (
	UseDefault Durability = "USE_DEFAULT"
	SkipWAL    Durability = "SKIP_WAL"
	AsyncWAL   Durability = "ASYNC_WAL"
	SyncWAL    Durability = "SYNC_WAL"
	FsyncWAL   Durability = "FSYNC_WAL"
)

// ParseDurability reads YCSB's durability property (USE_DEFAULT, SKIP_WAL,
// ASYNC_WAL, SYNC_WAL, FSYNC_WAL; empty means USE_DEFAULT).
func ParseDurability(s string) (Durability, error) {
	switch d := Durability(s); d {
	case "":
		return UseDefault, nil
	case UseDefault, SkipWAL, AsyncWAL, SyncWAL, FsyncWAL:
		return d, nil
	}
	return "", errors.New("durability=" + s + ": use USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL")
}

// ClampRate returns the rate a run paces to: min(target, perServer ×
// servers), servers being the live region servers the caller counted. A
// target of zero means unthrottled (infinite), so a clamp still applies to
// it; a perServer of zero means no clamp. The result zero means unthrottled.
func ClampRate(target, perServer float64, servers int) (float64, error) {
	if target < 0 || math.IsNaN(target) || math.IsInf(target, 0) {
		return 0, fmt.Errorf("target rate %v ops/s is invalid: use 0 (unthrottled) or a positive rate", target)
	}
	if perServer < 0 || math.IsNaN(perServer) || math.IsInf(perServer, 0) {
		return 0, fmt.Errorf("per-server rate clamp %v ops/s is invalid: use 0 (no clamp) or a positive rate", perServer)
	}
	if perServer == 0 {
		return target, nil
	}
	if servers <= 0 {
		return 0, fmt.Errorf("per-server rate clamp %v ops/s needs the number of live region servers, got %d: pass the live count or drop the clamp", perServer, servers)
	}
	limit := perServer * float64(servers)
	if target == 0 || target > limit {
		return limit, nil
	}
	return target, nil
}
