package fidelity

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// WriteTable prints one row per run and operation: service and intended
// percentiles, the achieved rate against the target, the client's CPU per
// operation, and the region server's call time for the same window.
func WriteTable(w io.Writer, runs []Figures) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\trun\top\tops\tservice p50\tp95\tp99\tp99.9\tintended p50\tp95\tp99\tp99.9\tachieved/target\tclient CPU/op\tlate p99\tGC max\tserver call p50\tp95\tp99\tserver calls\t")
	for _, f := range runs {
		ops := make([]workload.Op, 0, len(f.Ops))
		for op := range f.Ops {
			ops = append(ops, op)
		}
		slices.Sort(ops)
		for _, op := range ops {
			o := f.Ops[op]
			srv := "-\t-\t-\t-"
			if f.Server != nil {
				p := f.Server.Process
				srv = fmt.Sprintf("%s\t%s\t%s\t%d", ms(p.P50), ms(p.P95), ms(p.P99), f.Server.Calls)
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f/%.0f (%+.2f%%)\t%.1f us\t%d us\t%d us\t%s\t\n",
				f.Case, f.Run, op, o.Count,
				o.Service.P50, o.Service.P95, o.Service.P99, o.Service.P999,
				o.Intended.P50, o.Intended.P95, o.Intended.P99, o.Intended.P999,
				f.Achieved, f.Target, 100*(f.Achieved-f.Target)/f.Target,
				float64(f.CPUPerOp)/float64(time.Microsecond), f.LatenessP99.Microseconds(), f.GCPauseMax.Microseconds(), srv)
		}
	}
	return tw.Flush()
}

// ms prints a server figure: HBase reports whole milliseconds, so 0 is "<1ms".
func ms(us int64) string {
	if us == 0 {
		return "<1ms"
	}
	return fmt.Sprintf("%dms", us/1000)
}
