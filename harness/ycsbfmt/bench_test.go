package ycsbfmt

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkParseText014 parses a 0.1.4 output with 2000 bucket lines.
func BenchmarkParseText014(b *testing.B) {
	data, err := os.ReadFile(fixture("ycsb-0.1.4-workloada.txt"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseText("x", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseHdrLog decodes and merges a 10-interval YCSB log.
func BenchmarkParseHdrLog(b *testing.B) {
	data, err := os.ReadFile(fixture("ycsb-0.17-workloada-READ.hdr"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseHdrLog("READ.hdr", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
