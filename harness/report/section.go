package report

import (
	"html/template"
	"io"
)

// A Section is a command's own part of the text, Markdown and HTML reports,
// rendered by the package that owns what it shows (capacity's searches and
// latency-throughput curves); the JSON report carries the section's value
// itself. Report draws nothing of a section but where it goes.
type Section interface {
	Text(w io.Writer) error
	Markdown(w io.Writer) error
	HTML() template.HTML
}

// Helpers a Section draws with, so its figures and plots read like the report's.

// Value formats a value with its unit ("us", "ops/s", "B", ...): latencies scale from µs to ms or s.
func Value(v float64, unit string) string { return value(v, unit) }

// MarkdownEscape keeps a Markdown table cell intact (pipes, emphasis, newlines).
func MarkdownEscape(s string) string { return mdEscape(s) }

// Decades returns the powers of ten around [least, most], a log axis's ends (1 and 10 when empty).
func Decades(least, most float64) (lo, hi float64) { return decades(least, most) }

// LogTicks are the ticks of a log axis from lo to hi (1, 2 and 5 times each power of ten, or the powers alone).
func LogTicks(lo, hi float64) []float64 { return logTicks(lo, hi) }

// The plots' colours of the two sides.
const (
	ColourBaseline  = colBase
	ColourCandidate = colCand
)

// sectionHTML is s's HTML, or nothing without a section.
func sectionHTML(s Section) template.HTML {
	if s == nil {
		return ""
	}
	return s.HTML()
}
