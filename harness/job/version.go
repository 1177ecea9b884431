package job

import (
	"cmp"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/report"
)

// Version is what `regress version` says of this binary: the module
// version ("devel" for a build from a work tree), the VCS commit and its
// time when the build recorded them, the Go toolchain, and the load-host
// protocol its workers and coordinator check.
type Version struct {
	// Module is the main module's version: a tag such as v0.3.0 from `go
	// install ...@v0.3.0`, or "devel".
	Module string
	// Commit, Time and Modified are the VCS stamp (`go build` in a git work
	// tree); empty (false) when the build has none.
	Commit, Time string
	Modified     bool
	// Stamp says where Commit came from: report.StampVCS or report.StampLinker.
	Stamp string
	// Go is the toolchain that built the binary; Platform its GOOS/GOARCH.
	Go, Platform string
	// Protocol is the load hosts' task format (regress worker refuses a
	// coordinator of another protocol or build).
	Protocol int
}

// The commit a build names when Go's VCS stamp has none (go run, or
// -buildvcs=false): set by the Makefile's build with -ldflags
// "-X github.com/regress-hbase/regress/harness/job.stampCommit=$(git rev-parse HEAD)"
// (and stampModified=true for a work tree with uncommitted changes).
var (
	stampCommit   string
	stampModified string
)

// ReadVersion reads this binary's version from its build information, or
// from the commit the linker was given when the build recorded none.
func ReadVersion() Version {
	bi, ok := debug.ReadBuildInfo()
	return withStamp(versionOf(bi, ok), stampCommit, stampModified)
}

// withStamp is v with the linker's commit when Go's VCS stamp gave none.
func withStamp(v Version, commit, modified string) Version {
	if v.Commit != "" || commit == "" {
		return v
	}
	v.Commit, v.Modified, v.Stamp = commit, modified == "true", report.StampLinker
	return v
}

// Build is the version as the reports print it.
func (v Version) Build() report.Build {
	return report.Build{Module: v.Module, Commit: v.Commit, Modified: v.Modified, Stamp: v.Stamp, Go: v.Go}
}

// versionOf is the Version a build information says (ok false: none recorded).
func versionOf(bi *debug.BuildInfo, ok bool) Version {
	v := Version{Module: "devel", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, Protocol: loadhosts.Protocol()}
	if !ok || bi == nil {
		return v
	}
	if m := bi.Main.Version; m != "" && m != "(devel)" {
		v.Module = m
	}
	v.Go = cmp.Or(bi.GoVersion, v.Go)
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit, v.Stamp = s.Value, report.StampVCS
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String is the version in one line, for reports and logs: "regress
// v0.3.0 (commit 50a72ed1c2d3, modified; go1.26.0)".
func (v Version) String() string { return v.Build().String() }

// Write prints the version as `regress version` shows it, a fact a line.
func (v Version) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "regress %s\n", v.Module)
	switch {
	case v.Commit == "":
		b.WriteString("commit:   unknown (built without VCS information, e.g. go run or -buildvcs=false; `make build` passes the commit to the linker)\n")
	default:
		fmt.Fprintf(&b, "commit:   %s", v.Commit)
		if v.Time != "" {
			fmt.Fprintf(&b, " (%s)", v.Time)
		}
		if v.Modified {
			b.WriteString(", with uncommitted changes")
		}
		if v.Stamp == report.StampLinker {
			b.WriteString(" (given to the linker by the build)")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "go:       %s %s\n", v.Go, v.Platform)
	fmt.Fprintf(&b, "protocol: %d (load hosts: `regress worker` takes trials only from a run of the same build and protocol)\n", v.Protocol)
	_, err := io.WriteString(w, b.String())
	return err
}
