package profile

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// A region server that runs elsewhere is profiled by its own info server:
// HBase's profiler servlet (/prof, org.apache.hadoop.hbase.http.ProfileServlet,
// alike in 1.7.2, 2.4.18, 2.5.11 and 2.6.0-2.6.2) runs async-profiler's
// launcher on the server's host against its own JVM, where
// ASYNC_PROFILER_HOME (or -Dasync.profiler.home) named an install when the
// server started. What it answers, read from its source (hbase-http,
// ProfileServlet.java and ProfileOutputServlet.java) and those jars:
//
//   - started: 202 Accepted, "Started [cpu] profiling ...", and a Refresh
//     header "<duration>;/prof-output-hbase/async-prof-pid-<pid>-cpu-<n>.collapsed"
//     (1.7's output path is /prof-output/): the output's address, due
//     when the duration has passed;
//   - the output, until async-profiler has written it (under 100 bytes):
//     200 with a Refresh header "2;<the same path>"; then the file itself;
//   - no async-profiler at startup: 500 "The profiler servlet was disabled
//     at startup" (the servlet registered in its place), or 500
//     "ASYNC_PROFILER_HOME env is not set";
//   - a home without the launcher (2.6.1 runs <home>/profiler.sh, 2.5.11
//     and 2.6.2 <home>/bin/asprof when it exists): the process cannot
//     start, and Jetty answers 500 with the IOException;
//   - one profile at a time: 500 "Another instance of profiler is already
//     running" or "Unable to acquire lock";
//   - instrumentation access refused: 401 "Unauthorized: Instrumentation
//     access is not allowed!" (hadoop.security.instrumentation.requires.admin),
//     or the info server's own 401/403 in front of it.
//
// Its parameters: event (cpu, alloc, lock, ...; one a run), duration (whole
// seconds, default 10), output (collapsed, flat, tree, html, jfr, ...),
// interval (ns), jstackdepth, bufsize, thread, simple, width, height,
// minwidth, reverse, pid, refreshDelay.

// ServletOutput is the servlet's output format regress asks for: async-
// profiler's collapsed stacks, the folded format, counts of samples.
const ServletOutput = "collapsed"

// ServletEvent is the one event a /prof run records: the servlet takes one
// event a run and refuses a second run while one is going, so allocation
// is not profiled this way.
const ServletEvent = "cpu"

// servletRequestTimeout bounds one request to an info server.
const servletRequestTimeout = 15 * time.Second

// ServletOptions tune StartServlet; the zero value is what runs use.
type ServletOptions struct {
	// Client makes the requests; nil is a client that trusts the system's
	// roots, as the /jmx readings do.
	Client *http.Client
	// Poll is the wait between reads of an output not yet written; 0 takes
	// the servlet's own Refresh delay.
	Poll time.Duration
	// Settle is how long after the profile's duration the output is first
	// read (the launcher starts async-profiler a little after the request);
	// 0 is a second.
	Settle time.Duration
	// Grace is how long past Settle the output may take to appear before
	// Collect gives up; 0 is a minute.
	Grace time.Duration
}

// ServletRun is one async-profiler run started through an info server's /prof.
type ServletRun struct {
	// Info is the info server's base URL; Output is the address of the
	// run's output, which the servlet named.
	Info, Output string
	// Ends is when the run's duration has passed, counted from the request.
	Ends time.Time
	opt  ServletOptions
}

