package report

import (
	"fmt"
	"strings"
)

// Build names the regress build that decided a comparison, as the reports
// print it: a voter elsewhere builds the same commit to check the verdict.
type Build struct {
	// Module is the main module's version: a tag (go install ...@v0.3.0) or "devel".
	Module string `json:"module"`
	// Commit is the VCS revision the binary was built from ("" unknown);
	// Modified says the work tree had uncommitted changes.
	Commit   string `json:"commit,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Stamp says where Commit came from: StampVCS (Go's build stamp) or
	// StampLinker (-ldflags -X, the Makefile's build; go run has no VCS stamp).
	Stamp string `json:"stamp,omitempty"`
	// Go is the toolchain that built it.
	Go string `json:"go"`
}

// Where a Build's commit came from.
const (
	StampVCS    = "vcs"
	StampLinker = "ldflags"
)

// ShortCommit is the commit's first 12 hex digits ("" when unknown).
func (b Build) ShortCommit() string {
	if len(b.Commit) > 12 {
		return b.Commit[:12]
	}
	return b.Commit
}

// String is the build in one line: "regress v0.3.0 (commit 50a72ed1c2d3,
// modified; go1.26.0)", "regress devel (commit unknown; go1.26.0)".
func (b Build) String() string {
	c := "commit unknown"
	if b.Commit != "" {
		c = "commit " + b.ShortCommit()
		if b.Modified {
			c += ", modified"
		}
	}
	parts := []string{c}
	if b.Go != "" {
		parts = append(parts, b.Go)
	}
	return fmt.Sprintf("regress %s (%s)", b.Module, strings.Join(parts, "; "))
}
