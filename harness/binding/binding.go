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

// DB implements workload.DB on one column family. A DB reuses its request
// buffers, so it serves one goroutine at a time: give each worker its own
// with Worker.
type DB struct {
	c          Client
	family     []byte
	durability hbase.Durability
	log        *slog.Logger
	// errOnce logs the first error of each kind so a failing run explains itself
	// without flooding the log; the workers of one binding share it.
	errOnce *sync.Map
	// key and cols are reused by every operation: the client encodes a request
	// before the call returns and keeps no reference to them.
	key  []byte
	cols []hbase.Column
	// quals caches each field name's bytes: a workload uses a handful of names.
	quals map[string][]byte
	// readQuals is the reused qualifier list of a read or scan.
	readQuals [][]byte
	// batch holds the rows queued by QueueInsert.
	batch []hbase.Mutation
}

var (
	_ workload.DB            = (*DB)(nil)
	_ workload.BatchInserter = (*DB)(nil)
)

// New returns a binding writing to family with the given durability.
func New(c Client, family string, d hbase.Durability, log *slog.Logger) *DB {
	if log == nil {
		log = slog.Default()
	}
	return &DB{c: c, family: []byte(family), durability: d, log: log, errOnce: &sync.Map{}}
}

// Worker returns a DB for one more worker goroutine: same client, family and
// durability, its own buffers.
func (d *DB) Worker() *DB {
	return &DB{c: d.c, family: d.family, durability: d.durability, log: d.log, errOnce: d.errOnce}
}

// Read gets one row: the whole family when fields is nil, else the named columns.
func (d *DB) Read(ctx context.Context, table, key string, fields []string) workload.Status {
	d.key = append(d.key[:0], key...)
	res, err := d.c.Get(ctx, table, d.key, d.family, d.qualifiers(fields))
	if err != nil {
		return d.fail("read", table, err)
	}
	if len(res.Cells) == 0 {
		return workload.NotFound
	}
	return workload.OK
}

// Scan reads count rows from startKey, as YCSB does with caching = count. A
// count below 1 (minscanlength=0) reads one row, as YCSB's HBase binding
// does (it stops after the first row), and never the whole table, which is
// what a limit of 0 would mean to HBase.
func (d *DB) Scan(ctx context.Context, table, startKey string, count int, fields []string) workload.Status {
	count = max(count, 1)
	d.key = append(d.key[:0], startKey...)
	_, err := d.c.Scan(ctx, table, hbase.ScanOptions{
		StartRow: d.key, Family: d.family, Qualifiers: d.qualifiers(fields),
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
	d.key = append(d.key[:0], key...)
	if err := d.c.Delete(ctx, table, d.key); err != nil {
		return d.fail("delete", table, err)
	}
	return workload.OK
}

func (d *DB) put(ctx context.Context, what, table, key string, values []workload.Field) workload.Status {
	d.cols = d.cols[:0]
	for _, f := range values {
		d.cols = append(d.cols, hbase.Column{Qualifier: d.qualifier(f.Name), Value: f.Value})
	}
	d.key = append(d.key[:0], key...)
	if err := d.c.Put(ctx, table, d.key, d.family, d.cols, d.durability); err != nil {
		return d.fail(what, table, err)
	}
	return workload.OK
}

// QueueInsert implements workload.BatchInserter: the row is copied into the
// next batch, since the workload reuses key and values.
func (d *DB) QueueInsert(key string, values []workload.Field) {
	cols := make([]hbase.Column, len(values))
	for j, f := range values {
		cols[j] = hbase.Column{Qualifier: d.qualifier(f.Name), Value: append([]byte(nil), f.Value...)}
	}
	d.batch = append(d.batch, hbase.Mutation{Row: []byte(key), Family: d.family, Cols: cols})
}

// InsertQueued implements workload.BatchInserter: one multi-region put of
// every queued row, with the binding's durability.
func (d *DB) InsertQueued(ctx context.Context, table string) workload.Status {
	if len(d.batch) == 0 {
		return workload.OK
	}
	err := d.c.PutBatch(ctx, table, d.batch, d.durability)
	clear(d.batch) // drop the rows' buffers
	d.batch = d.batch[:0]
	if err != nil {
		return d.fail("insert", table, err)
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

func (d *DB) qualifier(name string) []byte {
	q, ok := d.quals[name]
	if !ok {
		if d.quals == nil {
			d.quals = map[string][]byte{}
		}
		q = []byte(name)
		d.quals[name] = q
	}
	return q
}

// qualifiers returns fields' qualifier bytes in a reused slice; nil means all.
func (d *DB) qualifiers(fields []string) [][]byte {
	if fields == nil {
		return nil
	}
	d.readQuals = d.readQuals[:0]
	for _, f := range fields {
		d.readQuals = append(d.readQuals, d.qualifier(f))
	}
	return d.readQuals
}
