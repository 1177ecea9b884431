package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/atomicfile"
)

// hgrmTicks is the number of percentile steps per halving of the distance to
// 100%, as HdrHistogram's own percentile output uses.
const hgrmTicks = 5

// hgrmScale turns the histograms' microseconds into the milliseconds
// HdrHistogram's plotter labels its axis with.
const hgrmScale = 1000.0

// writeHgrms writes <workload>-<op>-<side>.hgrm for each distribution side present.
func writeHgrms(dir string, ds []Distribution) ([]string, error) {
	var written []string
	for _, d := range ds {
		for _, side := range []struct {
			name string
			h    *hdrhistogram.Histogram
		}{{"baseline", d.Baseline}, {"candidate", d.Candidate}} {
			if side.h == nil || side.h.TotalCount() == 0 {
				continue
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return written, fmt.Errorf("report: create %s: %w", dir, err)
			}
			var buf bytes.Buffer
			if _, err := side.h.PercentilesPrint(&buf, hgrmTicks, hgrmScale); err != nil {
				return written, fmt.Errorf("report: hgrm of %s %s: %w", d.Workload, d.Op, err)
			}
			p := filepath.Join(dir, safeFile(d.Workload)+"-"+safeFile(d.Op)+"-"+side.name+".hgrm")
			if err := atomicfile.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				return written, fmt.Errorf("report: write %s: %w", p, err)
			}
			written = append(written, p)
		}
	}
	return written, nil
}
