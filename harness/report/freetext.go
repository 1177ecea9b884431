package report

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/regress-hbase/regress/harness/compare"
)

// Free text is anything a report prints that regress did not write itself:
// names and fields read from a manifest (a version, label, suite, workload
// or operation name, the environment's OS, CPU and JDK, a profile's frames)
// or typed on a command line. A store can hold anything (a manifest edited
// and re-signed), so the text, Markdown and vote reports, which have no
// escaping of their own, print free text only through this file: control
// characters shown escaped (ESC as \x1b), a name that is not plain quoted
// with its markup made inert, and long names cut. HTML, JSON and JUnit
// escape in their own encoders and are handed the text as it is.

// NameMax is the most runes a name takes in the text, Markdown and vote
// reports: a longer one is cut, marked with an ellipsis, so a line keeps
// within the vote's VoteWidth columns (the JSON and HTML reports hold the
// whole name).
const NameMax = 56

// ellipsis marks a name or word that was cut.
const ellipsis = "…"

// plainName matches a name printed as it is: a version, label, suite,
// workload or operation name as regress itself makes them, and an
// environment's words ("Intel(R) Xeon(R) CPU @ 2.40GHz", "Linux 6.1").
// It starts with a letter or digit and holds no ": ", so printed at the
// start of a line it cannot pass for one of the report's own lines
// ("Verdict: PASS", a heading, a list item, a code fence).
var plainName = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._+:@=/ (),…-]*)?$`)

// Inert is a name as the text, Markdown and vote reports print it: as it is
// when plain (plainName, at most NameMax runes), else in double quotes with
// control and format characters escaped (\x1b, \u202e), bytes that are no
// UTF-8 as \xff, and '<', '>', '&' and '`' as \u003c, \u003e, \u0026 and
// \u0060, so no markup in it takes effect; a name longer than NameMax is
// cut with an ellipsis. Inert of its own result is that result.
func Inert(s string) string {
	if plainName.MatchString(s) && !strings.Contains(s, ": ") {
		if r := []rune(s); len(r) > NameMax {
			return string(r[:NameMax-1]) + ellipsis
		}
		return s
	}
	if quotedInert(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	cols := 2 // the quotes
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		e := escapeRune(r, s[i:i+size])
		w := utf8.RuneCountInString(e)
		if more := i+size < len(s); more && cols+w+1 > NameMax || !more && cols+w > NameMax {
			b.WriteString(ellipsis)
			break
		}
		b.WriteString(e)
		cols += w
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// escapeRune is one rune of a quoted name: r itself when it is printable
// and no markup, else its escape (raw holds r's bytes, for bytes that are no UTF-8).
func escapeRune(r rune, raw string) string {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return fmt.Sprintf(`\x%02x`, raw[0])
	case r == '"' || r == '\\':
		return `\` + string(r)
	case r == '<' || r == '>' || r == '&' || r == '`':
		return fmt.Sprintf(`\u%04x`, r)
	case needsEscape(r) && r < 0x100:
		return fmt.Sprintf(`\x%02x`, r)
	case needsEscape(r):
		return fmt.Sprintf(`\u%04x`, r)
	}
	return string(r)
}

// needsEscape says whether r must not reach a terminal or a page as it is:
// a control character (a newline would start a line of its own, ESC a
// terminal sequence), a format character (a bidirectional override that
// reorders what is read) or a line or paragraph separator.
func needsEscape(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// quotedInert says whether s is already a quoted name Inert would print:
// in double quotes, with nothing inside that needs escaping but escaped.
func quotedInert(s string) bool {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' || !utf8.ValidString(s) {
		return false
	}
	body := s[1 : len(s)-1]
	if strings.ContainsFunc(body, needsEscape) {
		return false
	}
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			if i++; i == len(body) {
				return false // it would escape the closing quote
			}
		case '"', '<', '>', '&', '`':
			return false
		}
	}
	return true
}

// InertProse is a sentence regress wrote around free text (a note naming
// a workload or an operation) as the plain-text formats print it: control
// and format characters escaped, a '<' that could open a tag written \u003c.
func InertProse(s string) string { return inertProse(s, nil, 0) }

// inertProse is a sentence regress wrote around free text (a warning
// naming an environment, a note naming a workload): the names in it that
// are not plain replaced by their Inert form (names), control and format
// characters escaped, a '<' that could open a tag written \u003c, and, when maxWord > 0, each word longer than maxWord
// runes cut with an ellipsis. A sentence is never quoted: it is regress's
// own words.
func inertProse(s string, names *strings.Replacer, maxWord int) string {
	if names != nil {
		s = names.Replace(s)
	}
	if strings.ContainsFunc(s, needsEscape) || !utf8.ValidString(s) {
		var b strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 || needsEscape(r) {
				b.WriteString(escapeRune(r, s[i:i+size]))
			} else {
				b.WriteRune(r)
			}
			i += size
		}
		s = b.String()
	}
	// A '<' that would open a tag: raw HTML where the text is pasted.
	s = htmlStart.ReplaceAllString(s, `\u003c$1`)
	if maxWord <= 0 {
		return s
	}
	words := strings.Split(s, " ")
	for i, w := range words {
		if r := []rune(w); len(r) > maxWord {
			words[i] = string(r[:maxWord-1]) + ellipsis
		}
	}
	return strings.Join(words, " ")
}

