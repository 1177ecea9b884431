package profile

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/javabuild"
)

// jmxSource is the JFR-over-JMX recorder, a Java class of regress's own:
// Go speaks no RMI, the JDK's JMX client does.
//
//go:embed jmxjfr/RegressJfrOverJmx.java
var jmxSource []byte

// JMXRecorder records JFR in JVMs elsewhere through their JMX remote
// connectors (a region server started with com.sun.management.jmxremote.port),
// with the same settings as a local recording: the FlightRecorder MBean
// starts and stops the recording, and the recording is streamed back here.
type JMXRecorder struct {
	java    string // this machine's java, which runs the recorder
	classes string // the compiled recorder
	jfc     string // the settings for a JVM before JDK 16, and from it
	jfc16   string
	// JDK is this machine's, whose jfr tool reads the recordings.
	JDK JDK
}

// NewJMXRecorder compiles the recorder once per source digest into dir (the
// user cache's regress/jfr-jmx when empty) with this machine's JDK (JAVA_HOME,
// then PATH), which must be 11 or later; where there is none it returns an
// *UnavailableError.
func NewJMXRecorder(ctx context.Context, dir string) (*JMXRecorder, error) {
	javac, home, err := javabuild.FindJavac()
	if err != nil {
		return nil, &UnavailableError{Reason: "no JDK on this machine (JAVA_HOME unset, no javac on PATH): JFR over JMX runs a small Java recorder here; install JDK 11 or later"}
	}
	java := filepath.Join(home, "bin", "java")
	if !executable(java) {
		return nil, &UnavailableError{JDK: home, Reason: "JFR over JMX needs a JDK with javac and java on this machine (11 or later); set JAVA_HOME to one"}
	}
	dir = javabuild.CacheDir(dir, "jfr-jmx")
	srcs := javabuild.Sources{"RegressJfrOverJmx.java": jmxSource}
	classes, err := javabuild.Compile(ctx, javac, "11", srcs, dir)
	if err != nil {
		return nil, fmt.Errorf("profile: the JFR-over-JMX recorder: %w", err)
	}
	out := filepath.Dir(classes)
	rec := &JMXRecorder{java: java, classes: classes, jfc: filepath.Join(out, "regress.jfc"),
		jfc16: filepath.Join(out, "regress-jdk16.jfc"), JDK: JDKFromHome(home)}
	for path, major := range map[string]int{rec.jfc: 11, rec.jfc16: 16} {
		if err := writeFileAtomic(path, []byte(settingsJFC(major))); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

// JMXRun is one recording over JMX being prepared: the recorder's JVM has
// started, connects and creates the recording, then waits for Record.
type JMXRun struct {
	addr    string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  *bufio.Scanner
	stderr  bytes.Buffer
	ready   chan error    // the recorder said ready, or ended first
	scanned chan struct{} // closed once the ready line was read: stdout is Record's
	waited  sync.Once
	waitErr error
	started time.Time
	stop    time.Time // when the recording is to stop: the recorder exits soon after
}

// Prepare starts the recorder for the JVM whose JMX connector is at addr
// (host:port), to record into out: it connects, creates the recording with
// regress's settings, and waits for Record, so its own start-up (a JVM, a
// connection) happens now, well before the window. Cancel it if Record is
// never called.
func (j *JMXRecorder) Prepare(ctx context.Context, addr, out string) (*JMXRun, error) {
	r := &JMXRun{addr: addr, ready: make(chan error, 1), scanned: make(chan struct{})}
	r.cmd = exec.CommandContext(ctx, j.java, "-XX:TieredStopAtLevel=1", "-cp", j.classes, "RegressJfrOverJmx", addr, out, j.jfc, j.jfc16)
	r.cmd.Stderr = &r.stderr
	var err error
	if r.stdin, err = r.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := r.cmd.Start(); err != nil {
		return nil, fmt.Errorf("profile: start the JFR-over-JMX recorder: %w", err)
	}
	r.stdout = bufio.NewScanner(stdout)
	go func() {
		ok := r.stdout.Scan() && r.stdout.Text() == "ready"
		close(r.scanned)
		if ok {
			r.ready <- nil
		} else {
			r.ready <- errors.New("the recorder ended before it was ready")
		}
	}()
	return r, nil
}

// Record has the prepared recorder record from start to stop (this
// machine's clock), stream the recording into its file, and exit; it
// returns when the recording started. A recorder not ready by start, or a
// recording that began after mustStartBy (the window it is for opened
// first), is an error: it would miss part of the window.
func (r *JMXRun) Record(ctx context.Context, start, stop, mustStartBy time.Time) (time.Time, error) {
	wait := time.NewTimer(max(time.Until(start), 0))
	defer wait.Stop()
	select {
	case err := <-r.ready:
		if err != nil {
			return time.Time{}, r.fail(err)
		}
	case <-wait.C:
		return time.Time{}, r.fail(errors.New("the recorder was not connected when the recording was due: no profile of this window"))
	case <-ctx.Done():
		r.finish()
		return time.Time{}, ctx.Err()
	}
	r.stop = stop
	if _, err := fmt.Fprintf(r.stdin, "%d %d\n", start.UnixMilli(), stop.UnixMilli()); err != nil {
		return time.Time{}, r.fail(err)
	}
	if err := r.finish(); err != nil {
		return r.started, r.fail(err)
	}
	if r.started.IsZero() {
		return r.started, r.fail(errors.New("the recorder exited without starting the recording"))
	}
	if r.started.After(mustStartBy) {
		return r.started, fmt.Errorf("profile: JFR over JMX at %s started %s after the window opened: no profile of this window",
			r.addr, r.started.Sub(mustStartBy).Round(time.Millisecond))
	}
	return r.started, nil
}

// Ready waits until the recorder has connected and created its recording
// (what `regress doctor --jmx-port` checks) and returns why not when it
// ended first; a later Record still finds it ready.
func (r *JMXRun) Ready(ctx context.Context) error {
	select {
	case err := <-r.ready:
		r.ready <- err
		if err != nil {
			return r.fail(err)
		}
		return nil
	case <-ctx.Done():
		return r.fail(ctx.Err())
	}
}

// Cancel stops a recorder that will not record: with its stdin closed it
// closes the unstarted recording and exits.
func (r *JMXRun) Cancel() { _ = r.finish() }

// finish closes the recorder's stdin, reads the rest of its output and
// waits for it to exit (killing it when it has not a minute after its
// recording was to stop); it returns the exit's error, the same on every call.
func (r *JMXRun) finish() error {
	r.waited.Do(func() {
		r.stdin.Close()
		kill := time.AfterFunc(max(time.Until(r.stop), 0)+time.Minute, func() { _ = r.cmd.Process.Kill() })
		defer kill.Stop()
		<-r.scanned
		for r.stdout.Scan() {
			if ms, ok := strings.CutPrefix(r.stdout.Text(), "started "); ok {
				if v, err := strconv.ParseInt(ms, 10, 64); err == nil {
					r.started = time.UnixMilli(v)
				}
			}
		}
		r.waitErr = r.cmd.Wait()
	})
	return r.waitErr
}

// fail is err with what the recorder said on stderr, once it has exited.
func (r *JMXRun) fail(err error) error {
	_ = r.finish()
	if msg := strings.TrimSpace(r.stderr.String()); msg != "" {
		return fmt.Errorf("profile: %s", msg)
	}
	return fmt.Errorf("profile: JFR over JMX at %s: %w", r.addr, err)
}
