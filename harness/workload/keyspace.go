package workload

import "fmt"

// maxKeyNumber is the largest key number a workload hands out, 2^62 (as
// `regress ycsb create-table` caps recordcount). A range ending there
// leaves room for what is added to it (the run phase's inserts counted
// from recordcount, zipfian's expected new keys, the load counter's
// look-ahead) without any sum passing int64's maximum and wrapping to a
// negative key number.
const maxKeyNumber = 1 << 62

// checkKeySpace refuses key numbers past maxKeyNumber: insertstart,
// insertstart+insertcount (whose sum could itself pass int64's maximum
// and wrap) and recordcount, where the run phase's inserts start.
func (c Config) checkKeySpace() error {
	switch {
	case c.InsertStart > maxKeyNumber || c.InsertCount > maxKeyNumber-c.InsertStart:
		return fmt.Errorf("insertstart=%d + insertcount=%d reaches past %d (2^62), the largest key number regress hands out: above it the counters that number rows would pass int64's maximum and wrap to negative keys; use an insertstart and insertcount whose sum is at most %d", c.InsertStart, c.InsertCount, int64(maxKeyNumber), int64(maxKeyNumber))
	case c.RecordCount > maxKeyNumber:
		return fmt.Errorf("recordcount=%d is past %d (2^62), the largest key number regress hands out: the run phase's inserts are numbered from recordcount up and would pass int64's maximum and wrap to negative keys; use a recordcount of at most %d", c.RecordCount, int64(maxKeyNumber), int64(maxKeyNumber))
	}
	return nil
}
