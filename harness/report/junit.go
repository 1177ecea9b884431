package report

import (
	"encoding/xml"
	"fmt"
	"io"

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
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
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
// skipped with the reason. The report never fails a job itself: the exit code does.
func renderJUnit(w io.Writer, r Report) error {
	c := r.Comparison
	root := junitSuites{Name: fmt.Sprintf("regress %s vs %s", c.Candidate.Name, c.Baseline.Name), Time: "0"}
	index := map[string]int{}
	for _, m := range c.Metrics {
		// A capacity without a knee is shown as a skipped case: "at least" is news.
		if !m.Gated && m.Metric != compare.MetricCapacity {
			continue
		}
		i, ok := index[m.Workload]
		if !ok {
			i = len(root.Suites)
			index[m.Workload] = i
			root.Suites = append(root.Suites, junitSuite{Name: m.Workload, Time: "0"})
		}
		s := &root.Suites[i]
		tc := junitCase{ClassName: m.Workload, Name: m.Op + " " + m.Metric, Time: "0",
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
		i, ok := index[h.Workload]
		if !ok {
			i = len(root.Suites)
			index[h.Workload] = i
			root.Suites = append(root.Suites, junitSuite{Name: h.Workload, Time: "0"})
		}
		s := &root.Suites[i]
		tc := junitCase{ClassName: h.Workload, Name: "held rate", Time: "0", SystemOut: heldRateLine(h)}
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
	if c.Invalid != "" {
		root.Errors++
		root.Suites = append(root.Suites, junitSuite{Name: "run", Time: "0", Tests: 1, Errors: 1,
			Cases: []junitCase{{ClassName: "run", Name: "valid run", Time: "0", Failure: &junitFailure{Type: string(compare.VerdictInvalid), Message: c.Invalid}}}})
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
