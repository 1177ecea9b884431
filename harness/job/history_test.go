package job

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
)

func TestResolveReleasesAsksForKnownVersionsOnlyForARange(t *testing.T) {
	asked := 0
	known := func(context.Context) ([]string, error) {
		asked++
		return []string{"2.6.0-hadoop3", "2.6.1", "2.6.2", "2.6.3"}, nil
	}
	rs, err := resolveReleases(context.Background(), "2.6.0,2.6.3", "", known)
	if err != nil || asked != 0 || !slices.Equal(rs, []string{"2.6.0", "2.6.3"}) {
		t.Errorf("list: %v, %v, asked %d times", rs, err, asked)
	}
	rs, err = resolveReleases(context.Background(), "2.6.0..2.6.2", "", known)
	if err != nil || asked != 1 || !slices.Equal(rs, []string{"2.6.0", "2.6.1", "2.6.2"}) {
		t.Errorf("range: %v, %v, asked %d times", rs, err, asked)
	}
	// Maven unreachable but the cache answers: the range resolves from it.
	partial := func(context.Context) ([]string, error) {
		return []string{"2.6.0", "2.6.1"}, errors.New("mvn not found")
	}
	if rs, err := resolveReleases(context.Background(), "2.6.0..2.6.1", "", partial); err != nil || len(rs) != 2 {
		t.Errorf("cache only: %v, %v", rs, err)
	}
	none := func(context.Context) ([]string, error) { return nil, errors.New("mvn not found") }
	if _, err := resolveReleases(context.Background(), "2.6.0..2.6.1", "", none); err == nil || !strings.Contains(err.Error(), "cannot list the known versions") {
		t.Errorf("nothing known: %v", err)
	}
}

func TestNarrowWorkloadsKeepsTheSuitesOrder(t *testing.T) {
	s := &suite.Suite{Name: "s", Workloads: []string{"workloada", "sub/workloadc", "workloade"}}
	if err := narrowWorkloads(s, []string{"workloade", "workloadc", "workloade"}, "--workloads"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Workloads, []string{"sub/workloadc", "workloade"}) {
		t.Errorf("workloads %v", s.Workloads)
	}
	err := narrowWorkloads(s, []string{"workloadz"}, "--workload")
	if err == nil || !strings.Contains(err.Error(), "--workload workloadz: suite s has no such workload; it has workloadc, workloade") {
		t.Errorf("err = %v", err)
	}
	s.Workloads = []string{"workloada"}
	if err := narrowWorkloads(s, nil, "--workloads"); err != nil || len(s.Workloads) != 1 {
		t.Errorf("none named: %v %v", s.Workloads, err)
	}
}

// TestHistorySaysWhenReusedResultsRanAnotherSuiteVersion: a sweep reusing
// stored results whose suite judged otherwise says so once, and says
// nothing of results that carry its own suite or none.
func TestHistorySaysWhenReusedResultsRanAnotherSuiteVersion(t *testing.T) {
	s, err := LoadSuite("", "smoke")
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sw := &sweep{s: s, se: &session{log: slog.New(slog.NewTextHandler(&log, nil))}}
	carrying := func(text string) *results.Manifest {
		return &results.Manifest{Version: "2.6.1", Suite: results.SuiteInfo{Name: "smoke", Text: text, Files: s.Files()}}
	}
	sw.sameSuite(carrying(s.Text()))
	sw.sameSuite(&results.Manifest{Version: "2.6.1", Suite: results.SuiteInfo{Name: "smoke"}})
	if log.Len() > 0 {
		t.Fatalf("the sweep's own suite, or none, logged: %s", log.String())
	}
	other := strings.Replace(s.Text(), "alpha: 5%", "alpha: 1%", 1)
	sw.sameSuite(carrying(other))
	sw.sameSuite(carrying(other))
	if n := strings.Count(log.String(), "judged by another version of the suite"); n != 1 {
		t.Errorf("another version logged %d times, want once:\n%s", n, log.String())
	}
}
