// Package noise is the instance noise a comparison assumes: the offset
// between two fresh server JVMs of one release, looked up per HBase line
// and JDK in a suite's figures (compare.instance_sd, instance_sd_by_line,
// instance_sd_by_jdk), where the figure came from in words, and the advice
// for a run of one instance a side. The offset is not one figure: on 2.6.1
// (JDK 17) eight A/As put it at 1.3% of cpu_per_op, while one A/A of a 2.4
// release (JDK 11, issue 43) read +7.4% and -6.7% in single workloads; a
// comparison takes its sides' lines' figure, and where a line has none it
// says what stood in, never silently. It reads no store: versions and JDKs
// are given to it as fields.
package noise

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/version"
)

// Figures are a suite's instance noise figures (its compare.instance_sd
// keys): per metric, a fraction of the metric (0.035 is 3.5%).
type Figures struct {
	// Default stands in for a line with no figure of its own (compare.instance_sd).
	Default map[string]float64
	// ByLine are the figures measured per HBase line, keyed by major.minor ("2.4").
	ByLine map[string]map[string]float64
	// ByJDK are the figures per JDK, keyed by its major version then the
	// JVM options its servers ran with ("11 -XX:-TieredCompilation").
	ByJDK map[string]map[string]float64
	// Runs is how many runs the figures were measured over (0 means 2).
	Runs int
}

// JDK is a side's JDK as a figure is looked up for it: its major version
// and every JVM option its servers ran with (the suite's and the side's
// own). The zero JDK is one not recorded.
type JDK struct {
	Major   int
	Options []string
}

// Check refuses figures keyed by anything but a line or a JDK, holding a
// metric the catalogue does not know or a value that is no fraction, or
// measured over a negative number of runs.
func (f Figures) Check() error {
	if err := checkSD("", f.Default); err != nil {
		return err
	}
	if err := checkLines(f.ByLine); err != nil {
		return err
	}
	if err := checkJDKs(f.ByJDK); err != nil {
		return err
	}
	if f.Runs < 0 {
		return fmt.Errorf("compare: instance runs %d is negative; give the number of runs the instance sd was measured over", f.Runs)
	}
	return nil
}

// checkSD refuses an instance sd map with an unknown metric or a value
// that is no fraction; line names the HBase line it is for, if any.
func checkSD(line string, sd map[string]float64) error {
	of := ""
	if line != "" {
		of = " of " + line
	}
	for _, k := range slices.Sorted(maps.Keys(sd)) {
		v := sd[k]
		if !metric.IsMetric(k) {
			return fmt.Errorf("compare: instance sd%s for unknown metric %q; known metrics: %s", of, k, metric.List())
		}
		if math.IsNaN(v) || v < 0 || v > 1 {
			return fmt.Errorf("compare: instance sd%s %v for %s is not a fraction in [0, 1] (0.017 is 1.7%%)", of, v, k)
		}
	}
	return nil
}

// lineRE is an HBase line as Figures.ByLine keys it: major.minor.
var lineRE = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)

// LineOf is the HBase line (major.minor) of a version: "2.4" for 2.4.18,
// "2.6" for 2.6.1-hadoop3; "" when v names no major.minor. Give it a
// manifest's Version, not its Label: a label (2.6.1-aa-x-b) is a name.
func LineOf(v string) string {
	major, minor, ok := version.Line(v)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d.%d", major, minor)
}

// checkLines refuses a ByLine keyed by anything but a line or
// holding a figure checkSD would refuse.
func checkLines(byLine map[string]map[string]float64) error {
	return checkKeyed(byLine, lineRE, "line", func(k string) error {
		return fmt.Errorf("compare: instance sd for %q, which is no HBase line; key each line's figure by major.minor, e.g. \"2.4\"", k)
	})
}

// checkKeyed checks every figure of an instance sd map keyed by re (a
// line or a JDK, kind naming it in errors): a key re refuses is refuse's
// error, a figure checkSD's.
func checkKeyed(by map[string]map[string]float64, re *regexp.Regexp, kind string, refuse func(k string) error) error {
	for _, k := range slices.Sorted(maps.Keys(by)) {
		if !re.MatchString(k) {
			return refuse(k)
		}
		if err := checkSD(kind+" "+k, by[k]); err != nil {
			return err
		}
	}
	return nil
}

