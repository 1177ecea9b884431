package job

import (
	"slices"
	"strings"
	"testing"
)

func TestParseFormatTakesNamesAndAliasesInAnyCase(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		history  bool
	}{
		{"text", "text", false}, {"txt", "text", false}, {"table", "text", false}, {"TXT", "text", false},
		{"md", "markdown", false}, {"Markdown", "markdown", false}, {"JSON", "json", false}, {"xml", "junit", false},
		{"html", "html", false}, {"vote", "vote", false}, {"yaml", "", false}, {"", "", false}, {"csv", "", false},
		{"csv", "csv", true}, {"CSV", "csv", true}, {"txt", "text", true}, {"md", "", true},
	} {
		parse := ParseFormat
		if tc.history {
			parse = ParseHistoryFormat
		}
		got, err := parse(tc.in)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("parse(%q) (history %v) = %q, %v; want %q", tc.in, tc.history, got, err, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	names := []string{"baseline", "baseline-zk", "baseline-label", "candidate", "compare", "completion", "list"}
	for _, tc := range []struct {
		typed string
		want  []string
	}{
		{"baselin", []string{"baseline"}},
		{"basline", []string{"baseline"}},
		{"compre", []string{"compare"}},
		{"lisst", []string{"list"}},
		{"comp", []string{"compare", "completion"}},
		{"zzz", nil},
		{"baseline-", []string{"baseline", "baseline-zk"}},
	} {
		if got := Nearest(tc.typed, names); !slices.Equal(got, tc.want) {
			t.Errorf("Nearest(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
}

// A load hosts' root znode that ZooKeeper would refuse is named as what it
// is, not advised as HBase's /hbase.
func TestCheckZNodeNamesWhatTheZnodeIs(t *testing.T) {
	for _, tc := range []struct{ flag, want, not string }{
		{"--root", "the znode the load hosts register under", "/hbase"},
		{"--load-hosts-root", "such as /regress-load", "zookeeper.znode.parent"},
		{"--znode", "zookeeper.znode.parent, an absolute znode path such as /hbase", "load hosts"},
	} {
		err := CheckZNode(tc.flag, "bogus")
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tc.not) {
			t.Errorf("%s bogus: %v, want %q and no %q", tc.flag, err, tc.want, tc.not)
		}
	}
}
