package loadgen

import (
	"errors"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/workload"
)

// TestTagRoundTrip: every tag the recorder and the YCSB import write is read
// back by ParseTag as the measurement and kind it was built from, including
// a measurement with dots (YCSB's op names may hold them).
func TestTagRoundTrip(t *testing.T) {
	var measurements []string
	for op := range workload.NumOps {
		for o := range numOutcomes {
			measurements = append(measurements, o.Name(op))
		}
	}
	measurements = append(measurements, "READ-MODIFY-WRITE", "CLEANUP", "my.op.v2", "x")
	for _, m := range measurements {
		for k := range numKinds {
			tag := Tag(m, k)
			gotM, gotK, err := ParseTag(tag)
			if err != nil || gotM != m || gotK != k {
				t.Errorf("ParseTag(%q) = %q, %v, %v; want %q, %v", tag, gotM, gotK, err, m, k)
			}
		}
	}
}

func TestParseTag(t *testing.T) {
	for _, c := range []struct {
		tag, measurement string
		kind             Kind
		err              string // "" for none; "bare" for ErrNoKind
	}{
		{"READ.intended", "READ", Intended, ""},
		{"READ-FAILED.service", "READ-FAILED", Service, ""},
		{"a.b.service", "a.b", Service, ""},
		{"READ", "READ", 0, "bare"},
		{"", "", 0, "empty"},
		{".intended", "", 0, "no measurement"},
		{"READ.", "", 0, `kind ""`},
		{"READ.Intended", "", 0, `kind "Intended"`},
		{"READ.intended.x", "", 0, `kind "x"`},
	} {
		m, k, err := ParseTag(c.tag)
		switch {
		case c.err == "bare":
			if !errors.Is(err, ErrNoKind) || m != c.measurement {
				t.Errorf("ParseTag(%q) = %q, %v; want %q with ErrNoKind", c.tag, m, err, c.measurement)
			}
		case c.err != "":
			if err == nil || errors.Is(err, ErrNoKind) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseTag(%q) err = %v; want one saying %q", c.tag, err, c.err)
			}
		case err != nil || m != c.measurement || k != c.kind:
			t.Errorf("ParseTag(%q) = %q, %v, %v; want %q, %v", c.tag, m, k, err, c.measurement, c.kind)
		}
	}
}

// FuzzParseTag: a tag ParseTag accepts is the one Tag builds from what it
// returned; a bare one is the whole tag, without a dot; and any non-empty
// measurement Tag is given comes back whole.
func FuzzParseTag(f *testing.F) {
	for _, s := range []string{"READ.intended", "READ-FAILED.service", "READ", "", ".", "a.b.service", "READ.x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		m, k, err := ParseTag(tag)
		switch {
		case err == nil:
			if Tag(m, k) != tag {
				t.Fatalf("ParseTag(%q) = %q, %v; Tag gives %q", tag, m, k, Tag(m, k))
			}
		case errors.Is(err, ErrNoKind):
			if m != tag || strings.Contains(tag, ".") {
				t.Fatalf("ParseTag(%q) bare with measurement %q", tag, m)
			}
		}
		if tag == "" {
			return
		}
		for k := range numKinds {
			if gm, gk, err := ParseTag(Tag(tag, k)); err != nil || gm != tag || gk != k {
				t.Fatalf("Tag(%q, %v) reads back as %q, %v, %v", tag, k, gm, gk, err)
			}
		}
	})
}