// Instance is the instance sd a comparison assumes and where it came from.
type Instance struct {
	// Lines are the sides' HBase lines, the baseline's first, once each;
	// "" stands for a side whose version names no line.
	Lines []string
	// SD is the instance sd per metric (a fraction) the comparison
	// assumes: each side's line's own figure, or the default where a line
	// has none, the larger per metric when the sides' differ.
	SD map[string]float64
	// Measured are the lines whose own figure SD holds; Unmeasured those
	// the default stood in for.
	Measured, Unmeasured []string
	// JDKs are the sides' JDKs ("JDK 11") whose own figure
	// (Figures.ByJDK) raised SD above the lines'.
	JDKs []string
	// jdkOnly is set when no line figure or default held SD and the JDKs'
	// figures alone did.
	jdkOnly bool
	// Note says, when the default stood in for a line (a suite that gives
	// figures per line and none for this one), what stood in and how to
	// measure the line's own; "" otherwise.
	Note string
}

// Source says in a few words where SD came from, for `regress plan`.
func (n Instance) Source() string {
	if n.jdkOnly {
		return "measured on " + strings.Join(n.JDKs, " and ") + " (no figure for " + lineNames(n.Lines) + ")"
	}
	s := n.lineSource()
	if len(n.JDKs) > 0 {
		s += "; raised to " + strings.Join(n.JDKs, " and ") + "'s figure where larger"
	}
	return s
}

// lineSource is Source before the JDKs.
func (n Instance) lineSource() string {
	switch {
	case len(n.SD) == 0:
		return "none assumed: a run of several instances leans on its own estimate alone"
	case len(n.Unmeasured) == 0 && len(n.Measured) > 0:
		return "measured on " + strings.Join(n.Measured, " and ")
	case len(n.Unmeasured) > 0 && len(n.Measured) > 0:
		return fmt.Sprintf("measured on %s; the suite's default for %s", strings.Join(n.Measured, " and "), lineNames(n.Unmeasured))
	case n.Note != "":
		return "the suite's default instance_sd; not measured on " + lineNames(n.Unmeasured)
	default:
		return "the suite's instance_sd, one figure for every line"
	}
}

// Of picks the instance sd of a comparison of baseVersion with
// candVersion (manifests' Version, not their Label) under f: each side's
// line's figure from f.ByLine, or f.Default where the line has none, the
// larger per metric; then each of jdks (the sides' JDKs) with a figure in
// f.ByJDK raises a metric to it where larger. When f gives figures per
// line and a side's line is not among them, Note says so.
func Of(f Figures, baseVersion, candVersion string, jdks ...JDK) Instance {
	var n Instance
	for _, v := range []string{baseVersion, candVersion} {
		if l := LineOf(v); !slices.Contains(n.Lines, l) {
			n.Lines = append(n.Lines, l)
		}
	}
	for _, l := range n.Lines {
		sd, ok := f.ByLine[l]
		if ok {
			n.Measured = append(n.Measured, l)
		} else {
			sd = f.Default
			n.Unmeasured = append(n.Unmeasured, l)
		}
		for k, v := range sd {
			if n.SD == nil {
				n.SD = map[string]float64{}
			}
			n.SD[k] = max(n.SD[k], v)
		}
	}
	if len(n.Unmeasured) > 0 && len(f.ByLine) > 0 {
		n.Note = unmeasuredNote(n.Unmeasured, f)
	}
	n.raiseForJDKs(f.ByJDK, jdks)
	return n
}

// jdkRE is a JDK as Figures.ByJDK keys it: its major version,
// then the JVM options its label names ("11 -XX:-TieredCompilation").
var jdkRE = regexp.MustCompile(`^[0-9]+( -[^ ]+)*$`)

// checkJDKs refuses a ByJDK keyed by anything but a JDK major
// version or holding a figure checkSD would refuse.
func checkJDKs(byJDK map[string]map[string]float64) error {
	return checkKeyed(byJDK, jdkRE, "JDK", func(k string) error {
		return fmt.Errorf("compare: instance sd for JDK %q; key each JDK's figure by its major version, e.g. \"11\", then any JVM options its servers ran with (\"11 -XX:-TieredCompilation\")", k)
	})
}

