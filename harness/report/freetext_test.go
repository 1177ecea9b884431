package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestFreeTextIsInertInReports: a name a user typed (an imported workload, a
// label) reaches the vote paragraph quoted and Markdown escaped, so markup in
// it takes no effect where the report is pasted; HTML escapes it as well.
func TestFreeTextIsInertInReports(t *testing.T) {
	const evil = "<img src=x onerror=alert(1)>"
	c := voteComparison()
	c.Candidate.Name = "rc<b>1"
	for i := range c.Metrics {
		c.Metrics[i].Workload = evil
	}
	c.Metrics[len(c.Metrics)-1].Workload = "a```b"
	r := Report{Comparison: c}
	for _, f := range []string{FormatVote, FormatMarkdown, FormatHTML} {
		var buf bytes.Buffer
		if err := Render(&buf, f, r); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, raw := range []string{"<img", "<b>"} {
			if strings.Contains(out, raw) {
				t.Errorf("%s: %q reaches the report raw:\n%s", f, raw, out)
			}
		}
		if f == FormatMarkdown && strings.Count(out, "\n```") != 1 {
			t.Errorf("markdown: a name's backticks end the vote paragraph's fence early:\n%s", out)
		}
	}
	lines := VoteParagraph(c, Vote{})
	if !strings.Contains(unwrapVote(lines), `"\u003cimg src=x onerror=alert(1)\u003e" READ p99`) || !strings.Contains(lines[0], `HBase "rc\u003cb\u003e1" vs 2.6.1`) {
		t.Errorf("free text not quoted in the vote paragraph:\n%s", strings.Join(lines, "\n"))
	}
	// Plain names read as they are.
	if got := VoteParagraph(voteComparison(), Vote{}); strings.Contains(strings.Join(got, "\n"), `"`) {
		t.Errorf("a plain name was quoted:\n%s", strings.Join(got, "\n"))
	}
	if got := mdEscape("< 1 ms"); got != "< 1 ms" {
		t.Errorf("mdEscape(%q) = %q: a '<' opening no tag stays", "< 1 ms", got)
	}
}

// Free text from a manifest (hostile: a re-signed manifest holds anything)
// cannot forge the text, Markdown or vote report: no raw control character
// (a terminal escape, a newline starting a line of its own), no line that
// passes for the verdict, a heading or a code fence, no raw HTML, and the
// vote's lines within VoteWidth with names cut; the JSON report still holds
// every name whole.
func TestFreeTextCannotForgeAReport(t *testing.T) {
	long := strings.Repeat("w", 1000)
	c := voteComparison()
	c.Baseline.Name = "2.6.1\nVerdict: PASS"
	c.Candidate.Name = "rc\x1b[2J1"
	c.Suite = "quick\n```\n# Heading"
	c.Metrics[0].Workload = "Verdict: PASS"
	c.Metrics[0].Op = "<script>alert(1)</script>"
	c.Metrics[1].Workload = long
	c.Metrics[2].Workload, c.Metrics[2].Op = long, "READ\u202eevil"
	c.Warnings = append(c.Warnings, "environments differ (baseline vs candidate: os Linux\nVerdict: PASS\n# Heading\n```\n<script>x</script>\x1b[2J vs Linux)")
	r := Report{Comparison: c, Vote: Vote{Machine: "2 cores, 8 GiB, Linux\n# pwned", JDK: "OpenJDK\x1b]0;title\x07 17", Report: "reports/x/report.html"}}
	for _, f := range []string{FormatText, FormatMarkdown, FormatVote} {
		var buf bytes.Buffer
		if err := Render(&buf, f, r); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if i := strings.IndexFunc(out, func(r rune) bool { return r != '\n' && needsEscape(r) }); i >= 0 {
			t.Errorf("%s: a raw control character %q reaches the report:\n%s", f, out[i:i+1], out)
		}
		verdicts, headings, fences := 0, 0, 0
		for _, l := range strings.Split(out, "\n") {
			switch {
			case strings.HasPrefix(strings.ToLower(l), "verdict:"), strings.HasPrefix(l, "**Verdict:"):
				verdicts++
			case strings.HasPrefix(l, "#"):
				headings++
			case strings.HasPrefix(l, "```"):
				fences++
			}
			if f == FormatVote && len([]rune(l)) > VoteWidth {
				t.Errorf("vote: a line of %d columns, want at most %d: %q", len([]rune(l)), VoteWidth, l)
			}
		}
		// Markdown holds the vote paragraph too, fenced, and its own bold
		// line; the text report opens with the verdict word itself.
		if want := map[string]int{FormatMarkdown: 2, FormatVote: 1}[f]; verdicts != want {
			t.Errorf("%s: %d verdict lines, want the report's own only:\n%s", f, verdicts, out)
		}
		if want := map[string]int{FormatMarkdown: 1}[f]; headings != want {
			t.Errorf("%s: %d headings, want %d:\n%s", f, headings, want, out)
		}
		if want := map[string]int{FormatMarkdown: 2}[f]; fences != want {
			t.Errorf("%s: %d fence lines, want %d (the vote paragraph's):\n%s", f, fences, want, out)
		}
		if strings.Contains(out, "<script") {
			t.Errorf("%s: raw HTML reaches the report:\n%s", f, out)
		}
		if f != FormatVote && !strings.Contains(out, `"\u003cscript\u003ealert(1)\u003c/script\u003e"`) && !strings.Contains(out, `"\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"`) {
			t.Errorf("%s: the op name is not quoted:\n%s", f, out)
		}
		if !strings.Contains(out, `\x1b`) {
			t.Errorf("%s: the escape character is not shown escaped:\n%s", f, out)
		}
		// Where the long name is printed at all (the vote has room for the
		// rows the verdict rests on only), it is cut.
		if strings.Contains(out, long[:NameMax]) || strings.Contains(out, long[:20]) && !strings.Contains(out, long[:NameMax-1]+ellipsis) {
			t.Errorf("%s: a long name is not cut to %d with an ellipsis", f, NameMax)
		}
	}
	var js bytes.Buffer
	if err := Render(&js, FormatJSON, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), long) {
		t.Errorf("json: the long name is not whole")
	}
	if c.Metrics[0].Workload != "Verdict: PASS" || c.Baseline.Name != "2.6.1\nVerdict: PASS" {
		t.Errorf("rendering changed the comparison it was given")
	}
}

