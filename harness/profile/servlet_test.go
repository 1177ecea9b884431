package profile

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeServlet answers as HBase 2.6's ProfileServlet and ProfileOutputServlet
// do (read from hbase-http 2.6.1): /prof starts a run and answers 202 with a
// Refresh header naming the output; the output page answers 200 with a
// Refresh header until async-profiler has written the file (its duration
// has passed, and pending reads after it were answered so), then serves
// the file. refuse, when set, is the answer /prof gives instead.
type fakeServlet struct {
	refuse  func(w http.ResponseWriter)
	output  string // the collapsed stacks the run writes
	ext     string // the output's extension; "" is the output asked for
	pending int    // reads past the duration answered as not yet written

	mu       sync.Mutex
	query    url.Values
	started  time.Time
	duration time.Duration
	polls    []time.Time
	runs     int
}

func (f *fakeServlet) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	switch {
	case r.URL.Path == "/prof":
		if f.refuse != nil {
			f.refuse(w)
			return
		}
		if f.runs > 0 && time.Since(f.started) < f.duration {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, "Another instance of profiler is already running.")
			return
		}
		f.runs++
		f.query = r.URL.Query()
		secs, err := strconv.Atoi(f.query.Get("duration"))
		if err != nil {
			secs = 10
		}
		ext := f.ext
		if ext == "" {
			ext = f.query.Get("output")
		}
		f.started, f.duration = time.Now(), time.Duration(secs)*time.Second
		rel := fmt.Sprintf("/prof-output-hbase/async-prof-pid-4242-%s-%d.%s", f.query.Get("event"), f.runs, ext)
		w.Header().Set("Refresh", fmt.Sprintf("%d;%s", secs, rel))
		w.WriteHeader(http.StatusAccepted)
		fmt.Fprintf(w, "Started [%s] profiling. This page will automatically redirect to %s after %d seconds.\n\nCommand:\n/opt/async-profiler/profiler.sh -e %s -d %d -o %s -f /tmp/prof-output-hbase/%s 4242",
			f.query.Get("event"), rel, secs, f.query.Get("event"), secs, ext, rel)
	case strings.HasPrefix(r.URL.Path, "/prof-output-hbase/") && f.runs > 0:
		f.polls = append(f.polls, time.Now())
		if time.Since(f.started) < f.duration || f.pending > 0 {
			if time.Since(f.started) >= f.duration {
				f.pending--
			}
			w.Header().Set("Refresh", "2;"+r.URL.Path)
			fmt.Fprintf(w, "This page will be auto-refreshed every 2 seconds until the output file is ready. Redirecting to %s", r.URL.Path)
			return
		}
		fmt.Fprint(w, f.output)
	default:
		http.NotFound(w, r)
	}
}

// collapsedFixture is async-profiler's collapsed output of a region server
// as its format is documented (docs/OutputFormats.md, src/frameName.cpp):
// Java frames with "/" between packages, a hidden lambda class with its
// address, a native leaf under a Java frame, a kernel frame, a JVM thread
// with no Java frame at all, an annotated frame (-a), and regress's own
// /jmx read.
const collapsedFixture = `java/lang/Thread.run;org/apache/hadoop/hbase/ipc/RpcHandler.run;org/apache/hadoop/hbase/ipc/CallRunner.run;org/apache/hadoop/hbase/regionserver/RSRpcServices.get;org/apache/hadoop/hbase/regionserver/HRegion.get 40
java/lang/Thread.run;org/apache/hadoop/hbase/regionserver/HRegion$$Lambda$512.0x0000000801234567.run;org/apache/hadoop/hbase/regionserver/HRegion.lambda$get$3 5
java/lang/Thread.run;sun/nio/ch/SocketDispatcher.write0;__GI___libc_write;entry_SYSCALL_64_after_hwframe_[k] 3
start_thread;thread_native_entry;Thread::call_run;GangWorker::loop;G1ParTask::work 7
java/lang/Thread.run_[j];org/regress/Spin.spin_[i] 1
java/lang/Thread.run;org/apache/hadoop/hbase/http/jmx/JMXJsonServlet.doGet 2
`

// fastOptions wait as the real servlet asks, but in milliseconds.
var fastOptions = ServletOptions{Settle: 150 * time.Millisecond, Poll: 50 * time.Millisecond, Grace: 5 * time.Second}

