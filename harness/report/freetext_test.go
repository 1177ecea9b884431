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