// raiseForJDKs raises n.SD, metric by metric, to the figure of each JDK of
// jdks that byJDK lists, where larger, and names the JDKs that raised it.
// A JDK whose servers ran with JVM options takes the figure keyed by its
// major version and the most of those options (figureFor); options the
// suite measured nothing for are no reason to assume less.
func (n *Instance) raiseForJDKs(byJDK map[string]map[string]float64, jdks []JDK) {
	none := len(n.SD) == 0
	for _, j := range jdks {
		k, ok := figureFor(byJDK, j)
		sd := byJDK[k]
		if !ok || slices.Contains(n.JDKs, "JDK "+k) {
			continue
		}
		raised := false
		for m, v := range sd {
			if v > n.SD[m] {
				if n.SD == nil {
					n.SD = map[string]float64{}
				}
				n.SD[m], raised = v, true
			}
		}
		if raised {
			n.JDKs = append(n.JDKs, "JDK "+k)
		}
	}
	n.jdkOnly = none && len(n.JDKs) > 0
}

// figureFor is the key of byJDK that describes j (11 with
// -XX:-TieredCompilation -Xmx2g): of the keys of its major version whose
// options j all ran with, the one naming the most; false when byJDK has
// none (or j is not known).
func figureFor(byJDK map[string]map[string]float64, j JDK) (string, bool) {
	if j.Major == 0 {
		return "", false
	}
	major := strconv.Itoa(j.Major)
	best, bestN := "", -1
	for _, k := range slices.Sorted(maps.Keys(byJDK)) {
		kf := strings.Fields(k)
		if kf[0] != major || len(kf)-1 <= bestN {
			continue
		}
		if !slices.ContainsFunc(kf[1:], func(o string) bool { return !slices.Contains(j.Options, o) }) {
			best, bestN = k, len(kf)-1
		}
	}
	return best, bestN >= 0
}

// where names the lines and the JDKs that raised their figure, for a note:
// "2.4", "2.6 on JDK 11".
func (n Instance) where() string {
	s := lineNames(n.Lines)
	if len(n.JDKs) > 0 {
		s += " on " + strings.Join(n.JDKs, " and ")
	}
	return s
}

// Assumed is, in a comparison, the instance sd it assumed and where
// that came from: report.json's instance_noise, for a script to read
// without parsing the warnings. Figures are fractions (0.035 is 3.5%).
type Assumed struct {
	// Lines are the sides' HBase lines, the baseline's first, once each;
	// "" stands for a side whose version names no line.
	Lines []string `json:"lines"`
	// SD is the instance sd per metric the comparison assumed (Instance.SD);
	// empty when the lines have no figure and the suite no default.
	SD map[string]float64 `json:"instance_sd"`
	// Measured are the lines whose own compare.instance_sd_by_line figure
	// SD holds.
	Measured []string `json:"measured,omitempty"`
	// DefaultFor are the lines compare.instance_sd stood in for (every
	// line, when the suite gives one figure for all).
	DefaultFor []string `json:"default_for,omitempty"`
	// DefaultFrom are the lines of compare.instance_sd_by_line whose
	// figures the default equals (["2.4", "2.6"] in release), when the
	// default stood in.
	DefaultFrom []string `json:"default_from,omitempty"`
	// JDKs are the sides' JDKs whose compare.instance_sd_by_jdk figure
	// raised SD above the lines' ("JDK 11").
	JDKs []string `json:"jdks,omitempty"`
	// Source is Instance.Source: where SD came from, in words.
	Source string `json:"source"`
	// Note is Instance.Note, also among the warnings: a line the suite
	// gives no figure for, what stood in and how to measure it.
	Note string `json:"note,omitempty"`
	// InstanceRuns is the runs the suite says its figures were measured
	// over (compare.instance_runs; 0 there means 2): their weight against
	// a run's own estimate when it spans several instances.
	InstanceRuns int `json:"instance_runs"`
}

// Assumed is n as a comparison under f reports it; nil when f gives no
// instance sd at all (neither a default nor a line's nor a JDK's).
func (n Instance) Assumed(f Figures) *Assumed {
	if len(f.Default) == 0 && len(f.ByLine) == 0 && len(f.ByJDK) == 0 {
		return nil
	}
	a := &Assumed{
		Lines: slices.Clone(n.Lines), SD: maps.Clone(n.SD), Measured: slices.Clone(n.Measured),
		DefaultFor: slices.Clone(n.Unmeasured), JDKs: slices.Clone(n.JDKs), Source: n.Source(), Note: n.Note, InstanceRuns: f.Runs,
	}
	if a.SD == nil {
		a.SD = map[string]float64{}
	}
	if a.InstanceRuns == 0 {
		a.InstanceRuns = 2
	}
	if len(a.DefaultFor) > 0 && len(f.Default) > 0 {
		a.DefaultFrom = sameAs(f.Default, f.ByLine)
	}
	return a
}