func TestParseCollapsedNamesFramesAsJFRDoes(t *testing.T) {
	f, err := ParseCollapsed(strings.NewReader(collapsedFixture + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Folded{
		"java.lang.Thread.run;org.apache.hadoop.hbase.ipc.RpcHandler.run;org.apache.hadoop.hbase.ipc.CallRunner.run;org.apache.hadoop.hbase.regionserver.RSRpcServices.get;org.apache.hadoop.hbase.regionserver.HRegion.get": 40,
		"java.lang.Thread.run;org.apache.hadoop.hbase.regionserver.HRegion$$Lambda.run;org.apache.hadoop.hbase.regionserver.HRegion.lambda$get":                                                                              5,
		"java.lang.Thread.run;sun.nio.ch.SocketDispatcher.write0;__GI___libc_write;entry_SYSCALL_64_after_hwframe_[k]":                                                                                                       3,
		"start_thread;thread_native_entry;Thread::call_run;GangWorker::loop;G1ParTask::work":                                                                                                                                 7,
		"java.lang.Thread.run;org.regress.Spin.spin":                                 1,
		"java.lang.Thread.run;org.apache.hadoop.hbase.http.jmx.JMXJsonServlet.doGet": 2,
	}
	if len(f) != len(want) {
		t.Errorf("%d stacks, want %d: %v", len(f), len(want), f)
	}
	for s, w := range want {
		if f[s] != w {
			t.Errorf("stack %s: %d, want %d", s, f[s], w)
		}
	}
	// JFR names the lambda's frames the same way (FrameName).
	if got := FrameName("org/apache/hadoop/hbase/regionserver/HRegion$$Lambda$512+0x0000000801234567/1852655488", "run"); got != "org.apache.hadoop.hbase.regionserver.HRegion$$Lambda.run" {
		t.Errorf("JFR's name for the lambda %q differs", got)
	}
}

func TestParseCollapsedRejectsWhatIsNotStacks(t *testing.T) {
	for _, in := range []string{"<html><body>Error</body></html>\n", "a;b x\n", "a;b -3\n"} {
		if _, err := ParseCollapsed(strings.NewReader(in)); err == nil {
			t.Errorf("%q parsed", in)
		}
	}
}

func FuzzParseCollapsed(f *testing.F) {
	f.Add(collapsedFixture)
	f.Add("a;b 1\n\n;c 0\n[tid=1];x_[k] 2")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := ParseCollapsed(strings.NewReader(in))
		if err != nil {
			return
		}
		var b strings.Builder
		if _, err := got.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		back, err := ReadFolded(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("stored stacks do not read back: %v\n%s", err, b.String())
		}
		if back.Total() != got.Total() {
			t.Errorf("read back %d, stored %d", back.Total(), got.Total())
		}
	})
}

// TestServletRunStartsWaitsAndReadsTheOutput: the run is asked for CPU,
// collapsed, SamplePeriod, whole seconds; the output is not read before
// the run's duration has passed (a read then would be sampled), an
// incomplete output is read again, and the stacks come back named as JFR's.
func TestServletRunStartsWaitsAndReadsTheOutput(t *testing.T) {
	fake := &fakeServlet{output: collapsedFixture, pending: 1}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	ctx := context.Background()
	run, err := StartServlet(ctx, srv.URL, 300*time.Millisecond, fastOptions)
	if err != nil {
		t.Fatal(err)
	}
	q := fake.query
	if q.Get("event") != "cpu" || q.Get("output") != "collapsed" || q.Get("duration") != "1" || q.Get("interval") != "10000000" {
		t.Errorf("asked %v, want cpu, collapsed, 1 s (0.3 s rounded up), every 10 ms", q)
	}
	if !strings.HasSuffix(run.Output, "/prof-output-hbase/async-prof-pid-4242-cpu-1.collapsed") || !strings.HasPrefix(run.Output, srv.URL) {
		t.Errorf("output %q, want the path the Refresh header named on the same server", run.Output)
	}
	f, err := run.Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if f.Total() != 58 || f["java.lang.Thread.run;org.regress.Spin.spin"] != 1 {
		t.Errorf("stacks %v, want the fixture's 58 samples named as JFR's", f)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.polls) < 2 {
		t.Errorf("%d reads of the output, want the incomplete one read again", len(fake.polls))
	}
	if first := fake.polls[0].Sub(fake.started); first < fake.duration {
		t.Errorf("output first read %s after the start, inside the run's %s", first, fake.duration)
	}
}

// TestServletOverTLS: an info server that speaks TLS (hbase.ssl.enabled)
// is asked at its https:// address, with a client that trusts its certificate.
func TestServletOverTLS(t *testing.T) {
	srv := httptest.NewTLSServer(&fakeServlet{output: collapsedFixture})
	defer srv.Close()
	opt := fastOptions
	opt.Client = srv.Client()
	run, err := StartServlet(context.Background(), srv.URL, time.Second, opt)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := run.Collect(context.Background()); err != nil || f.Total() != 58 {
		t.Errorf("over TLS: %v, %v", f, err)
	}
}

