package main

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/loadhosts"
)

// TestVersion: `regress version` and `regress --version` print the same
// facts: regress's version, its commit (or why there is none), the Go
// toolchain and the load-host protocol.
func TestVersion(t *testing.T) {
	var outs []string
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("regress %s: %v", strings.Join(args, " "), err)
		}
		for _, want := range []string{"regress ", "commit:", runtime.Version(), fmt.Sprintf("protocol: %d ", loadhosts.Protocol())} {
			if !strings.Contains(out, want) {
				t.Errorf("regress %s lacks %q:\n%s", strings.Join(args, " "), want, out)
			}
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("regress version and regress --version differ:\n%s\n%s", outs[0], outs[1])
	}
	if _, _, err := runCLI(t, "version", "extra"); codeOf(err) != exitUsage {
		t.Errorf("regress version extra: %v, want a usage error", err)
	}
}
