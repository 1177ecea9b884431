// Package proctest is what tests see of this machine's processes through
// /proc: which ones still run from a directory (a cluster's work dir), so a
// test can say a stopped or failed run left no JVM behind.
package proctest

import (
	"os"
	"path/filepath"
	"strings"
)

// ProcessesIn lists the pids whose command line names a path inside dir: a
// JVM's class path and log4j2 flag name its work dir, so this finds it
// however it was started.
func ProcessesIn(dir string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), dir+string(filepath.Separator)) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
