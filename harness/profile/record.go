package profile

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Runner runs a command and returns its combined output; Options.Run lets a
// caller run jcmd elsewhere (over ssh on a distributed cluster). Paths stay
// this machine's: such a caller sets Options.JDK (FindJDK reads this
// machine's /proc) and Options.Settings, and dumps to a path both machines see.
type Runner func(ctx context.Context, name string, args ...string) ([]byte, error)

// Options tune Start; the zero value records with the built-in settings.
type Options struct {
	// JDK overrides the JDK found from the pid (FindJDK).
	JDK *JDK
	// Settings is a .jfc path or a JDK preset name ("default", "profile");
	// empty writes the built-in settings (SettingsJFC) to a temp file.
	Settings string
	// Run runs jcmd; nil runs it on this machine.
	Run Runner
}

// Recording is one JFR recording running in a JVM, started by Start.
type Recording struct {
	PID   int
	Name  string // the JFR recording name, unique per Start
	JDK   JDK
	run   Runner
	local bool   // jcmd runs here, so the dump can be checked on this file system
	tmp   string // the built-in settings file to remove, if any
}

// SamplePeriod is how often the built-in settings sample each running thread's stack.
const SamplePeriod = 10 * time.Millisecond

// settingsJFC returns the built-in recording settings for a JDK of the
// given major version (0: unknown): stack samples every SamplePeriod, of
// threads in Java code (jdk.ExecutionSample) and in native methods
// (jdk.NativeMethodSample, at the same period: the sampler thread wakes
// once for both, and takes one native thread a period, so it adds one
// stack walk per period),
// waits of WaitThreshold or more with their stacks (WaitEvents),
// allocation samples (the throttled jdk.ObjectAllocationSample from JDK 16,
// the TLAB events before it), and GC pauses for a timeline. Everything else
// JFR records by default stays off, to keep the overhead near the stack
// sampler's alone.
func settingsJFC(major int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="regress" description="regress: stack and allocation samples, waits, GC pauses" provider="regress">
  <event name="jdk.ExecutionSample">
    <setting name="enabled">true</setting>
    <setting name="period">` + strconv.FormatInt(SamplePeriod.Milliseconds(), 10) + ` ms</setting>
  </event>
  <event name="jdk.NativeMethodSample">
    <setting name="enabled">true</setting>
    <setting name="period">` + strconv.FormatInt(SamplePeriod.Milliseconds(), 10) + ` ms</setting>
  </event>
  <event name="jdk.GarbageCollection">
    <setting name="enabled">true</setting>
    <setting name="threshold">0 ms</setting>
  </event>
  <event name="jdk.GCPhasePause">
    <setting name="enabled">true</setting>
    <setting name="threshold">0 ms</setting>
  </event>
`)
	// Waits, with their stacks, from WaitThreshold up: where a request's
	// time went when it was not running (a lock, a queue, a sync, I/O).
	for _, ev := range WaitEvents {
		b.WriteString(`  <event name="` + ev + `">
    <setting name="enabled">true</setting>
    <setting name="threshold">` + strconv.FormatInt(WaitThreshold.Microseconds(), 10) + ` us</setting>
    <setting name="stackTrace">true</setting>
  </event>
`)
	}
	if major == 0 || major >= 16 {
		b.WriteString(`  <event name="jdk.ObjectAllocationSample">
    <setting name="enabled">true</setting>
    <setting name="throttle">150/s</setting>
    <setting name="stackTrace">true</setting>
  </event>
`)
	}
	if major < 16 { // JDK 11 has no sampled allocation event: the TLAB events weigh each new TLAB
		for _, ev := range []string{"jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB"} {
			b.WriteString(`  <event name="` + ev + `">
    <setting name="enabled">true</setting>
    <setting name="stackTrace">true</setting>
  </event>
`)
		}
	}
	b.WriteString("</configuration>\n")
	return b.String()
}

// SettingsJFC is the built-in settings for the JDK at home (its release file gives the version).
func SettingsJFC(home string) string { return settingsJFC(jdkMajor(home)) }

// jdkMajor reads JAVA_VERSION from home/release: 8 for "1.8.0_392", 17 for "17.0.15"; 0 when unknown.
func jdkMajor(home string) int {
	f, err := os.Open(filepath.Join(home, "release"))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), "JAVA_VERSION=")
		if !ok {
			continue
		}
		v = strings.TrimPrefix(strings.Trim(v, `"`), "1.")
		if i := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
			v = v[:i]
		}
		n, _ := strconv.Atoi(v)
		return n
	}
	return 0
}

