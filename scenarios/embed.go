// Package scenarios is the suites and YCSB workload files regress ships,
// built into the binary so it runs from any folder (`go install` included);
// `--scenarios DIR` or REGRESS_SCENARIOS reads a folder of the same shape
// in their place.
package scenarios

import (
	"embed"
	"io/fs"
)

// files holds this folder whole: suites/*.yaml and every workload property
// file beside them, so a file added here ships without a change to this line.
//
//go:embed *
var files embed.FS

// FS is the shipped scenarios, laid out as this folder is: suites/NAME.yaml
// and the workload files by name (workloada ... workloadf, pe-*, ltt-*).
func FS() fs.FS { return files }
