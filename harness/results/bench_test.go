package results

import (
	"fmt"
	"testing"
)

func manifestWith(n int) *Manifest {
	m := testManifest()
	m.Schema = SchemaVersion
	for i := range n {
		m.Trials = append(m.Trials, testTrial(fmt.Sprintf("t%d", i), i))
	}
	return m
}

// BenchmarkDecodeManifest measures verifying and parsing a 100-trial manifest.
func BenchmarkDecodeManifest(b *testing.B) {
	enc, err := EncodeManifest(manifestWith(100))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(enc)))
	for b.Loop() {
		if _, err := DecodeManifest(enc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendTrial measures one durable append (hlog + manifest, fsynced) to a growing manifest.
func BenchmarkAppendTrial(b *testing.B) {
	s, _ := Open(b.TempDir())
	m, _ := s.Ensure(testManifest())
	k := KeyOf(m)
	i := 0
	for b.Loop() {
		if _, err := s.AppendTrial(k, testTrial(fmt.Sprintf("t%d", i), i), nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkAppendSummaries1500 measures storing 1500 imported summaries in
// one batch (one manifest write, not 1500): the import of a long YCSB run.
func BenchmarkAppendSummaries1500(b *testing.B) {
	var ps []Pending
	for i := range 1500 {
		ps = append(ps, Pending{Trial: testTrial(fmt.Sprintf("s%d", i), 0)})
	}
	for b.Loop() {
		s, _ := Open(b.TempDir())
		m, _ := s.Ensure(testManifest())
		if _, _, err := s.AppendSummaries(KeyOf(m), ps); err != nil {
			b.Fatal(err)
		}
	}
}
