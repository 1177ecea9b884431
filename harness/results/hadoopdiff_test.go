package results

import (
	"slices"
	"testing"
)

// TestDiffNamesHadoopStacksOnlyWhereBothAreKnown: two builds on different
// Hadoop client stacks are a difference compare warns about; a manifest
// stored before the stack was recorded is not.
func TestDiffNamesHadoopStacksOnlyWhereBothAreKnown(t *testing.T) {
	base := Environment{CPUModel: "x", Cores: 2, OS: "linux", JDK: "JDK 17"}
	tests := []struct {
		name       string
		base, cand string
		want       []string
	}{
		{"same stack", "3.4.1", "3.4.1", nil},
		{"Hadoop 3 against Hadoop 2", "3.4.1", "2.10.2", []string{"hadoop 3.4.1 vs 2.10.2"}},
		{"baseline stored before it was recorded", "", "2.10.2", nil},
		{"neither recorded", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, c := base, base
			b.Hadoop, c.Hadoop = tt.base, tt.cand
			if got := b.Diff(c); !slices.Equal(got, tt.want) {
				t.Errorf("Diff = %q, want %q", got, tt.want)
			}
		})
	}
}
