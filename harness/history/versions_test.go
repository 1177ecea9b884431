package history

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// knownHere is what `regress cluster versions` lists on a machine with Maven:
// plain and -hadoop3 builds, a pre-release and old lines.
var knownHere = []string{
	"1.7.2", "2.0.0-beta-1", "2.0.0", "2.4.18", "2.4.18-hadoop3",
	"2.5.9", "2.5.10", "2.5.10-hadoop3", "2.5.11", "2.5.11-hadoop3", "2.5.12", "2.5.13",
	"2.6.0", "2.6.0-hadoop3", "2.6.1", "2.6.1-hadoop3", "2.6.2", "2.6.2-hadoop3", "2.6.3", "2.6.4", "2.6.4-hadoop3",
	"3.0.0-beta-1",
}

func TestResolveVersions(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		known []string
		want  []string
		err   string
	}{
		{spec: "2.5.10..2.6.4", known: knownHere, want: []string{"2.5.10", "2.5.11", "2.5.12", "2.5.13", "2.6.0", "2.6.1", "2.6.2", "2.6.3", "2.6.4"}},
		{spec: "2.6.1-hadoop3..2.6.3", known: knownHere, want: []string{"2.6.1", "2.6.2", "2.6.3"}},
		{spec: "1.7.2..2.4.18", known: knownHere, want: []string{"1.7.2", "2.0.0", "2.4.18"}},
		{spec: "2.0.0-beta-1..2.0.0", known: knownHere, want: []string{"2.0.0-beta-1", "2.0.0"}},
		{spec: "2.6.4..2.6.4", known: knownHere, want: []string{"2.6.4"}},
		{spec: "2.6.0,2.6.2,2.6.4", want: []string{"2.6.0", "2.6.2", "2.6.4"}},
		{spec: "2.6.4, 2.6.0 ,2.5.10-hadoop3", want: []string{"2.5.10-hadoop3", "2.6.0", "2.6.4"}},
		{spec: "2.5.12..2.5.13,2.6.3..2.6.4", known: knownHere, want: []string{"2.5.12", "2.5.13", "2.6.3", "2.6.4"}},
		{spec: "2.6.9,2.6.0", want: []string{"2.6.0", "2.6.9"}},
		{spec: "", err: "--versions is empty"},
		{spec: "2.6.0,,2.6.1", err: "empty item"},
		{spec: "2.6.4..2.6.0", known: knownHere, err: "runs backwards: write the older release first (2.6.0..2.6.4)"},
		{spec: "2.6.0..2.6.9", known: knownHere, err: "2.6.9 is not among the"},
		{spec: "2.6.0..", known: knownHere, err: "needs both ends"},
		{spec: "2.6.0..2.6.2", known: nil, err: "no HBase versions known"},
		{spec: "2.6.1,2.6.1-hadoop3", err: "2.6.1 appears twice"},
		{spec: "2.6.0..2.6.2,2.6.1", known: knownHere, err: "2.6.1 appears twice"},
		{spec: "latest", err: "--versions:"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := ResolveVersions(tc.spec, tc.known)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := ResolveVersions("2.6.0..2.6.1", nil); !errors.Is(err, ErrNoVersions) {
		t.Errorf("err = %v, want ErrNoVersions", err)
	}
	_, err := ResolveVersions("2.6.0..2.6.7", knownHere)
	if err == nil || !strings.Contains(err.Error(), "2.6.2, 2.6.3, 2.6.4") {
		t.Errorf("err = %v, want the known versions near 2.6.7", err)
	}
}

func FuzzCheckVersions(f *testing.F) {
	for _, s := range []string{"2.6.0,2.6.1", "2.5.10..2.6.4", "2.6.0..", "..2.6.1", "2.6.1..2.6.0", "a,,b", "2.6.0-hadoop3..2.6.1"} {
		f.Add(s)
	}
	known := []string{"2.5.10", "2.5.11", "2.6.0", "2.6.0-hadoop3", "2.6.1", "2.6.4"}
	f.Fuzz(func(t *testing.T, spec string) {
		checked := CheckVersions(spec)
		if _, err := ResolveVersions(spec, known); err == nil && checked != nil {
			t.Fatalf("%q resolves but the check as written refuses it: %v", spec, checked)
		}
	})
}
