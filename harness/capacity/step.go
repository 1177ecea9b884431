package capacity

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// StepOf measures a step from its run: the achieved rate, the intended
// p50 and p99 over every operation type, the worst operation type's intended
// p99, and the operations that failed. Latencies are intended (from each
// slot's due time), so queueing behind a saturated server counts.
func StepOf(res *loadgen.Result) Step {
	st := Step{AchievedOpsPerSec: res.Achieved(), Ops: res.Ops}
	var all *hdr.Histogram
	for op, o := range res.PerOp {
		if o == nil {
			continue
		}
		st.Errors += o.Status(workload.Error)
		if o.Intended == nil || o.Intended.TotalCount() == 0 {
			continue
		}
		if p := float64(o.Intended.ValueAtQuantile(99)); p > st.WorstP99Micros {
			st.WorstP99Micros, st.WorstOp = p, workload.Op(op).String()
		}
		if p := float64(o.Intended.ValueAtQuantile(50)); p > st.WorstP50Micros {
			st.WorstP50Micros, st.WorstP50Op = p, workload.Op(op).String()
		}
		if all == nil {
			all = hdr.New(o.Intended.LowestTrackableValue(), o.Intended.HighestTrackableValue(), int(o.Intended.SignificantFigures()))
		}
		all.Merge(o.Intended)
	}
	if all != nil {
		st.P50Micros = float64(all.ValueAtQuantile(50))
		st.P99Micros = float64(all.ValueAtQuantile(99))
	}
	return st
}

// Save writes sw as indented JSON to path atomically (atomicfile), so a
// crash never leaves half a file.
func Save(path string, sw *Sweep) error {
	b, err := json.MarshalIndent(sw, "", "  ")
	if err != nil {
		return fmt.Errorf("capacity: encode sweep: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("capacity: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("capacity: %w", err)
	}
	return nil
}

// Load reads a sweep Save wrote.
func Load(path string) (*Sweep, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("capacity: %w", err)
	}
	var sw Sweep
	if err := json.Unmarshal(b, &sw); err != nil {
		return nil, fmt.Errorf("capacity: %s is not a capacity sweep (written by regress capacity): %w", path, err)
	}
	return &sw, nil
}
