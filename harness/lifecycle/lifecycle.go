// Package lifecycle prepares comparable trials on a cluster: it creates a
// pre-split seed table, preloads it, flushes and major-compacts it, snapshots
// it, and for each trial clones the snapshot into a fresh table and drops it
// afterwards. Every table and snapshot it creates carries Prefix, and it never
// touches anything else.
package lifecycle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/regress-hbase/regress/harness/hbase"
)

// Prefix starts the name of every table and snapshot the harness creates.
const Prefix = "regress_"

const (
	seedPrefix  = Prefix + "seed_"
	trialPrefix = Prefix + "trial_"
)

// Admin is the part of the HBase client the lifecycle needs.
type Admin interface {
	CreateTable(ctx context.Context, spec hbase.TableSpec) error
	TableExists(ctx context.Context, name string) (bool, error)
	TableState(ctx context.Context, name string) (string, error)
	DisableTable(ctx context.Context, name string) error
	DeleteTable(ctx context.Context, name string) error
	ListTables(ctx context.Context) ([]string, error)
	FlushTable(ctx context.Context, name string) error
	MajorCompactTable(ctx context.Context, name string) error
	Snapshot(ctx context.Context, table, snapshot string) error
	CloneSnapshot(ctx context.Context, snapshot, newTable string) error
	ListSnapshots(ctx context.Context) ([]hbase.SnapshotInfo, error)
	DeleteSnapshot(ctx context.Context, name string) error
	// What Spread needs to even out regions over several region servers.
	LiveRegionServers(ctx context.Context) ([]string, error)
	TableRegions(ctx context.Context, table string) ([]hbase.RegionInfo, error)
	Balance(ctx context.Context) (bool, error)
	MoveRegion(ctx context.Context, table string, r hbase.RegionInfo, dest string) error
}

// SeedSpec describes the seed data. Its Key, with the HBase version, names the
// seed snapshot, so a snapshot is reused while neither changes.
type SeedSpec struct {
	// Key describes the data (rows, fields, lengths, regions, the family's
	// attributes, store files).
	Key     string
	Version string
	// Family is the seed table's one column family, its attributes set.
	Family hbase.FamilySpec
	// SplitKeys pre-split the seed table at quantiles of the real key set.
	SplitKeys [][]byte
	// StoreFiles is how many store files each region holds: the preload
	// runs in that many parts, each flushed, and the table is not
	// major-compacted (0 or 1: one part, flushed and major-compacted).
	StoreFiles int
	// Preload fills the named table with part (0-based) of parts of the
	// seed rows.
	Preload func(ctx context.Context, table string, part, parts int) error
	// Reseed forces a new seed even when a matching snapshot exists.
	Reseed bool
}

// Seed is a ready seed snapshot.
type Seed struct {
	Snapshot string
	Table    string
	// Reused is true when an existing snapshot was found and nothing was loaded.
	Reused bool
	// Took is how long seeding took (zero when reused).
	Took time.Duration
	// Layout is the seed table's regions per server before its snapshot
	// (nil when reused).
	Layout Layout
}

// Manager runs the lifecycle on one cluster.
type Manager struct {
	admin Admin
	log   *slog.Logger
	runID string
	n     atomic.Int64
}

// New returns a Manager whose trial tables are named after runID.
func New(admin Admin, runID string, log *slog.Logger) *Manager {
	if log == nil {
		log = slog.Default()
	}
	return &Manager{admin: admin, runID: sanitize(runID), log: log}
}

// SeedName is the name of the seed snapshot (and table) for a spec.
func SeedName(spec SeedSpec) string {
	sum := sha256.Sum256([]byte(spec.Version + "\x00" + spec.Key))
	return seedPrefix + hex.EncodeToString(sum[:])[:12]
}

