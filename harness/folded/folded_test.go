package folded

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

type stackWeight struct {
	stack  string
	weight int64
}

func scanAll(in string) ([]stackWeight, error) {
	var out []stackWeight
	err := Scan(strings.NewReader(in), func(s string, w int64) { out = append(out, stackWeight{s, w}) })
	return out, err
}

func TestScan(t *testing.T) {
	got, err := scanAll("a;b;c 3\n\n   \n  x 0  \nframe with spaces;y 12\r\n")
	want := []stackWeight{{"a;b;c", 3}, {"x", 0}, {"frame with spaces;y", 12}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("Scan = %v, %v; want %v", got, err, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

func TestScanNamesTheFirstBadLine(t *testing.T) {
	for _, c := range []struct {
		in        string
		line      int
		badWeight bool
		weight    string
		before    int // stacks handed to fn before it
	}{
		{"a 1\n<html>\n", 2, false, "", 1},
		{"a 1\n\nb;c x\n", 3, true, "x", 1},
		{"a -3\n", 1, true, "-3", 0},
		{"a 99999999999999999999\n", 1, true, "99999999999999999999", 0},
		{"a\tb 1\nc 2\nlonely\n", 3, false, "", 2},
	} {
		var n int
		err := Scan(strings.NewReader(c.in), func(string, int64) { n++ })
		var le *LineError
		if !errors.As(err, &le) || le.Line != c.line || le.BadWeight != c.badWeight || le.Weight != c.weight {
			t.Errorf("Scan(%q) = %v (%+v); want line %d, bad weight %v %q", c.in, err, le, c.line, c.badWeight, c.weight)
			continue
		}
		if n != c.before {
			t.Errorf("Scan(%q) called fn %d times before the bad line", c.in, n)
		}
		if !strings.Contains(err.Error(), "line "+strconv.Itoa(c.line)) {
			t.Errorf("error %q names no line %d", err, c.line)
		}
	}
	long := "a;" + strings.Repeat("x", MaxLine) + " 1\n"
	if err := Scan(strings.NewReader(long), func(string, int64) {}); err == nil || errors.As(err, new(*LineError)) {
		t.Errorf("a line over MaxLine: error %v, want the reader's", err)
	}
}

// FuzzScan: what Scan accepts, written back one "stack weight" line each,
// scans to the same stacks and weights.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"a;b 1\n\n;c 0\n", "x 1\r\ny  2 \n", "a b c 3", "<html>", "a -1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := scanAll(in)
		if err != nil {
			return
		}
		var b strings.Builder
		for _, sw := range got {
			b.WriteString(sw.stack + " " + strconv.FormatInt(sw.weight, 10) + "\n")
		}
		back, err := scanAll(b.String())
		if err != nil || len(back) != len(got) {
			t.Fatalf("%q scanned to %v; written back as %q it scans to %v, %v", in, got, b.String(), back, err)
		}
		for i := range got {
			if back[i] != got[i] {
				t.Fatalf("%q: line %d %+v reads back as %+v", in, i+1, got[i], back[i])
			}
		}
	})
}