// TestServletRefusalsSayWhy: what HBase answers when the run cannot start,
// as its servlets write it; each is an *UnavailableError whose reason is
// the same whichever server said it, except a profile already running.
func TestServletRefusalsSayWhy(t *testing.T) {
	text := func(status int, body string, header ...string) func(w http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			for i := 0; i+1 < len(header); i += 2 {
				w.Header().Set(header[i], header[i+1])
			}
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		}
	}
	for _, tc := range []struct {
		name        string
		refuse      func(w http.ResponseWriter)
		unavailable bool
		want        string
	}{
		{"disabled at startup", text(500, "The profiler servlet was disabled at startup.\n\nPlease ensure the prerequisites for the Profiler Servlet have been installed and the\nenvironment is properly configured. For more information please see\nhttp://hbase.apache.org/book.html#profiler\n"),
			true, "needs async-profiler on the hosts (ASYNC_PROFILER_HOME"},
		{"home not set", text(500, "ASYNC_PROFILER_HOME env is not set.\n\nPlease ensure the prerequsites for the Profiler Servlet have been installed and the\n"),
			true, "needs async-profiler on the hosts"},
		{"no launcher in the home", text(500, `<html><body><h2>HTTP ERROR 500 java.lang.IllegalStateException: java.io.IOException: Cannot run program "/opt/ap/profiler.sh": error=2, No such file or directory</h2></body></html>`),
			true, "could not run async-profiler's launcher"},
		{"instrumentation refused", text(401, "Unauthorized: Instrumentation access is not allowed!"), true, "401"},
		{"SPNEGO", text(401, "", "WWW-Authenticate", "Negotiate"), true, "401"},
		{"forbidden", text(403, "Forbidden"), true, "403"},
		{"no servlet", text(404, "Not Found"), true, "404"},
		{"busy", text(500, "Another instance of profiler is already running."), false, "another profile is running"},
		{"something else", text(502, "Bad Gateway"), false, "502"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(&fakeServlet{refuse: tc.refuse})
			defer srv.Close()
			_, err := StartServlet(context.Background(), srv.URL, time.Second, fastOptions)
			var u *UnavailableError
			if err == nil || errors.As(err, &u) != tc.unavailable || errors.Is(err, ErrUnavailable) != tc.unavailable {
				t.Fatalf("error %v, want one that is unavailable: %v", err, tc.unavailable)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to say %q", err, tc.want)
			}
			if tc.unavailable && (u.Info != srv.URL || strings.Contains(u.Reason, srv.URL) || !strings.Contains(u.Reason, "docs/profiles.md")) {
				t.Errorf("info %q, reason %q: want the server named beside a reason alike for every server, pointing at the docs", u.Info, u.Reason)
			}
		})
	}
}

// TestServletOutputThatNeverComes: a run whose output is never written
// (the launcher failed after the servlet answered) ends after Grace.
func TestServletOutputThatNeverComes(t *testing.T) {
	srv := httptest.NewServer(&fakeServlet{output: collapsedFixture, pending: 1 << 30})
	defer srv.Close()
	opt := fastOptions
	opt.Grace = 200 * time.Millisecond
	run, err := StartServlet(context.Background(), srv.URL, time.Second, opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Collect(context.Background()); err == nil || !strings.Contains(err.Error(), "not written") {
		t.Errorf("error %v, want the output named as not written", err)
	}
}

// TestServletWithoutCollapsedOutput: a servlet that does not know
// output=collapsed falls back to another format (HBase's own falls back to
// svg); regress says so at the start instead of parsing a flame graph.
func TestServletWithoutCollapsedOutput(t *testing.T) {
	srv := httptest.NewServer(&fakeServlet{ext: "svg"})
	defer srv.Close()
	if _, err := StartServlet(context.Background(), srv.URL, time.Second, fastOptions); err == nil || !strings.Contains(err.Error(), "not collapsed") {
		t.Errorf("error %v, want the format named", err)
	}
}

func TestServletDurationIsWholeSecondsCoveringTheWindow(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 1, 300 * time.Millisecond: 1, time.Second: 1, 9 * time.Second: 9, 9*time.Second + time.Millisecond: 10, 10 * time.Minute: 600} {
		if got := ServletDuration(d); got != want {
			t.Errorf("ServletDuration(%s) = %d, want %d", d, got, want)
		}
	}
}

func TestParseRefresh(t *testing.T) {
	for _, tc := range []struct {
		h    string
		wait time.Duration
		url  string
		ok   bool
	}{
		{"12;/prof-output-hbase/a.collapsed", 12 * time.Second, "/prof-output-hbase/a.collapsed", true},
		{"2; url=/prof-output/a.collapsed", 2 * time.Second, "/prof-output/a.collapsed", true},
		{"", 0, "", false},
		{"5", 0, "", false},
		{"x;/a", 0, "", false},
	} {
		wait, u, ok := parseRefresh(tc.h)
		if wait != tc.wait || u != tc.url || ok != tc.ok {
			t.Errorf("parseRefresh(%q) = %s %q %v, want %s %q %v", tc.h, wait, u, ok, tc.wait, tc.url, tc.ok)
		}
	}
}
