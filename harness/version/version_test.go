package version

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	good := []string{"2.6.1", "2.6.1-hadoop3", "3.0.0-beta-1", "2.5.11-hadoop3", "1.0.1.1"}
	bad := []string{"", "../2.6.1", "2.6.1/../../x", "2.6.1;rm", "-Dfoo", ".", "..", "2.6 1", "2.6.1\n", "$(id)", "v2.6.1", "2.6.1_x", strings.Repeat("1", 65)}
	for _, v := range good {
		if err := Validate(v); err != nil {
			t.Errorf("Validate(%q) = %v, want nil", v, err)
		}
	}
	for _, v := range bad {
		if err := Validate(v); !errors.Is(err, ErrBad) {
			t.Errorf("Validate(%q) = %v, want ErrBad", v, err)
		}
	}
}

func TestCompareOrdersReleasesVariantsAndPreReleases(t *testing.T) {
	ordered := []string{"2.4.18", "2.5.2", "2.5.2-hadoop3", "2.5.10", "2.6.1", "2.6.1-hadoop3", "3.0.0-alpha-4", "3.0.0-beta-1", "3.0.0"}
	for i := 0; i+1 < len(ordered); i++ {
		if Compare(ordered[i], ordered[i+1]) >= 0 || Compare(ordered[i+1], ordered[i]) <= 0 {
			t.Errorf("want %s < %s", ordered[i], ordered[i+1])
		}
	}
	if got := Sort([]string{"2.6.1", "2.4.18", "2.6.1", "2.5.10", "2.5.2"}); !slices.Equal(got, []string{"2.4.18", "2.5.2", "2.5.10", "2.6.1"}) {
		t.Errorf("Sort = %v, want ordered without the duplicate", got)
	}
}

func TestLine(t *testing.T) {
	for v, want := range map[string][2]int{"2.6.1-hadoop3": {2, 6}, "1.7.2": {1, 7}, "3.0.0-beta-1": {3, 0}, "2.10": {2, 10}} {
		if maj, mnr, ok := Line(v); !ok || maj != want[0] || mnr != want[1] {
			t.Errorf("Line(%q) = %d, %d, %v; want %v", v, maj, mnr, ok, want)
		}
	}
	for _, v := range []string{"2", "x.y", ""} {
		if _, _, ok := Line(v); ok {
			t.Errorf("Line(%q) ok, want not", v)
		}
	}
}

func TestReleasesVariantsAndPreReleases(t *testing.T) {
	if !SameRelease("2.6.1", "2.6.1-hadoop3") || !SameRelease("2.4.18-hadoop2", "2.4.18") || SameRelease("2.6.1", "2.6.10") {
		t.Error("SameRelease confuses releases")
	}
	for v, want := range map[string]bool{"3.0.0-beta-1": true, "3.0.0-alpha-4": true, "2.6.1-SNAPSHOT": true, "2.6.1-rc1": true,
		"2.6.1": false, "2.6.1-hadoop3": false, "3.0.0": false} {
		if PreRelease(v) != want {
			t.Errorf("PreRelease(%q) = %v, want %v", v, !want, want)
		}
	}
}
