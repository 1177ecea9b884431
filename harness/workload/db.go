// Package workload implements YCSB's core workload semantics: properties,
// key naming, request and value generators, and the operation mix.
package workload

import "context"

// Status is the outcome of one operation, as YCSB's Return= lines count it.
type Status uint8

// Operation outcomes.
const (
	OK Status = iota
	NotFound
	Error
)

// String returns YCSB's name for the status.
func (s Status) String() string {
	switch s {
	case OK:
		return "OK"
	case NotFound:
		return "NOT_FOUND"
	default:
		return "ERROR"
	}
}

// Field is one column of a row: a field name (field0..) and its value.
type Field struct {
	Name  string
	Value []byte
}

// DB is the binding a workload drives, shaped like YCSB's DB class. Fields
// passed in are owned by the caller and may be reused after the call returns.
type DB interface {
	// Read gets one row; fields nil means all fields of the family.
	Read(ctx context.Context, table, key string, fields []string) Status
	// Scan reads count rows starting at startKey.
	Scan(ctx context.Context, table, startKey string, count int, fields []string) Status
	// Update writes the given fields of an existing row.
	Update(ctx context.Context, table, key string, values []Field) Status
	// Insert writes a new row with all its fields.
	Insert(ctx context.Context, table, key string, values []Field) Status
	// Delete removes a row.
	Delete(ctx context.Context, table, key string) Status
}

// BatchInserter is a DB that writes many new rows in one request, as a
// seed preload does; LoadRows uses it when the DB offers it.
type BatchInserter interface {
	// QueueInsert queues one row, copying what it keeps: key and values are
	// reused by the caller after it returns.
	QueueInsert(key string, values []Field)
	// InsertQueued writes every queued row in one request and empties the queue.
	InsertQueued(ctx context.Context, table string) Status
}
