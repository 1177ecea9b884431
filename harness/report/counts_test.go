package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
)

// TestServerCountsInEveryFormat: the servers' counts show in text,
// Markdown, HTML and JSON; a comparison without them shows nothing new
// (the golden files hold that).
func TestServerCountsInEveryFormat(t *testing.T) {
	c := pairedFixture()
	c.ServerCounts = []compare.ServerCounts{
		{Workload: "workloadc", Side: "baseline", RequestTrials: 8, ClientReads: 19200, ServerReads: 19197, CacheTrials: 8, BlockCacheHits: 40000, BlockCacheMisses: 120, HitRatio: 40000.0 / 40120},
		{Workload: "workloadc", Side: "candidate", RequestTrials: 8, ClientReads: 19200, ServerReads: 19201},
		{Workload: "workloade", Side: "baseline", RequestTrials: 6, ClientReads: 13683, ClientScans: 12990, ServerReads: 695385},
	}
	c.ServerCountNotes = []string{"candidate: block cache counts not available: no info server"}
	r := Report{Comparison: c}
	// Only a count far above the client's (scans' rows) says why.
	line := "workloadc baseline: 19197 reads counted for the client's 19200, 0 writes for 0 (8 trials); block cache 40000 hits, 120 misses, hit ratio 99.7% (8 trials)"
	tests := []struct {
		format string
		want   []string
	}{
		// The terminal's is a table: a row per workload and side, "-" for what was not counted.
		{FormatText, []string{"server counts (requests", "|workloadc baseline 19197 19200 0 0 40000 120 99.7%|",
			"|workloadc candidate 19201 19200 0 0 - - -|", "  - candidate: block cache counts not available",
			"|workloade baseline 695385 13683 0 0 - - -|", "reads of workloade: HBase counts a read for every row a scan returns"}},
		{FormatMarkdown, []string{serverCountsHeading, "- " + line}},
		{FormatHTML, []string{`<h2 id="counts">Server counts</h2>`, "<li>workloadc baseline: 19197 reads counted for the client&#39;s 19200", "<li>candidate: block cache counts not available"}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, tt.format, r); err != nil {
				t.Fatal(err)
			}
			// A table row is its cells, whatever the blanks between them.
			var cells strings.Builder
			for _, l := range strings.Split(b.String(), "\n") {
				cells.WriteString("|" + strings.Join(strings.Fields(l), " ") + "|")
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) && !strings.Contains(cells.String(), w) {
					t.Errorf("%s report lacks %q", tt.format, w)
				}
			}
		})
	}
	var b bytes.Buffer
	if err := Render(&b, FormatJSON, r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		ServerCounts []compare.ServerCounts `json:"server_counts"`
		Notes        []string               `json:"server_count_notes"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := c.ServerCounts[0]
	want.HitRatio = significant(want.HitRatio, 5) // a ratio, to 5 significant digits in the JSON
	if len(got.ServerCounts) != 3 || got.ServerCounts[0] != want || len(got.Notes) != 1 {
		t.Errorf("JSON server_counts %+v, want %+v", got.ServerCounts, c.ServerCounts)
	}
}
