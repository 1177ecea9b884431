package report

import (
	"io"
	"testing"
)

// BenchmarkRenderHTML renders the page with two percentile plots.
func BenchmarkRenderHTML(b *testing.B) {
	r := fullReport()
	for b.Loop() {
		if err := Render(io.Discard, FormatHTML, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderText renders the terminal table.
func BenchmarkRenderText(b *testing.B) {
	r := fullReport()
	for b.Loop() {
		if err := Render(io.Discard, FormatText, r); err != nil {
			b.Fatal(err)
		}
	}
}
