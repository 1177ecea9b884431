package servercost

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAgentReadingKeepsAnEndedThreadsBytesOut: the agent's per-thread
// bytes make a window lose only what a thread that ended spent in it; the
// totals alone would go back and leave the window without its figure.
func TestAgentReadingKeepsAnEndedThreadsBytesOut(t *testing.T) {
	answers := []string{"11=1000 12=5000 13=900000", "11=1600 12=5400 14=300"}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("qry") != AgentBean {
			http.Error(w, "no such bean", http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, `{"beans": [{"name": %q, "RequestAllocatedBytes": %d, "RequestCpuTime": 5, "RequestThreadCount": 3, "RequestAllocatedBytesByThread": %q}]}`,
			AgentBean, 906000-n*899700, answers[n])
		n++
	}))
	defer srv.Close()
	s := Server{Name: "rs", PID: -1, Agent: strings.TrimPrefix(srv.URL, "http://")}
	ctx := context.Background()
	a, err := readAgent(ctx, jmxClient, s.Agent)
	if err != nil {
		t.Fatal(err)
	}
	b, err := readAgent(ctx, jmxClient, s.Agent)
	if err != nil {
		t.Fatal(err)
	}
	if got := perThreadDelta(a.byThread, b.byThread); got != 600+400+300 {
		t.Errorf("window's bytes %d, want 1300 (thread 13 ended, 14 was born)", got)
	}
	if b.requestAlloc >= a.requestAlloc {
		t.Fatalf("the case must make the totals go back: %d then %d", a.requestAlloc, b.requestAlloc)
	}
	ra := Reading{RequestAllocOK: true, RequestAlloc: a.requestAlloc, allocThreads: a.byThread}
	rb := Reading{RequestAllocOK: true, RequestAlloc: b.requestAlloc, allocThreads: b.byThread}
	if c := s.Since(ra, rb); !c.RequestAllocKnown || c.RequestAllocated != 1300 {
		t.Errorf("cost %d known %v, want 1300 known", c.RequestAllocated, c.RequestAllocKnown)
	}
	if parseByThread("") != nil || parseByThread("x=1 2=y") != nil || len(parseByThread("1=2 3=-4 5=6")) != 2 {
		t.Error("parseByThread: want nil for nothing usable, negative counts dropped")
	}
}