// Start begins a JFR recording in the JVM pid. It returns an
// *UnavailableError when the JDK has no jcmd or no flight recorder.
func Start(ctx context.Context, pid int, opt Options) (*Recording, error) {
	if pid <= 0 {
		return nil, fmt.Errorf("profile: start recording: pid %d is not a process", pid)
	}
	var jdk JDK
	if opt.JDK != nil {
		jdk = *opt.JDK
	} else {
		var err error
		if jdk, err = FindJDK(pid); err != nil {
			return nil, err
		}
	}
	if jdk.Jcmd == "" {
		return nil, &UnavailableError{PID: pid, JDK: jdk.Home, Reason: "the JDK has no bin/jcmd: run HBase on a full JDK 11 or later"}
	}
	r := &Recording{PID: pid, Name: "regress-" + randomHex(4), JDK: jdk, run: opt.Run}
	if r.run == nil {
		r.run, r.local = runLocal, true
	}
	settings := opt.Settings
	if settings == "" {
		// The JVM reads the file itself, so it must be readable by the region server's user.
		f, err := os.CreateTemp("", "regress-*.jfc")
		if err != nil {
			return nil, fmt.Errorf("profile: write JFR settings: %w", err)
		}
		_, werr := f.WriteString(SettingsJFC(jdk.Home))
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(f.Name(), 0o644)
		}
		if werr != nil {
			os.Remove(f.Name())
			return nil, fmt.Errorf("profile: write JFR settings %s: %w", f.Name(), werr)
		}
		settings, r.tmp = f.Name(), f.Name()
	}
	out, err := r.jcmd(ctx, "JFR.start", "name="+r.Name, "settings="+settings)
	if err == nil && !strings.Contains(out, "Started recording") {
		err = errors.New("no \"Started recording\" in its reply")
	}
	if err != nil {
		r.cleanup()
		if u := unavailable(pid, jdk.Home, out); u != nil {
			return nil, u
		}
		return nil, fmt.Errorf("profile: %s %d JFR.start: %w: %s (jcmd attaches as the JVM's own user: run it as that user)", jdk.Jcmd, pid, err, strings.TrimSpace(out))
	}
	return r, nil
}

// Stop dumps the recording to dest (made absolute: the JVM resolves it
// against its own working directory) and ends it. The JVM writes the file,
// so dest's directory must be writable by the region server's user. The
// recording is stopped even when the dump fails.
func (r *Recording) Stop(ctx context.Context, dest string) error {
	defer r.cleanup()
	abs, err := filepath.Abs(dest)
	if err != nil {
		return fmt.Errorf("profile: recording destination %q: %w", dest, err)
	}
	out, derr := r.jcmd(ctx, "JFR.dump", "name="+r.Name, "filename="+abs)
	if derr == nil && !strings.Contains(out, "Dumped recording") {
		derr = errors.New("no \"Dumped recording\" in its reply")
	}
	if derr != nil {
		derr = fmt.Errorf("profile: %s %d JFR.dump to %s: %w: %s (check the region server's user may write there)", r.JDK.Jcmd, r.PID, abs, derr, strings.TrimSpace(out))
	} else if st, err := os.Stat(abs); r.local && (err != nil || st.Size() == 0) {
		derr = fmt.Errorf("profile: JFR.dump of pid %d reported success but %s is missing or empty: %v", r.PID, abs, err)
	}
	out, serr := r.jcmd(ctx, "JFR.stop", "name="+r.Name)
	if serr == nil && !strings.Contains(out, "Stopped recording") {
		serr = errors.New("no \"Stopped recording\" in its reply")
	}
	if serr != nil {
		serr = fmt.Errorf("profile: %s %d JFR.stop name=%s: %w: %s", r.JDK.Jcmd, r.PID, r.Name, serr, strings.TrimSpace(out))
	}
	return errors.Join(derr, serr)
}

func (r *Recording) jcmd(ctx context.Context, args ...string) (string, error) {
	out, err := r.run(ctx, r.JDK.Jcmd, append([]string{strconv.Itoa(r.PID)}, args...)...)
	return string(out), err
}

func (r *Recording) cleanup() {
	if r.tmp != "" {
		os.Remove(r.tmp)
		r.tmp = ""
	}
}

// unavailable recognises jcmd's replies that mean "no flight recorder here".
// jcmd exits 0 for most of them, so the reply text is all there is.
func unavailable(pid int, home, out string) error {
	for _, s := range []struct{ marker, reason string }{
		{"Flight Recorder is disabled", "the JVM runs with -XX:-FlightRecorder: remove that option to profile"},
		{"Unknown diagnostic command", "the JVM has no JFR.start command (a JDK 8 before 8u262?): run HBase on JDK 11 or later"},
		{"not enabled", "the JVM's flight recorder is not enabled (Oracle JDK 8 needs -XX:+UnlockCommercialFeatures): run HBase on JDK 11 or later"},
	} {
		if strings.Contains(out, s.marker) {
			return &UnavailableError{PID: pid, JDK: home, Reason: s.reason}
		}
	}
	return nil
}

func runLocal(ctx context.Context, name string, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, name, args...).CombinedOutput()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
