package profile

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// ErrUnavailable is what every *UnavailableError wraps: profiling cannot run
// with this JDK, which a caller reports as a note rather than a failure.
var ErrUnavailable = errors.New("profiling unavailable")

// UnavailableError says why a JVM cannot be profiled (no jcmd, no jfr tool, JFR disabled or absent; /prof without async-profiler).
type UnavailableError struct {
	PID    int    // the JVM, 0 when not about one process
	JDK    string // the JDK home looked at, "" when none was found
	Reason string // what is missing and what to do
	// Info is the info server whose /prof cannot profile (StartServlet),
	// "" for JFR.
	Info string
}

func (e *UnavailableError) Error() string {
	if e.Info != "" {
		return "profile: no profile from info server " + e.Info + ": " + e.Reason
	}
	s := "profile: no JFR profile"
	if e.PID > 0 {
		s += " of pid " + strconv.Itoa(e.PID)
	}
	if e.JDK != "" {
		s += " (JDK " + e.JDK + ")"
	}
	return s + ": " + e.Reason
}

// Unwrap lets errors.Is(err, ErrUnavailable) match.
func (e *UnavailableError) Unwrap() error { return ErrUnavailable }

// JDK names the tools of one JDK install.
type JDK struct {
	Home string // the directory holding bin/
	Jcmd string // bin/jcmd: starts and stops recordings
	Jfr  string // bin/jfr: prints recordings as JSON (JDK 11 and later)
}

// JDKFromHome returns the tools under home; a missing tool leaves its field
// empty, and the caller that needs it reports an *UnavailableError.
func JDKFromHome(home string) JDK {
	j := JDK{Home: home}
	if p := filepath.Join(home, "bin", "jcmd"); executable(p) {
		j.Jcmd = p
	}
	if p := filepath.Join(home, "bin", "jfr"); executable(p) {
		j.Jfr = p
	}
	return j
}

// FindJDK returns the JDK that runs pid: the directory of /proc/PID/exe's
// parent, so jcmd speaks the same attach protocol as the JVM. Where that
// JDK has no jcmd (a JRE) it falls back to JAVA_HOME, then to PATH; with no
// jcmd anywhere it returns an *UnavailableError.
func FindJDK(pid int) (JDK, error) {
	var tried []string
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err == nil {
		j := JDKFromHome(filepath.Dir(filepath.Dir(exe)))
		if j.Jcmd != "" {
			return j, nil
		}
		tried = append(tried, j.Home)
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		j := JDKFromHome(home)
		if j.Jcmd != "" {
			return j, nil
		}
		tried = append(tried, home+" (JAVA_HOME)")
	}
	if p, err := exec.LookPath("jcmd"); err == nil {
		if resolved, err := filepath.EvalSymlinks(p); err == nil {
			p = resolved
		}
		j := JDKFromHome(filepath.Dir(filepath.Dir(p)))
		j.Jcmd = p
		return j, nil
	}
	tried = append(tried, "PATH")
	return JDK{}, &UnavailableError{PID: pid, Reason: fmt.Sprintf(
		"no jcmd in %v: the JVM runs on a JRE or a JDK without jcmd; run HBase on a full JDK 11 or later, or set JAVA_HOME to one", tried)}
}

// executable reports whether p is a regular file someone may execute.
func executable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
