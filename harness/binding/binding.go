// Package binding is the YCSB DB binding for HBase: it maps workload
// operations (read, scan, update, insert, delete) onto the native client the
// way YCSB's hbase2 binding does, measuring real round trips (no client-side
// write buffering).
package binding

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/workload"
)

// Client is the part of the native client the binding uses.
type Client interface {
	Get(ctx context.Context, table string, row []byte, family []byte, qualifiers [][]byte) (*hbase.Result, error)
	Put(ctx context.Context, table string, row, family []byte, cols []hbase.Column, d hbase.Durability) error
	Delete(ctx context.Context, table string, row []byte) error
	Scan(ctx context.Context, table string, o hbase.ScanOptions) ([]hbase.Result, error)
	PutBatch(ctx context.Context, table string, ms []hbase.Mutation, d hbase.Durability) error
}

// DB implements workload.DB on one column family.
type DB struct {
	c          Client
	family     []byte
	durability hbase.Durability
	log        *slog.Logger
	// errOnce logs the first error of each kind so a failing run explains itself
	// without flooding the log.
	errOnce sync.Map
}

var _ workload.DB = (*DB)(nil)

// New returns a binding writing to family with the given durability.
func New(c Client, family string, d hbase.Durability, log *slog.Logger) *DB {
	if log == nil {
		log = slog.Default()
	}
	return &DB{c: c, family: []byte(family), durability: d, log: log}
}

// ParseDurability reads YCSB's durability property (USE_DEFAULT, SKIP_WAL,
// ASYNC_WAL, SYNC_WAL, FSYNC_WAL; empty means USE_DEFAULT).
func ParseDurability(s string) (hbase.Durability, error) {
	switch s {
	case "", "USE_DEFAULT":
		return hbase.UseDefault, nil
	case "SKIP_WAL":
		return hbase.SkipWAL, nil
	case "ASYNC_WAL":
		return hbase.AsyncWAL, nil
	case "SYNC_WAL":
		return hbase.SyncWAL, nil
	case "FSYNC_WAL":
		return hbase.FsyncWAL, nil
	}
	return 0, errors.New("durability=" + s + ": use USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL")
}

// Read gets one row: the whole family when fields is nil, else the named columns.
func (d *DB) Read(ctx context.Context, table, key string, fields []string) workload.Status {
	res, err := d.c.Get(ctx, table, []byte(key), d.family, qualifiers(fields))
	if err != nil {
		return d.fail("read", table, err)
	}
	if len(res.Cells) == 0 {
		return workload.NotFound
	}
	return workload.OK
}

// Scan reads count rows from startKey, as YCSB does with caching = count.
func (d *DB) Scan(ctx context.Context, table, startKey string, count int, fields []string) workload.Status {
	_, err := d.c.Scan(ctx, table, hbase.ScanOptions{
		StartRow: []byte(startKey), Family: d.family, Qualifiers: qualifiers(fields),
		Limit: count, Caching: count,
	})
	if err != nil {
		return d.fail("scan", table, err)
	}
	return workload.OK
}

// Update writes the given fields of a row.
func (d *DB) Update(ctx context.Context, table, key string, values []workload.Field) workload.Status {
	return d.put(ctx, "update", table, key, values)
}

// Insert writes a new row.
func (d *DB) Insert(ctx context.Context, table, key string, values []workload.Field) workload.Status {
	return d.put(ctx, "insert", table, key, values)
}

// Delete removes a row.
func (d *DB) Delete(ctx context.Context, table, key string) workload.Status {
	if err := d.c.Delete(ctx, table, []byte(key)); err != nil {
		return d.fail("delete", table, err)
	}
	return workload.OK
}

func (d *DB) put(ctx context.Context, what, table, key string, values []workload.Field) workload.Status {
	cols := make([]hbase.Column, len(values))
	for i, f := range values {
		cols[i] = hbase.Column{Qualifier: []byte(f.Name), Value: f.Value}
	}
	if err := d.c.Put(ctx, table, []byte(key), d.family, cols, d.durability); err != nil {
		return d.fail(what, table, err)
	}
	return workload.OK
}

func (d *DB) fail(what, table string, err error) workload.Status {
	if errors.Is(err, context.Canceled) {
		return workload.Error // the run is stopping; not worth a log line
	}
	if _, seen := d.errOnce.LoadOrStore(what, true); !seen {
		d.log.Warn("operation failed (further errors of this kind are only counted)", "op", what, "table", table, "err", err)
	}
	return workload.Error
}

func qualifiers(fields []string) [][]byte {
	if fields == nil {
		return nil
	}
	q := make([][]byte, len(fields))
	for i, f := range fields {
		q[i] = []byte(f)
	}
	return q
}