// ServletDuration is the whole seconds /prof is asked to profile so that
// its run covers d (it takes no fraction), at least one.
func ServletDuration(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// StartServlet asks the info server at info (http://host:port or
// https://host:port) to profile its JVM's CPU with async-profiler for
// ServletDuration(d), sampling every SamplePeriod, into collapsed stacks. It
// returns when the servlet has started the run. An info server that cannot
// profile (no async-profiler on its host, no /prof, access refused) gives
// an *UnavailableError whose Reason says why, the same for every server so
// alike; another answer is an error naming it.
func StartServlet(ctx context.Context, info string, d time.Duration, opt ServletOptions) (*ServletRun, error) {
	base, err := url.Parse(strings.TrimRight(info, "/"))
	if err != nil || base.Host == "" {
		return nil, fmt.Errorf("profile: info server %q is not a URL like http://host:port", info)
	}
	secs := ServletDuration(d)
	q := url.Values{
		"event":    {ServletEvent},
		"duration": {strconv.Itoa(secs)},
		"output":   {ServletOutput},
		"interval": {strconv.FormatInt(SamplePeriod.Nanoseconds(), 10)},
	}
	u := base.String() + "/prof?" + q.Encode()
	sent := time.Now()
	status, header, body, err := servletGet(ctx, opt.client(), u, 64<<10)
	if err != nil {
		return nil, fmt.Errorf("profile: ask %s: %w", u, err)
	}
	if status != http.StatusAccepted {
		return nil, servletRefusal(base.String(), u, status, body)
	}
	_, path, ok := parseRefresh(header.Get("Refresh"))
	if !ok {
		return nil, fmt.Errorf("profile: %s answered %d without the Refresh header that names its output: not HBase's profiler servlet? %s", u, status, snippet(body))
	}
	out, err := base.Parse(path)
	if err != nil {
		return nil, fmt.Errorf("profile: %s named its output %q: %w", u, path, err)
	}
	if !strings.HasSuffix(out.Path, "."+ServletOutput) {
		return nil, fmt.Errorf("profile: %s writes %s, not %s stacks: its servlet does not know output=%s", u, out.Path, ServletOutput, ServletOutput)
	}
	return &ServletRun{Info: base.String(), Output: out.String(), Ends: sent.Add(time.Duration(secs) * time.Second), opt: opt}, nil
}

// Collect waits until the run's duration has passed and its output is
// written, then reads it (ParseCollapsed). It gives up Grace after that.
func (r *ServletRun) Collect(ctx context.Context) (Folded, error) {
	settle := r.opt.Settle
	if settle <= 0 {
		settle = time.Second
	}
	grace := r.opt.Grace
	if grace <= 0 {
		grace = time.Minute
	}
	first := r.Ends.Add(settle)
	deadline := first.Add(grace)
	if err := sleepCtx(ctx, time.Until(first)); err != nil {
		return nil, err
	}
	for {
		status, header, body, err := servletGet(ctx, r.opt.client(), r.Output, 256<<20)
		switch {
		case err != nil:
			return nil, fmt.Errorf("profile: read %s: %w", r.Output, err)
		case status != http.StatusOK:
			return nil, fmt.Errorf("profile: read %s: %d %s: %s", r.Output, status, http.StatusText(status), snippet(body))
		}
		wait, _, pending := parseRefresh(header.Get("Refresh"))
		// async-profiler ends every line with a newline; an output without
		// one is still being written.
		if !pending && len(body) > 0 && body[len(body)-1] == '\n' {
			f, err := ParseCollapsed(bytes.NewReader(body))
			if err != nil {
				return nil, fmt.Errorf("profile: %s: %w", r.Output, err)
			}
			return f, nil
		}
		if r.opt.Poll > 0 || wait <= 0 {
			wait = max(r.opt.Poll, 100*time.Millisecond)
		}
		if time.Now().Add(wait).After(deadline) {
			return nil, fmt.Errorf("profile: %s not written %s after the profile's end: async-profiler did not finish (the region server's log has the command /prof ran and its output)", r.Output, settle+grace)
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, err
		}
	}
}

func (o ServletOptions) client() *http.Client {
	if o.Client != nil {
		return o.Client
	}
	return http.DefaultClient
}

// servletRefusal turns a /prof answer other than 202 into the error that
// says why: an *UnavailableError where the server cannot profile.
func servletRefusal(info, u string, status int, body []byte) error {
	text := string(body)
	unavailable := func(reason string) error { return &UnavailableError{Info: info, Reason: reason} }
	switch {
	case status == http.StatusNotFound:
		return unavailable("/prof is not there (404: an info server without HBase's profiler servlet, or a proxy that hides it); see docs/profiles.md")
	case status == http.StatusUnauthorized:
		return unavailable("/prof asks for authentication or instrumentation access (401: SPNEGO, or hadoop.security.instrumentation.requires.admin), which regress does not have; see docs/profiles.md")
	case status == http.StatusForbidden:
		return unavailable("/prof refuses regress (403: an admin-only page under hbase.security.authentication.ui, an access list or a proxy); see docs/profiles.md")
	case status != http.StatusInternalServerError:
	case strings.Contains(text, "disabled at startup") || strings.Contains(text, "ASYNC_PROFILER_HOME"):
		return unavailable("/prof needs async-profiler on the hosts (ASYNC_PROFILER_HOME, or -Dasync.profiler.home, set when the region servers start); see docs/profiles.md")
	case strings.Contains(text, "Cannot run program") || strings.Contains(text, "profiler.sh") || strings.Contains(text, "asprof"):
		return unavailable("/prof could not run async-profiler's launcher from ASYNC_PROFILER_HOME (HBase 2.6.1 and before run <home>/profiler.sh, async-profiler 2.x's; 2.5.11 and 2.6.2 <home>/bin/asprof, 3.x's, when it is there); see docs/profiles.md")
	case strings.Contains(text, "already running") || strings.Contains(text, "acquire lock"):
		return fmt.Errorf("profile: %s: another profile is running on that server (one /prof run at a time: another regress run, or someone else's)", u)
	}
	return fmt.Errorf("profile: ask %s: %d %s: %s", u, status, http.StatusText(status), snippet(body))
}

// servletGet fetches u with a bounded time and body; the redirect the servlet
// means is its Refresh header, which the caller reads.
func servletGet(ctx context.Context, c *http.Client, u string, limit int64) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, servletRequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, nil, nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return 0, nil, nil, err
	}
	if int64(len(body)) > limit {
		return 0, nil, nil, fmt.Errorf("answer larger than %d MiB", limit>>20)
	}
	return resp.StatusCode, resp.Header, body, nil
}