// inertReport is r as the text, Markdown and vote reports print it: every
// name of its comparison, vote, profiles and timelines Inert, every
// sentence inertProse (words cut at maxWord runes when maxWord > 0). r
// itself is left as it is: the HTML and JSON reports are rendered from it.
func inertReport(r Report, maxWord int) Report {
	r.Vote = r.vote()
	if r.Comparison == nil {
		return r
	}
	c := *r.Comparison
	v := r.Vote
	var pairs []string
	name := func(s string) string {
		q := Inert(s)
		if q != s && !slices.Contains(pairs, s) {
			pairs = append(pairs, s, q)
		}
		return q
	}
	c.Baseline.Name, c.Candidate.Name, c.Suite = name(c.Baseline.Name), name(c.Candidate.Name), name(c.Suite)
	v.Baseline.Version, v.Candidate.Version = name(v.Baseline.Version), name(v.Candidate.Version)
	v.Baseline.RC, v.Candidate.RC = name(v.Baseline.RC), name(v.Candidate.RC)
	c.Metrics = slices.Clone(c.Metrics)
	for i := range c.Metrics {
		m := &c.Metrics[i]
		m.Workload, m.Op, m.Metric, m.GatedFor = name(m.Workload), name(m.Op), name(m.Metric), name(m.GatedFor)
		m.Pools = slices.Clone(m.Pools)
		for j := range m.Pools {
			m.Pools[j] = name(m.Pools[j])
		}
	}
	c.HeldRate = slices.Clone(c.HeldRate)
	for i := range c.HeldRate {
		c.HeldRate[i].Workload = name(c.HeldRate[i].Workload)
	}
	c.ServerCounts = slices.Clone(c.ServerCounts)
	for i := range c.ServerCounts {
		c.ServerCounts[i].Workload = name(c.ServerCounts[i].Workload)
	}
	// Longest first: a name inside another is replaced only on its own.
	var names *strings.Replacer
	if len(pairs) > 0 {
		type pair struct{ raw, q string }
		ps := make([]pair, 0, len(pairs)/2)
		for i := 0; i < len(pairs); i += 2 {
			ps = append(ps, pair{pairs[i], pairs[i+1]})
		}
		slices.SortStableFunc(ps, func(a, b pair) int { return len(b.raw) - len(a.raw) })
		flat := make([]string, 0, len(pairs))
		for _, p := range ps {
			flat = append(flat, p.raw, p.q)
		}
		names = strings.NewReplacer(flat...)
	}
	prose := func(s string) string { return inertProse(s, names, maxWord) }
	proseAll := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = prose(s)
		}
		return out
	}
	for i := range c.Metrics {
		c.Metrics[i].Note = prose(c.Metrics[i].Note)
	}
	c.Warnings, c.NotCompared, c.ServerCountNotes = proseAll(c.Warnings), proseAll(c.NotCompared), proseAll(c.ServerCountNotes)
	c.Invalid = prose(c.Invalid)
	// The machine and JDK are the environment's words, joined by regress.
	v.Machine, v.JDK, v.Hadoop = prose(v.Machine), prose(v.JDK), prose(v.Hadoop)
	v.Baseline.JarDigest, v.Candidate.JarDigest = prose(v.Baseline.JarDigest), prose(v.Candidate.JarDigest)
	// Where the report is and how to run it again are the user's own
	// paths and flags: escaped, never cut.
	v.Report, v.Command, v.Regress = inertProse(v.Report, nil, 0), inertProse(v.Command, nil, 0), inertProse(v.Regress, nil, 0)
	v.Frames = slices.Clone(v.Frames)
	for i := range v.Frames {
		// A frame is read by profile.ShortFrame, which cuts it: escaped only.
		v.Frames[i].Workload, v.Frames[i].Frame = name(v.Frames[i].Workload), inertProse(v.Frames[i].Frame, nil, 0)
	}
	r.Comparison, r.Vote = &c, v
	r.ProfileNotes, r.ShiftNotes = proseAll(r.ProfileNotes), proseAll(r.ShiftNotes)
	r.Timelines = slices.Clone(r.Timelines)
	for i := range r.Timelines {
		t := &r.Timelines[i]
		t.Workload, t.Name, t.TrialID, t.Why = name(t.Workload), name(t.Name), name(t.TrialID), prose(t.Why)
	}
	r.Profiles = slices.Clone(r.Profiles)
	for i := range r.Profiles {
		r.Profiles[i].Workload = name(r.Profiles[i].Workload)
	}
	return r
}

// inertVote is c and v as VoteParagraph prints them (inertReport's, with
// words held within the paragraph's width).
func inertVote(c *compare.Comparison, v Vote) (*compare.Comparison, Vote) {
	r := inertReport(Report{Comparison: c, Vote: v}, VoteWidth-2)
	return r.Comparison, r.Vote
}

// plainText renders a format that has no escaping of its own (text,
// Markdown, vote) from r's inert form (inertReport).
func plainText(render func(io.Writer, Report) error, maxWord int) func(io.Writer, Report) error {
	return func(w io.Writer, r Report) error { return render(w, inertReport(r, maxWord)) }
}
