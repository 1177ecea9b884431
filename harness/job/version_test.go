package job

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/loadhosts"
)

func TestVersionFromBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "50a72ed1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7"}, {Key: "vcs.time", Value: "2026-12-06T05:12:00Z"}}
	for _, tc := range []struct {
		name     string
		bi       *debug.BuildInfo
		ok       bool
		line     string
		contains []string
	}{
		{"no build information", nil, false, "regress devel (commit unknown; go", []string{"regress devel\n", "commit:   unknown"}},
		{"a work tree's build", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: vcs}, true,
			"regress devel (commit 50a72ed1c2d3; go1.26.0)", []string{"commit:   50a72ed1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7 (2026-12-06T05:12:00Z)\n", "go:       go1.26.0 "}},
		{"uncommitted changes", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
			Settings: append(vcs[:2:2], debug.BuildSetting{Key: "vcs.modified", Value: "true"})}, true,
			"regress devel (commit 50a72ed1c2d3, modified; go1.26.0)", []string{", with uncommitted changes\n"}},
		{"go install of a tag", &debug.BuildInfo{GoVersion: "go1.25.3", Main: debug.Module{Version: "v0.3.0"}}, true,
			"regress v0.3.0 (commit unknown; go1.25.3)", []string{"regress v0.3.0\n", "commit:   unknown"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := versionOf(tc.bi, tc.ok)
			if got := v.String(); !strings.HasPrefix(got, tc.line) {
				t.Errorf("String() = %q, want it to start %q", got, tc.line)
			}
			var b bytes.Buffer
			if err := v.Write(&b); err != nil {
				t.Fatal(err)
			}
			for _, want := range append(tc.contains, fmt.Sprintf("protocol: %d ", loadhosts.Protocol())) {
				if !strings.Contains(b.String(), want) {
					t.Errorf("Write lacks %q:\n%s", want, b.String())
				}
			}
		})
	}
}

// TestVersionFromTheLinkerWhenGoRecordedNone: go run (and -buildvcs=false)
// records no commit; the one the Makefile's build gives the linker names
// the build then, and never overrides Go's own stamp.
func TestVersionFromTheLinkerWhenGoRecordedNone(t *testing.T) {
	const c = "0123456789abcdef0123456789abcdef01234567"
	v := withStamp(versionOf(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true), c, "true")
	if v.String() != "regress devel (commit 0123456789ab, modified; go1.26.8)" || v.Build().Stamp != "ldflags" {
		t.Errorf("linker's commit: %q, %+v", v.String(), v.Build())
	}
	var b bytes.Buffer
	_ = v.Write(&b)
	if !strings.Contains(b.String(), "commit:   "+c+", with uncommitted changes (given to the linker by the build)") {
		t.Errorf("Write:\n%s", b.String())
	}
	vcs := versionOf(&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "feedface"}}}, true)
	if got := withStamp(vcs, c, ""); got.Commit != "feedface" || got.Build().Stamp != "vcs" {
		t.Errorf("Go's stamp was overridden: %+v", got)
	}
}
