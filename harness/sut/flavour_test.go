package sut

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/cluster"
)

// published is a fake Maven: the artifact versions it serves.
func published(vs ...string) resolver {
	have := map[string]bool{}
	for _, v := range vs {
		have[v] = true
	}
	return func(_ context.Context, s cluster.Spec) (string, error) {
		if !s.Plain && !cluster.ExplicitFlavour(s.Version) && have[s.Version+"-hadoop3"] {
			return s.Version + "-hadoop3", nil
		}
		if have[s.Version] {
			return s.Version, nil
		}
		return "", cluster.ErrVersionNotFound
	}
}

func TestSameFlavourGivesBothSidesOneBuild(t *testing.T) {
	maven := published("2.6.1", "2.6.1-hadoop3", "2.6.2", "2.6.3", "2.5.10", "2.5.10-hadoop3", "2.4.18", "2.7.0-hadoop3")
	tests := []struct {
		name        string
		base, cand  string
		wantPlain   [2]bool
		wantNote    string // a substring of the log line, "" for none
		wantWarning bool
	}{
		{"both have -hadoop3 builds", "2.5.10", "2.6.1", [2]bool{}, "", false},
		{"neither has one", "2.6.2", "2.6.3", [2]bool{}, "", false},
		{"candidate has none: baseline falls back", "2.6.1", "2.6.3", [2]bool{true, false}, "baseline: HBase 2.6.1 runs its plain build", false},
		{"baseline has none: candidate falls back", "2.6.3", "2.6.1", [2]bool{false, true}, "candidate: HBase 2.6.1 runs its plain build", false},
		{"-hadoop3 named: kept, and said", "2.6.1-hadoop3", "2.6.3", [2]bool{}, "two Hadoop client stacks (as asked)", true},
		{"no plain build to fall back on", "2.7.0", "2.6.3", [2]bool{}, "2.7.0's plain build does not resolve here", true},
		{"a line without -hadoop3 builds", "2.4.18", "2.4.18", [2]bool{}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var said []string
			opt := Options{Message: func(m string) { said = append(said, m) }}
			specs := []Spec{{Role: Baseline, Version: tt.base}, {Role: Candidate, Version: tt.cand}}
			got, err := sameFlavour(context.Background(), opt, specs, maven)
			if err != nil {
				t.Fatal(err)
			}
			if p := [2]bool{got[0].Plain, got[1].Plain}; p != tt.wantPlain {
				t.Errorf("plain = %v, want %v", p, tt.wantPlain)
			}
			// What each side then starts: one flavour, unless named.
			var f [2]string
			for i, s := range got {
				v, _ := maven(context.Background(), cluster.Spec{Version: s.Version, Plain: s.Plain})
				f[i] = cluster.Flavour(v)
			}
			if (f[0] != f[1]) != tt.wantWarning {
				t.Errorf("flavours %v; want them to differ only with a warning (%v)", f, tt.wantWarning)
			}
			msg := strings.Join(said, "\n")
			switch {
			case tt.wantNote == "" && msg != "":
				t.Errorf("said %q, want nothing", msg)
			case !strings.Contains(msg, tt.wantNote):
				t.Errorf("said %q, want %q in it", msg, tt.wantNote)
			case tt.wantWarning != strings.HasPrefix(msg, "warning: "):
				t.Errorf("said %q: want a warning: %v", msg, tt.wantWarning)
			}
		})
	}
}

func TestSameFlavourLeavesOtherSidesAlone(t *testing.T) {
	fail := func(context.Context, cluster.Spec) (string, error) { return "", errors.New("not asked") }
	for name, specs := range map[string][]Spec{
		"a home":            {{Role: Baseline, Home: "/opt/hbase"}, {Role: Candidate, Version: "2.6.3"}},
		"a running cluster": {{Role: Baseline, Version: "2.6.1"}, {Role: Candidate, ZK: "zk:2181"}},
		"one side":          {{Role: Run, Version: "2.6.1"}},
	} {
		got, err := sameFlavour(context.Background(), Options{}, specs, fail)
		if err != nil || len(got) != len(specs) || got[0].Plain {
			t.Errorf("%s: %+v, %v; want the specs as given", name, got, err)
		}
	}
	specs := []Spec{{Role: Baseline, Version: "2.6.99"}, {Role: Candidate, Version: "2.6.3"}}
	if _, err := sameFlavour(context.Background(), Options{}, specs, published("2.6.3")); !errors.Is(err, cluster.ErrVersionNotFound) || !strings.HasPrefix(err.Error(), "baseline: ") {
		t.Errorf("unpublished side: %v; want ErrVersionNotFound naming the baseline", err)
	}
}

func TestRenewKeepsTheFlavourTheFirstInstanceRan(t *testing.T) {
	tests := []struct {
		spec      Spec
		old       string
		wantPlain bool
	}{
		{Spec{Version: "2.6.1"}, "2.6.1", true},
		{Spec{Version: "2.6.1"}, "2.6.1-hadoop3", false},
		{Spec{Version: "2.6.1-hadoop3"}, "2.6.1-hadoop3", false},
		{Spec{Home: "/opt/hbase"}, "2.6.1", false},
	}
	for _, tt := range tests {
		if got := renewedFlavour(tt.spec, &Target{Version: tt.old}); got.Plain != tt.wantPlain {
			t.Errorf("renewedFlavour(%+v, old %s).Plain = %v, want %v", tt.spec, tt.old, got.Plain, tt.wantPlain)
		}
	}
}