// parseRefresh reads a Refresh header, "<seconds>;<url>" (or "<seconds>;
// url=<url>"): the wait and the address; ok is false when there is none.
func parseRefresh(h string) (time.Duration, string, bool) {
	secs, target, found := strings.Cut(strings.TrimSpace(h), ";")
	if !found {
		return 0, "", false
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(secs), 64)
	target = strings.TrimSpace(target)
	if len(target) > 4 && strings.EqualFold(target[:4], "url=") {
		target = strings.TrimSpace(target[4:])
	}
	if err != nil || n < 0 || target == "" {
		return 0, "", false
	}
	return time.Duration(n * float64(time.Second)), target, true
}

// snippet is the start of an answer's body, on one line, for an error.
func snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}

// sleepCtx waits d, or less when ctx ends first (its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// annotations are the suffixes async-profiler's -a (--ann) puts on Java
// frames (interpreted, JIT-compiled, inlined, C1); the servlet does not
// ask for them, but a profile written with them folds the same.
var annotations = []string{"_[0]", "_[j]", "_[i]", "_[1]"}

// ParseCollapsed reads async-profiler's collapsed output ("frame;frame;frame
// count" a line, root first) into Folded, with Java frames named as
// FrameName names JFR's ("java/lang/Thread.run" is "java.lang.Thread.run",
// a lambda's numbers removed), so a stack reads alike whichever profiler
// sampled it. Native, JVM and kernel frames ("Thread::call_run",
// "do_syscall_64_[k]") are kept as they are: async-profiler samples every
// thread on a CPU, the JVM's own (GC, JIT) too, where JFR samples threads
// running Java code.
func ParseCollapsed(r io.Reader) (Folded, error) {
	return readStacks(r, stackFormat{what: "collapsed", weight: "count", read: "read collapsed stacks"}, func(stack string) string {
		frames := strings.Split(stack, ";")
		for j, fr := range frames {
			frames[j] = collapsedFrame(fr)
		}
		return strings.Join(frames, ";")
	})
}

// collapsedFrame names one async-profiler frame as the JFR path does.
func collapsedFrame(fr string) string {
	for _, a := range annotations {
		if len(fr) > len(a) && strings.HasSuffix(fr, a) {
			fr = fr[:len(fr)-len(a)]
			break
		}
	}
	// A Java method is "pkg/Class.method"; native and JVM frames are C or
	// C++ symbols ("Thread::call_run", "__libc_write"), and "[...]" frames
	// are async-profiler's own (thread names, "[unknown]").
	if strings.Contains(fr, "/") && !strings.Contains(fr, "::") && !strings.HasPrefix(fr, "[") && !strings.HasPrefix(fr, "/") {
		fr = CanonicalFrame(strings.ReplaceAll(fr, "/", "."))
	}
	return frameSafe.Replace(fr)
}
