package capacity

import (
	"fmt"

	"github.com/regress-hbase/regress/harness/capacity/section"
	"github.com/regress-hbase/regress/harness/loadgen"
)

// Help is `regress capacity`'s manual: how a sweep runs, each default
// read from the capacity: section's (section.Defaults) and the held rate
// from loadgen's threshold, so the help never states another value.
func Help() string {
	d := section.Defaults()
	return fmt.Sprintf(`capacity steps the open-loop target rate of each workload up (geometric steps
from capacity.start, default %g ops/s, times capacity.factor, default %g; or
capacity.rates) on fresh clones, each step a short trial, until the intended
median of some operation exceeds capacity.slo_p50 (default %v; the p99 too when
capacity.slo_p99 is set) or the achieved rate falls below %.0f%% of the target,
then bisects between the last good and the first bad rate. Baseline and
candidate steps interleave in random order; the search repeats for
capacity.pairs pairs (default %d), and the capacities are compared with the
paired trial-level statistics: a capacity lower beyond capacity.tolerance
(default %.0f%%) is a REGRESSION (exit 1). The sweep stops at capacity.max_rate
(default %g ops/s) and within capacity.budget (default %v); a search that never
found the knee reports "at least X", described, not tested.`,
		d.StartOpsPerSec, d.Factor, d.SLOP50, loadgen.HoldThreshold*100, d.Pairs, d.Tolerance*100, d.MaxOpsPerSec, d.Budget)
}
