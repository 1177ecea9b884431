package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/compare"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// renderJUnit writes one testcase per gated metric, grouped in one testsuite
// per workload; REGRESSED fails, INCONCLUSIVE and descriptive metrics are
// skipped with the reason. The report never fails a job itself: the exit
// code does. A testsuite's time is its workload's measured time
// (Report.Measured), shared evenly by its testcases, so the times add up to
// the run's; its properties name the sides, the suite, the verdict and the
// regress build; a testcase's classname is regress.SUITE.WORKLOAD.
func renderJUnit(w io.Writer, r Report) error {
	c := r.Comparison
	root := junitSuites{Name: fmt.Sprintf("regress %s vs %s", c.Candidate.Name, c.Baseline.Name)}
	props := junitProperties(r)
	index := map[string]int{}
	suiteOf := func(workload string) *junitSuite {
		i, ok := index[workload]
		if !ok {
			i = len(root.Suites)
			index[workload] = i
			root.Suites = append(root.Suites, junitSuite{Name: workload, Properties: props})
		}
		return &root.Suites[i]
	}
	for _, m := range c.Metrics {
		// A capacity without a knee is shown as a skipped case: "at least" is news.
		if !m.Gated && m.Metric != compare.MetricCapacity {
			continue
		}
		s := suiteOf(m.Workload)
		tc := junitCase{ClassName: junitClass(c, m.Workload), Name: m.Op + " " + m.Metric,
			SystemOut: fmt.Sprintf("baseline %s, candidate %s, ratio %s, pass bound %s, tolerance %.1f%%, status %s, p %s, pairs %d",
				baseValue(m), candValue(m), ratio(m), passBound(m), m.Tolerance*100, status(m), pValue(m), m.Pairs)}
		if m.OpsPerTrial > 0 {
			tc.SystemOut += fmt.Sprintf(", %d operations per trial", m.OpsPerTrial)
		}
		if m.Note != "" {
			tc.SystemOut += "; " + m.Note
		}
		switch m.Status {
		case compare.Regressed:
			tc.Failure = &junitFailure{Type: string(compare.Regressed),
				Message: fmt.Sprintf("%s %s regressed: ratio %s beyond tolerance %.1f%%", m.Op, m.Metric, ratio(m), m.Tolerance*100),
				Body:    tc.SystemOut}
			s.Failures++
			root.Failures++
		case compare.Inconclusive:
			tc.Skipped = &junitSkipped{Message: "inconclusive: not shown within tolerance; run more pairs"}
			s.Skipped++
			root.Skipped++
		case compare.Descriptive:
			tc.Skipped = &junitSkipped{Message: DescriptiveNote}
			s.Skipped++
			root.Skipped++
		}
		s.Cases = append(s.Cases, tc)
		s.Tests++
		root.Tests++
	}
	for _, h := range c.HeldRate {
		if !h.Gated {
			continue
		}
		s := suiteOf(h.Workload)
		tc := junitCase{ClassName: junitClass(c, h.Workload), Name: "held rate", SystemOut: heldRateLine(h)}
		switch h.Status {
		case compare.Regressed:
			tc.Failure = &junitFailure{Type: string(compare.Regressed), Message: "the candidate did not hold the target rate the baseline held", Body: tc.SystemOut}
			s.Failures++
			root.Failures++
		case compare.Inconclusive:
			tc.Skipped = &junitSkipped{Message: "inconclusive: the candidate mostly missed the rate; run more pairs"}
			s.Skipped++
			root.Skipped++
		}
		s.Cases = append(s.Cases, tc)
		s.Tests++
		root.Tests++
	}
	var total time.Duration
	for i := range root.Suites {
		s := &root.Suites[i]
		d := r.Measured[s.Name]
		total += d
		s.Time = seconds(d)
		for j := range s.Cases {
			s.Cases[j].Time = seconds(d / time.Duration(len(s.Cases)))
		}
	}
	root.Time = seconds(total)
	if c.Invalid != "" {
		root.Errors++
		root.Suites = append(root.Suites, junitSuite{Name: "run", Time: seconds(0), Tests: 1, Errors: 1, Properties: props,
			Cases: []junitCase{{ClassName: junitClass(c, "run"), Name: "valid run", Time: seconds(0), Failure: &junitFailure{Type: string(compare.VerdictInvalid), Message: c.Invalid}}}})
		root.Tests++
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("report: junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitClass is a testcase's classname: regress.SUITE.WORKLOAD, so a CI
// page that lists classes shows which suite and workload a case is of.
func junitClass(c *compare.Comparison, workload string) string {
	parts := []string{"regress"}
	if c.Suite != "" {
		parts = append(parts, c.Suite)
	}
	return strings.Join(append(parts, strings.ReplaceAll(workload, " ", "_")), ".")
}

// junitProperties name what a testsuite's cases compared and who decided:
// the sides, the suite, the verdict and the regress build.
func junitProperties(r Report) []junitProperty {
	c := r.Comparison
	props := []junitProperty{{"baseline", c.Baseline.Name}, {"candidate", c.Candidate.Name}}
	if v := r.Vote.Baseline.Version; v != "" {
		props = append(props, junitProperty{"baseline.build", v})
	}
	if v := r.Vote.Candidate.Version; v != "" {
		props = append(props, junitProperty{"candidate.build", v})
	}
	if c.Suite != "" {
		props = append(props, junitProperty{"suite", c.Suite})
	}
	props = append(props, junitProperty{"verdict", string(c.Verdict)})
	if r.Build.Module != "" {
		props = append(props, junitProperty{"regress.build", r.Build.String()})
	}
	if r.Build.Commit != "" {
		props = append(props, junitProperty{"regress.commit", r.Build.Commit})
	}
	return props
}

// seconds is a duration as JUnit's time attribute writes it.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