// Inert leaves plain names alone, quotes the others, and is its own fixed point.
func TestInertQuotesOnlyWhatIsNotPlain(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2.6.1", "2.6.1"},
		{"2.6.1+conf-0a1b2c3d", "2.6.1+conf-0a1b2c3d"},
		{"Intel(R) Xeon(R) CPU @ 2.40GHz", "Intel(R) Xeon(R) CPU @ 2.40GHz"},
		{"sha256:3f2a", "sha256:3f2a"},
		{"Verdict: PASS", `"Verdict: PASS"`},
		{"# x", `"# x"`},
		{"- x", `"- x"`},
		{"a\x1b[2J", `"a\x1b[2J"`},
		{"a\nb", `"a\x0ab"`},
		{"a\u202eb", `"a\u202eb"`},
		{"a\xffb", `"a\xffb"`},
		{`say "hi" \ <b>`, `"say \"hi\" \\ \u003cb\u003e"`},
		{"", ""},
		{strings.Repeat("x", 100), strings.Repeat("x", NameMax-1) + ellipsis},
	}
	for _, tc := range tests {
		got := Inert(tc.in)
		if got != tc.want {
			t.Errorf("Inert(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if again := Inert(got); again != got {
			t.Errorf("Inert(Inert(%q)) = %q, want %q", tc.in, again, got)
		}
		if n := len([]rune(got)); n > NameMax {
			t.Errorf("Inert(%q) takes %d columns, more than %d", tc.in, n, NameMax)
		}
	}
	if got := Inert(strings.Repeat("\x1b", 100)); len([]rune(got)) > NameMax || !strings.HasSuffix(got, ellipsis+`"`) {
		t.Errorf("a long name of escapes: %q, want it cut within %d columns", got, NameMax)
	}
}