// unmeasuredNote is the one line that says a line's instance noise was
// not measured, what stood in, and how to measure it.
func unmeasuredNote(lines []string, f Figures) string {
	stood := "no default (compare.instance_sd) either: a run of several instances leans on its own estimate alone"
	if len(f.Default) > 0 {
		stood = "the suite's compare.instance_sd (" + sdText(f.Default)
		if from := sameAs(f.Default, f.ByLine); from != nil {
			stood += ": " + strings.Join(from, "'s and ") + "'s figures"
		}
		stood += ") stands in"
	}
	what := "an HBase release of that line"
	if len(lines) == 1 && lines[0] != "" {
		what = "a " + lines[0] + " release V"
	}
	return fmt.Sprintf("instance noise for %s not measured: %s; `regress --baseline V --candidate V --suite symmetry` with %s measures it (then give it in compare.instance_sd_by_line)",
		lineNames(lines), stood, what)
}

// lineNames names lines for a note ("2.4", "2.4 and 2.5", "an unknown line").
func lineNames(lines []string) string {
	names := make([]string, len(lines))
	for i, l := range lines {
		names[i] = l
		if l == "" {
			names[i] = "an unknown line (no version recorded)"
		}
	}
	return strings.Join(names, " and ")
}

// sameAs lists every line whose figures equal sd, in order; nil if none.
func sameAs(sd map[string]float64, byLine map[string]map[string]float64) []string {
	var same []string
	for _, l := range slices.Sorted(maps.Keys(byLine)) {
		if maps.Equal(sd, byLine[l]) {
			same = append(same, l)
		}
	}
	return same
}

// sdText is an instance sd map as a note prints it: "cpu_per_op 1.3%, alloc_per_op 1.2%".
func sdText(sd map[string]float64) string {
	parts := make([]string, 0, len(sd))
	for _, k := range slices.Sorted(maps.Keys(sd)) {
		parts = append(parts, fmt.Sprintf("%s %s", k, Percent(sd[k])))
	}
	return strings.Join(parts, ", ")
}

// Percent prints a fraction as a percentage with no trailing zeros (0.035: "3.5%"), as the notes print a figure.
func Percent(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", 100*v), "0"), ".") + "%"
}

// Advice says, for a run of one instance a side, which metrics'
// instance sd on this line is more than half their tolerance (tol maps
// a metric to its tightest gating tolerance): the pairs' interval alone
// would leave that offset out, and an unchanged release fail on it more
// than one run in 40 (P(Z > log(1+tau)/sd)), so the run's interval carries
// it (compare's one-instance offset). It names the chance and the
// --instances that would hold the offset inside the intervals, about
// (2·sd/log(1+tau))² (the instance part of the standard error, sd/√I,
// at most half the margin); nil when every metric is within.
func Advice(n Instance, tol map[string]float64) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(n.SD)) {
		sd, tau := n.SD[k], tol[k]
		if sd <= 0 || tau <= 0 {
			continue
		}
		c := math.Log1p(tau)
		if sd <= c/2 {
			continue
		}
		p := 0.5 * math.Erfc(c/sd/math.Sqrt2)
		inst := max(2, int(math.Ceil(4*sd*sd/(c*c))))
		out = append(out, fmt.Sprintf("instance noise on %s: %s's %s (%s) is more than half its %s tolerance, more than one server instance a side can hold: its interval carries that offset, so it shows INCONCLUSIVE where an interval of the pairs alone would fail an unchanged release about one run in %d; --instances %d or more (with pairs.initial %d or more) narrows it enough to decide, or widen the tolerance",
			n.where(), k, Percent(sd), noiseFrom(n), Percent(tau), max(1, int(math.Round(1/p))), inst, 2*inst))
	}
	return out
}

// noiseFrom is Source in two words for Advice's line.
func noiseFrom(n Instance) string {
	if len(n.Unmeasured) == 0 {
		return "measured"
	}
	return "the suite's default; not measured on " + lineNames(n.Unmeasured)
}

// String is SD and where it came from, as `regress plan` prints it:
// "cpu_per_op 3.5%, alloc_per_op 4% (measured on 2.4)".
func (n Instance) String() string {
	if len(n.SD) == 0 {
		return n.Source()
	}
	return sdText(n.SD) + " (" + n.Source() + ")"
}
