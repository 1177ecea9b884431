package results

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// hlogOf is an interval log of one READ.intended interval of highest
// trackable value highest at digits significant digits.
func hlogOf(t *testing.T, highest int64, digits int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := hdrhistogram.NewHistogramLogWriter(&buf)
	if err := w.OutputLogFormatVersion(); err != nil {
		t.Fatal(err)
	}
	h := hdrhistogram.New(1, highest, digits)
	h.SetTag("READ.intended")
	for v := int64(100); v < 5000; v += 7 {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	h.SetStartTimeMs(1_700_000_000_000)
	h.SetEndTimeMs(1_700_000_001_000)
	if err := w.OutputIntervalHistogram(h); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// `results check` judges a stored .hlog by the rule compare reads it with
// (WorkloadHistograms): one compare leaves out as corrupted (a histogram
// declaring 1..2^40 at 5 digits, an interval that does not decode) is
// DAMAGED, where check called it good when its checksum matched.
func TestCheckJudgesLogsAsCompareReadsThem(t *testing.T) {
	tests := []struct {
		name string
		log  func(t *testing.T) []byte
		want string // "" when good
	}{
		{"a log regress writes", func(t *testing.T) []byte { return hlogOf(t, 3_600_000_000, 3) }, ""},
		{"1..2^40 at 3 digits (within the bounds)", func(t *testing.T) []byte { return hlogOf(t, 1<<40, 3) }, ""},
		{"1..2^40 at 5 digits", func(t *testing.T) []byte { return hlogOf(t, 1<<40, 5) }, "beyond the 2097152 this reader allows"},
		{"an interval that does not decode", func(t *testing.T) []byte {
			return []byte("#[Histogram log format version 1.3]\nTag=READ.intended,0.000,1.000,5.000,HISTFAAAAB54nJNpmSzMwMDAxAABzFCaEUwKsH+AsAAbQgJH\n")
		}, "read interval log"},
		{"a header and nothing else", func(t *testing.T) []byte { return []byte("#[Histogram log format version 1.3]\n") }, ""},
		{"an empty log", func(t *testing.T) []byte { return []byte{} }, "an empty interval log"},
		{"a binary file", func(t *testing.T) []byte { return []byte("\x00\x01PK\x03\x04\xff\xfe binary\n\x00\x00") }, "not an interval log"},
		{"another text file", func(t *testing.T) []byte { return []byte("[OVERALL], RunTime(ms), 1000\n") }, "not an interval log"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.Ensure(testManifest())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.AppendTrial(KeyOf(m), testTrial("t1", 0), bytes.NewReader(tc.log(t))); err != nil {
				t.Fatal(err)
			}
			sts, err := s.Check()
			if err != nil {
				t.Fatal(err)
			}
			if len(sts) != 1 {
				t.Fatalf("check = %+v, want one entry", sts)
			}
			stored, err := s.Load(KeyOf(m))
			if err != nil {
				t.Fatal(err)
			}
			_, cmpErr := s.WorkloadHistograms(stored)
			switch {
			case tc.want == "" && (sts[0].Err != nil || cmpErr != nil):
				t.Errorf("check: %v; compare's read: %v; want both good", sts[0].Err, cmpErr)
			case tc.want != "" && (sts[0].Err == nil || !strings.Contains(sts[0].Err.Error(), tc.want) || !strings.Contains(sts[0].Err.Error(), "trial t1")):
				t.Errorf("check: %v, want DAMAGED naming trial t1 and %q", sts[0].Err, tc.want)
			case tc.want != "" && cmpErr == nil:
				t.Errorf("compare's read took the log check calls damaged")
			}
		})
	}
}

// A label holding results of two versions is refused by compare's Resolve,
// whichever way the entry is named, with the same words `results check`
// calls it DAMAGED with; a label of one version (its -hadoop3 build
// included) resolves.
func TestResolveRefusesALabelHoldingTwoVersions(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	put := func(label, version, suite string) string {
		t.Helper()
		m := testManifest()
		m.Schema, m.Version, m.Label, m.Suite = SchemaVersion, version, label, SuiteInfo{Name: suite, Fingerprint: "0123456789abcdef"}
		m.Trials = []Trial{testTrial("t1", 0)}
		b, err := EncodeManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		dir := s.Dir(KeyOf(m))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, manifestFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	mixedDir := put("mixed", "2.6.0", "smoke")
	put("mixed", "2.6.1", "other")
	put("one", "2.6.0", "smoke")
	put("one", "2.6.0-hadoop3", "other")
	sts, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	checkSays := map[string]error{}
	for _, st := range sts {
		checkSays[st.Name] = st.Err
	}
	tests := []struct {
		ref, suite string
		entry      string // as check names it
		want       string // "" resolves
	}{
		{"mixed", "smoke", "mixed/smoke-0123456789ab", "mixed names results of HBase 2.6.0 here and of 2.6.1 in mixed/other-0123456789ab"},
		{"mixed", "other", "mixed/other-0123456789ab", "mixed names results of HBase 2.6.1 here and of 2.6.0 in mixed/smoke-0123456789ab"},
		{mixedDir, "", "mixed/smoke-0123456789ab", "mixed names results of HBase 2.6.0 here and of 2.6.1 in mixed/other-0123456789ab"},
		{"one", "smoke", "one/smoke-0123456789ab", ""},
		{"one", "other", "one/other-0123456789ab", ""},
	}
	for _, tc := range tests {
		m, err := s.Resolve(tc.ref, tc.suite)
		if tc.want == "" {
			if err != nil || checkSays[tc.entry] != nil {
				t.Errorf("Resolve(%s, %s): %v; check: %v; want both good (one release)", tc.ref, tc.suite, err, checkSays[tc.entry])
			}
			continue
		}
		if !errors.Is(err, ErrVersionsDiffer) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resolve(%s, %s) = %v, %v; want ErrVersionsDiffer saying %q", tc.ref, tc.suite, m, err, tc.want)
		}
		if c := checkSays[tc.entry]; c == nil || err == nil || !strings.Contains(err.Error(), c.Error()) {
			t.Errorf("check says %s is %v; compare says %v: one rule, one answer", tc.entry, c, err)
		}
	}
}
