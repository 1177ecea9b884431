package probe

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/profile"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// profServer is one region server's info server as HBase 2.6.1 answers
// /prof (ProfileServlet) and its output (ProfileOutputServlet): 202 with a
// Refresh header naming the output; the output page answers with a
// Refresh header until the run's duration has passed, then the file.
// refuse, when not 0, is the status /prof answers with instead, body its text.
type profServer struct {
	output string
	refuse int
	body   string

	mu      sync.Mutex
	started time.Time
	secs    int
	reads   []time.Time
}

func (p *profServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	const out = "/prof-output-hbase/async-prof-pid-77-cpu-1.collapsed"
	switch r.URL.Path {
	case "/prof":
		if p.refuse != 0 {
			w.WriteHeader(p.refuse)
			fmt.Fprint(w, p.body)
			return
		}
		p.secs, _ = strconv.Atoi(r.URL.Query().Get("duration"))
		p.started = time.Now()
		w.Header().Set("Refresh", fmt.Sprintf("%d;%s", p.secs, out))
		w.WriteHeader(http.StatusAccepted)
		fmt.Fprintf(w, "Started [cpu] profiling. This page will automatically redirect to %s after %d seconds.", out, p.secs)
	case out:
		p.reads = append(p.reads, time.Now())
		if time.Since(p.started) < time.Duration(p.secs)*time.Second {
			w.Header().Set("Refresh", "2;"+out)
			fmt.Fprint(w, "This page will be auto-refreshed every 2 seconds until the output file is ready.")
			return
		}
		fmt.Fprint(w, p.output)
	default:
		http.NotFound(w, r)
	}
}

// serverCollapsed is a region server's CPU stacks as async-profiler writes
// them, with regress's own reads of the window's edges (/jmx, its agent)
// and of the profile's output among them.
const serverCollapsed = `java/lang/Thread.run;org/apache/hadoop/hbase/ipc/RpcHandler.run;org/apache/hadoop/hbase/regionserver/HRegion.get 30
start_thread;thread_native_entry;Thread::call_run;G1ParTask::work 4
java/lang/Thread.run;org/apache/hadoop/hbase/http/jmx/JMXJsonServlet.doGet;regress/agent/RequestThreads.read 2
java/lang/Thread.run;org/apache/hadoop/hbase/http/ProfileOutputServlet.doGet 1
`

// fastServlet makes /prof's waits milliseconds for a test.
var fastServlet = profile.ServletOptions{Settle: 150 * time.Millisecond, Poll: 50 * time.Millisecond, Grace: 5 * time.Second}

// remoteSide is the profiled trial of a side of region servers elsewhere,
// each read at its info server, stored in store.
func remoteSide(store *results.Store, name string, measure time.Duration, servers ...*httptest.Server) Trial {
	var ss servercost.Servers
	for i, srv := range servers {
		ss = append(ss, servercost.Server{Name: fmt.Sprintf("region server %d", i), JMX: srv.Listener.Addr().String()})
	}
	return profiledTrial(store, name, ss, servletLead, measure)
}

