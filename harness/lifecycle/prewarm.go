package lifecycle

import (
	"context"
	"fmt"

	"github.com/regress-hbase/regress/harness/hbase"
)

// Scanner reads rows of a table (the native client is one).
type Scanner interface {
	Scan(ctx context.Context, table string, o hbase.ScanOptions) ([]hbase.Result, error)
}

// prewarmChunk is how many rows one prewarm scan call returns (a var for tests).
var prewarmChunk = 1000

// Prewarm reads every row of table once, so a trial's first reads of a fresh
// clone do not pay for the region servers' cold block cache (a clone's files
// are links with cache keys of their own). It returns the rows read.
func Prewarm(ctx context.Context, sc Scanner, table string) (int64, error) {
	var start []byte
	var rows int64
	for {
		res, err := sc.Scan(ctx, table, hbase.ScanOptions{StartRow: start, Limit: prewarmChunk, Caching: prewarmChunk})
		if err != nil {
			return rows, fmt.Errorf("prewarm %s after %d rows: %w", table, rows, err)
		}
		rows += int64(len(res))
		if len(res) < prewarmChunk {
			return rows, nil
		}
		last := res[len(res)-1].Cells
		if len(last) == 0 {
			return rows, fmt.Errorf("prewarm %s: a row without cells after %d rows", table, rows)
		}
		start = append(append([]byte(nil), last[0].Row...), 0) // the next row after the last one read
	}
}
