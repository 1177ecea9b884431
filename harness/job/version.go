package job

import (
	"cmp"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/regress-hbase/regress/harness/loadhosts"
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
	// Go is the toolchain that built the binary; Platform its GOOS/GOARCH.
	Go, Platform string
	// Protocol is the load hosts' task format (regress worker refuses a
	// coordinator of another protocol or build).
	Protocol int
}

// ReadVersion reads this binary's version from its build information.
func ReadVersion() Version {
	bi, ok := debug.ReadBuildInfo()
	return versionOf(bi, ok)
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
			v.Commit = s.Value
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
func (v Version) String() string {
	var parts []string
	if v.Commit != "" {
		c := "commit " + shortCommit(v.Commit)
		if v.Modified {
			c += ", modified"
		}
		parts = append(parts, c)
	}
	parts = append(parts, v.Go)
	return fmt.Sprintf("regress %s (%s)", v.Module, strings.Join(parts, "; "))
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// Write prints the version as `regress version` shows it, a fact a line.
func (v Version) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "regress %s\n", v.Module)
	switch {
	case v.Commit == "":
		b.WriteString("commit:   unknown (built without VCS information, e.g. go run or -buildvcs=false)\n")
	default:
		fmt.Fprintf(&b, "commit:   %s", v.Commit)
		if v.Time != "" {
			fmt.Fprintf(&b, " (%s)", v.Time)
		}
		if v.Modified {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "go:       %s %s\n", v.Go, v.Platform)
	fmt.Fprintf(&b, "protocol: %d (load hosts: `regress worker` takes trials only from a run of the same build and protocol)\n", v.Protocol)
	_, err := io.WriteString(w, b.String())
	return err
}