// TestServletProfileIsStoredAsJFRProfilesAre: a side whose region servers
// run elsewhere is profiled by each info server's /prof over the window,
// the output read after the run, and its servers' CPU stacks summed and
// stored where and as the JFR path stores them (ProfileFile, with the
// ProfileMeta beside them), less regress's own reads, with no allocation
// stacks (the servlet runs one event) and the profiler named.
func TestServletProfileIsStoredAsJFRProfilesAre(t *testing.T) {
	var fakes []*profServer
	var servers []*httptest.Server
	for range 2 {
		f := &profServer{output: serverCollapsed}
		srv := httptest.NewServer(f)
		defer srv.Close()
		fakes, servers = append(fakes, f), append(servers, srv)
	}
	store, err := results.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	pr := &Profiler{Servlet: fastServlet}
	s := remoteSide(store, "cand", 500*time.Millisecond, servers...)
	ctx := context.Background()
	p := pr.startProfile(ctx, s, time.Now(), nil)
	if p == nil {
		t.Fatalf("not profiled: notes %q", pr.Notes())
	}
	id := s.ProfileID
	p.keep(ctx, pr, "workloadc", id, &results.ProfileMeta{RunID: "run", Workload: "workloadc", Ops: 1000}, true)
	if n := pr.Notes(); len(n) > 0 {
		t.Fatalf("notes %q", n)
	}
	for i, f := range fakes {
		f.mu.Lock()
		if f.secs != 2 || len(f.reads) == 0 || f.reads[0].Sub(f.started) < 2*time.Second {
			t.Errorf("server %d: asked for %d s, output read %v after the start: want 2 s (the 0.5 s window and the lead), read after them", i, f.secs, f.reads)
		}
		f.mu.Unlock()
	}
	dir := s.Dir
	metas, err := results.ReadProfileMetas(dir)
	if err != nil || len(metas) != 1 {
		t.Fatalf("descriptions %+v, %v", metas, err)
	}
	if m := metas[0]; m.ID != "run-workloadc-profile" || m.Ops != 1000 || m.Profiler != results.ProfilerServlet || m.OwnReadCPUSamples != 6 {
		t.Errorf("description %+v: want the profiled pair's, async-profiler's, 6 own-read samples left out", m)
	}
	fh, err := os.Open(results.ProfileFile(dir, id, string(profile.CPU)))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	cpu, err := profile.ReadFolded(fh)
	if err != nil {
		t.Fatal(err)
	}
	want := profile.Folded{
		"java.lang.Thread.run;org.apache.hadoop.hbase.ipc.RpcHandler.run;org.apache.hadoop.hbase.regionserver.HRegion.get": 60,
		"start_thread;thread_native_entry;Thread::call_run;G1ParTask::work":                                                8,
	}
	if !maps.Equal(cpu, want) {
		t.Errorf("stored CPU stacks %v, want %v", cpu, want)
	}
	for _, k := range []profile.Kind{profile.Alloc, profile.AllocSamples} {
		if _, err := os.Stat(results.ProfileFile(dir, id, string(k))); !os.IsNotExist(err) {
			t.Errorf("%s stacks stored (%v): /prof profiled CPU only", k, err)
		}
	}
}

// TestServletThatCannotProfileIsOneNotePerSide: info servers whose /prof
// cannot run (no async-profiler, access refused, no servlet) leave one
// note per side saying why, store nothing, and fail nothing.
func TestServletThatCannotProfileIsOneNotePerSide(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"no async-profiler", 500, "The profiler servlet was disabled at startup.\n\nPlease ensure the prerequisites for the Profiler Servlet have been installed", "cand: no profile: its info servers' /prof needs async-profiler on the hosts (ASYNC_PROFILER_HOME"},
		{"unauthorized", 401, "Unauthorized: Instrumentation access is not allowed!", "cand: no profile: its info servers' /prof asks for authentication"},
		{"forbidden", 403, "", "cand: no profile: its info servers' /prof refuses regress (403"},
		{"no servlet", 404, "", "cand: no profile: its info servers' /prof is not there (404"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var servers []*httptest.Server
			for range 2 {
				srv := httptest.NewServer(&profServer{refuse: tc.status, body: tc.body})
				defer srv.Close()
				servers = append(servers, srv)
			}
			store, err := results.Open(filepath.Join(t.TempDir(), "store"))
			if err != nil {
				t.Fatal(err)
			}
			pr := &Profiler{Servlet: fastServlet}
			s := remoteSide(store, "cand", time.Second, servers...)
			p := pr.startProfile(context.Background(), s, time.Now(), nil)
			p.keep(context.Background(), pr, "workloadc", s.ProfileID, &results.ProfileMeta{Ops: 1000}, true)
			n := pr.Notes()
			if len(n) != 1 || !strings.HasPrefix(n[0], tc.want) || !strings.Contains(n[0], "docs/profiles.md") {
				t.Errorf("notes %q, want one starting %q and pointing at the docs", n, tc.want)
			}
			if _, err := os.Stat(filepath.Join(s.Dir, results.ProfilesDir)); !os.IsNotExist(err) {
				t.Errorf("profiles stored for a side that has none: %v", err)
			}
		})
	}
}
