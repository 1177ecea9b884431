// Command dosecurve draws a dose-response curve from regress runs: one point
// per run's report.json, a primary row (all workloads, or -row) of a server cost
// with its interval, coloured by the row's status, runs in order of the dose
// read from the candidate's label (testdata/coprocessor/dose.sh names them
// <version>-req<NANOS>-<run> or <version>-cpu<NANOS>-<run>; the older loop
// dose <version>-cop<STEPS>-<run>). It writes the
// chart as an SVG file and prints a Markdown table of the same runs: what
// docs/noise.md shows for the release suite.
//
//	make dose-curve DOSE_SVG=docs/dose-curve.svg
//	go run ./harness/internal/tools/dosecurve -o docs/dose-curve.svg reports/dose-*/report.json
package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/history"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "dosecurve:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("dosecurve", flag.ContinueOnError)
	metric := fs.String("metric", compare.MetricCPUPerOp, "the server cost whose primary row is drawn: cpu_per_op or alloc_per_op")
	row := fs.String("row", compare.AllWorkloads, `the primary row drawn: "all workloads", or the workloads of one operation ("READ-heavy workloads")`)
	out := fs.String("o", "", "the SVG file to write (required)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: dosecurve -o curve.svg [-metric cpu_per_op] [-row 'all workloads'] report.json...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return errors.New("give -o FILE.svg and at least one report.json")
	}
	var runs []doseRun
	for _, path := range fs.Args() {
		r, err := readRun(path, *metric, *row)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	slices.SortStableFunc(runs, func(a, b doseRun) int {
		return cmp.Or(cmp.Compare(a.nanos, b.nanos), cmp.Compare(a.name, b.name))
	})
	s := history.Series{Workload: *row, Metric: *metric, Unit: runs[0].unit, HigherIsWorse: true, Tolerance: commonTolerance(runs)}
	for _, r := range runs {
		s.Points = append(s.Points, history.Point{Release: r.point(), Pairs: r.pairs, Ratio: r.ratio, Low: r.low, High: r.high, Status: r.status})
	}
	if err := atomicfile.WriteFile(*out, []byte(history.ChartSVG("the run's baseline", s)+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "| run | dose on the candidate | %s, %s | tolerance | row | verdict |\n|---|---|---|--:|---|---|\n", *metric, *row)
	for _, r := range runs {
		fmt.Fprintf(stdout, "| %s | %s | %+.1f%% [%+.1f%%, %+.1f%%] | %.0f%% | %s | %s |\n", r.name, r.dose(), 100*(r.ratio-1), 100*(r.low-1), 100*(r.high-1), 100*r.tolerance, r.status, r.verdict)
	}
	return nil
}

// doseRun is one run's primary row and the dose its candidate carried.
type doseRun struct {
	name, kind       string
	nanos            int // -1: no dose in the label (two releases compared)
	verdict          string
	unit             string
	ratio, low, high float64
	tolerance        float64
	pairs            int
	status           compare.Status
	candidate        string
}

// doseLabel is dose.sh's candidate label: version, observer and nanoseconds, run name.
var doseLabel = regexp.MustCompile(`^.+-(req|cpu|cop)(\d+)-([^-]+)$`)

func (r doseRun) dose() string {
	switch {
	case r.nanos < 0:
		return r.candidate
	case r.nanos == 0:
		return "none (A/A)"
	case r.kind == "cpu":
		return fmt.Sprintf("%d ns a Get", r.nanos)
	case r.kind == "cop":
		return fmt.Sprintf("%d loop steps a Get", r.nanos)
	}
	return fmt.Sprintf("%d ns a request", r.nanos)
}

func (r doseRun) point() string {
	switch {
	case r.nanos < 0:
		return r.name + " " + r.candidate
	case r.nanos == 0:
		return r.name + " A/A"
	case r.kind == "cop":
		return fmt.Sprintf("%s %d steps", r.name, r.nanos)
	}
	return fmt.Sprintf("%s %d ns", r.name, r.nanos)
}

// commonTolerance is the tolerance most of the runs' rows were judged by
// (the chart shades one band; a run of an older suite may differ).
func commonTolerance(runs []doseRun) float64 {
	count := map[float64]int{}
	best := runs[len(runs)-1].tolerance
	for _, r := range runs {
		count[r.tolerance]++
		if count[r.tolerance] > count[best] {
			best = r.tolerance
		}
	}
	return best
}

// report is what dosecurve reads of a report.json.
type report struct {
	Verdict   string `json:"verdict"`
	Candidate struct {
		Name string `json:"name"`
	} `json:"candidate"`
	Metrics []struct {
		Workload  string         `json:"workload"`
		Metric    string         `json:"metric"`
		Unit      string         `json:"unit"`
		Primary   bool           `json:"primary"`
		Ratio     *float64       `json:"ratio"`
		Low       *float64       `json:"ci_low"`
		High      *float64       `json:"ci_high"`
		Tolerance float64        `json:"tolerance"`
		Pairs     int            `json:"pairs"`
		Status    compare.Status `json:"status"`
	} `json:"metrics"`
}

func readRun(path, metric, row string) (doseRun, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return doseRun{}, fmt.Errorf("%w (give the report.json a run wrote under its --out directory)", err)
	}
	var rep report
	if err := json.Unmarshal(b, &rep); err != nil {
		return doseRun{}, fmt.Errorf("%s is not a regress report.json: %w", path, err)
	}
	r := doseRun{name: filepath.Base(filepath.Dir(filepath.Dir(path))), nanos: -1, verdict: rep.Verdict, candidate: rep.Candidate.Name}
	if m := doseLabel.FindStringSubmatch(rep.Candidate.Name); m != nil {
		r.kind, r.name = m[1], m[3]
		r.nanos, _ = strconv.Atoi(m[2])
	}
	for _, m := range rep.Metrics {
		if !m.Primary || m.Metric != metric || m.Workload != row {
			continue
		}
		if m.Ratio == nil || m.Low == nil || m.High == nil {
			return doseRun{}, fmt.Errorf("%s: the %s row of %s has no ratio (too few pairs?)", path, metric, row)
		}
		r.unit, r.ratio, r.low, r.high = m.Unit, *m.Ratio, *m.Low, *m.High
		r.tolerance, r.pairs, r.status = m.Tolerance, m.Pairs, m.Status
		return r, nil
	}
	return doseRun{}, fmt.Errorf("%s has no primary %s row over %s: give a run of a suite that gates %s (the release suite does), and a row it has", path, metric, row, metric)
}