// EnsureSeed returns the seed snapshot for spec, creating it when missing:
// create the pre-split table, preload, flush, major-compact and wait until no
// region compacts (or, for several store files a region, preload and flush
// part by part), spread its regions evenly over the region servers (see
// Spread), snapshot, then disable and drop the seed table, so only the
// snapshot stays on the cluster.
func (m *Manager) EnsureSeed(ctx context.Context, spec SeedSpec) (Seed, error) {
	name := SeedName(spec)
	seed := Seed{Snapshot: name, Table: name}
	snaps, err := m.admin.ListSnapshots(ctx)
	if err != nil {
		return seed, fmt.Errorf("list snapshots: %w", err)
	}
	for _, s := range snaps {
		if s.Name == name {
			if !spec.Reseed {
				m.log.Info("reusing seed snapshot", "snapshot", name, "data", spec.Key)
				seed.Reused = true
				return seed, nil
			}
			if err := m.admin.DeleteSnapshot(ctx, name); err != nil {
				return seed, fmt.Errorf("reseed: delete snapshot %s: %w", name, err)
			}
		}
	}
	start := time.Now()
	// A seed table without its snapshot is what an interrupted seeding leaves.
	if err := m.dropTable(ctx, name); err != nil {
		return seed, err
	}
	if err := m.admin.CreateTable(ctx, hbase.TableSpec{Name: name, Families: []hbase.FamilySpec{spec.Family}, SplitKeys: spec.SplitKeys}); err != nil {
		if strings.Contains(err.Error(), "Compression") || strings.Contains(err.Error(), "compression") {
			return seed, fmt.Errorf("create seed table with compression %s: the server cannot load that codec; choose another in the suite's data.compression (NONE always works): %w", spec.Family.Compression, err)
		}
		return seed, fmt.Errorf("create seed table %s: %w", name, err)
	}
	type step struct {
		what string
		do   func() error
	}
	var steps []step
	parts := max(spec.StoreFiles, 1)
	for part := range parts {
		what := "preload"
		if parts > 1 {
			what = fmt.Sprintf("preload part %d of %d", part+1, parts)
		}
		steps = append(steps, step{what, func() error { return spec.Preload(ctx, name, part, parts) }},
			step{"flush", func() error { return m.admin.FlushTable(ctx, name) }})
	}
	// One store file a region: compacted to the one file a quiet region
	// settles into. Several: kept as the flushes wrote them (the family's
	// compaction threshold lies above their count: suite.Data.Family).
	if parts == 1 {
		steps = append(steps, step{"major compaction", func() error { return m.admin.MajorCompactTable(ctx, name) }})
	}
	steps = append(steps,
		step{"spread regions", func() (err error) { seed.Layout, err = m.Spread(ctx, name); return err }},
		step{"snapshot", func() error { return m.admin.Snapshot(ctx, name, name) }},
		// The snapshot holds the data; the table itself would only be one more
		// regress_ table left on a user's cluster.
		step{"drop seed table", func() error { return m.dropTable(ctx, name) }})
	for _, s := range steps {
		t0 := time.Now()
		if err := s.do(); err != nil {
			return seed, fmt.Errorf("seed %s: %s: %w", name, s.what, err)
		}
		m.log.Info("seed step done", "step", s.what, "took", time.Since(t0).Round(time.Millisecond))
	}
	seed.Took = time.Since(start)
	return seed, nil
}

// Clone clones the seed snapshot into a fresh trial table, spreads its
// regions evenly over the region servers (see Spread) and returns its name.
func (m *Manager) Clone(ctx context.Context, seed Seed) (string, error) {
	return m.cloneInto(ctx, seed, fmt.Sprintf("%s%s_%d", trialPrefix, m.runID, m.n.Add(1)))
}

// CloneAs is Clone into the trial table TrialTable(tag, n) names rather
// than one of the manager's own run and count: a paired run names a
// trial's clone for the slot it holds in its pair, whichever side that is,
// so no table name stays with one side (the runner's slots.go).
func (m *Manager) CloneAs(ctx context.Context, seed Seed, tag string, n int64) (string, error) {
	return m.cloneInto(ctx, seed, TrialTable(tag, n))
}

// TrialTable names the n-th trial table of tag (a run id, with a slot):
// regress_trial_<tag>_<n>, tag reduced to what a table name may hold.
func TrialTable(tag string, n int64) string {
	return fmt.Sprintf("%s%s_%d", trialPrefix, sanitize(tag), n)
}

// cloneInto clones the seed snapshot into table name and spreads its regions.
func (m *Manager) cloneInto(ctx context.Context, seed Seed, name string) (string, error) {
	if err := m.admin.CloneSnapshot(ctx, seed.Snapshot, name); err != nil {
		return "", fmt.Errorf("clone snapshot %s into %s: %w", seed.Snapshot, name, err)
	}
	if _, err := m.Spread(ctx, name); err != nil {
		// The table exists: the caller's Drop is not reached on an error.
		if derr := m.Drop(ctx, name); derr != nil {
			m.log.Warn("dropping the unevenly spread clone failed", "table", name, "err", derr)
		}
		return "", fmt.Errorf("clone %s: %w", name, err)
	}
	return name, nil
}

// Drop disables and deletes a trial table. It keeps working after ctx is
// cancelled (Ctrl-C), bounded by its own timeout, so a run cleans up after itself.
func (m *Manager) Drop(ctx context.Context, table string) error {
	return m.DropWithin(ctx, table, 2*time.Minute)
}

// DropWithin is Drop bounded by limit: a stopped run still drops its trial
// table on a cluster it did not start, but keeps nobody waiting on a cluster
// that does not answer; a table it leaves, the next run's CleanupStale drops.
func (m *Manager) DropWithin(ctx context.Context, table string, limit time.Duration) error {
	if !strings.HasPrefix(table, Prefix) {
		return fmt.Errorf("refusing to drop %s: not a table regress created (prefix %s)", table, Prefix)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), limit)
	defer cancel()
	return m.dropTable(ctx, table)
}

// CleanupStale drops trial tables that earlier runs left behind (a crash, a
// kill -9) and seed tables whose snapshot is missing. It never touches a table
// without the harness's prefix.
func (m *Manager) CleanupStale(ctx context.Context) ([]string, error) {
	tables, err := m.admin.ListTables(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	snaps, err := m.admin.ListSnapshots(ctx)
	if err != nil {
		return nil, fmt.Errorf("list snapshots: %w", err)
	}
	have := map[string]bool{}
	for _, s := range snaps {
		have[s.Name] = true
	}
	var dropped []string
	var errs []error
	for _, t := range tables {
		t = strings.TrimPrefix(t, "default:")
		stale := strings.HasPrefix(t, trialPrefix) || (strings.HasPrefix(t, seedPrefix) && !have[t])
		if !stale {
			continue
		}
		if err := m.dropTable(ctx, t); err != nil {
			errs = append(errs, err)
			continue
		}
		dropped = append(dropped, t)
	}
	return dropped, errors.Join(errs...)
}

// DropSeed removes a seed snapshot and its table (used by --reseed and by
// users who want their cluster back).
func (m *Manager) DropSeed(ctx context.Context, seed Seed) error {
	if err := m.admin.DeleteSnapshot(ctx, seed.Snapshot); err != nil {
		return fmt.Errorf("delete seed snapshot %s: %w", seed.Snapshot, err)
	}
	return m.dropTable(ctx, seed.Table)
}

func (m *Manager) dropTable(ctx context.Context, name string) error {
	ok, err := m.admin.TableExists(ctx, name)
	if err != nil {
		return fmt.Errorf("check table %s: %w", name, err)
	}
	if !ok {
		return nil
	}
	state, err := m.admin.TableState(ctx, name)
	if err != nil {
		return fmt.Errorf("table %s state: %w", name, err)
	}
	if state != "DISABLED" {
		if err := m.admin.DisableTable(ctx, name); err != nil {
			return fmt.Errorf("disable %s: %w", name, err)
		}
	}
	if err := m.admin.DeleteTable(ctx, name); err != nil {
		return fmt.Errorf("delete %s: %w", name, err)
	}
	return nil
}

// sanitize keeps a run id to characters HBase allows in table names.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		default:
			b.WriteRune('_')
		}
	}
	return b.String()
}
