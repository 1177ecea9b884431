package workload

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestKeyNumberOneNamesYCSBRow(t *testing.T) {
	if got, want := BuildKeyName(1, 1, false), "user8517097267634966620"; got != want {
		t.Fatalf("BuildKeyName(1, hashed) = %s, want %s (YCSB's FNV-1a, low byte first)", got, want)
	}
}

func TestBuildKeyName(t *testing.T) {
	tests := []struct {
		n       int64
		pad     int
		ordered bool
		want    string
	}{
		{0, 1, true, "user0"},
		{42, 1, true, "user42"},
		{42, 6, true, "user000042"},
		{123456, 3, true, "user123456"},
		{1, 25, false, "user0000008517097267634966620"},
	}
	for _, tc := range tests {
		if got := BuildKeyName(tc.n, tc.pad, tc.ordered); got != tc.want {
			t.Errorf("BuildKeyName(%d, %d, ordered=%v) = %s, want %s", tc.n, tc.pad, tc.ordered, got, tc.want)
		}
	}
}

func TestFNVHash64IsNonNegativeExceptMinInt(t *testing.T) {
	for n := int64(0); n < 100000; n++ {
		if h := FNVHash64(n); h < 0 && h != math.MinInt64 {
			t.Fatalf("FNVHash64(%d) = %d: Math.abs leaves only MinInt64 negative", n, h)
		}
	}
}

func TestSplitKeysMatchesSortedKeySet(t *testing.T) {
	tests := []struct {
		count   int64
		regions int
		pad     int
		ordered bool
	}{
		{1000, 4, 1, false},
		{12345, 7, 1, false},
		{200000, 16, 1, false},
		{5000, 10, 1, true},
		{5000, 3, 8, true},
		{50000, 9, 20, false},
		{10, 10, 1, false},
		{50000, 8, 26, true},
		{99999, 5, 26, true},
		{20000, 6, 22, false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d/%d/pad%d/ordered=%v", tc.count, tc.regions, tc.pad, tc.ordered), func(t *testing.T) {
			got, err := SplitKeys(tc.count, tc.regions, tc.pad, tc.ordered)
			if err != nil {
				t.Fatal(err)
			}
			all := make([][]byte, tc.count)
			for n := range tc.count {
				all[n] = []byte(BuildKeyName(n, tc.pad, tc.ordered))
			}
			slices.SortFunc(all, bytes.Compare)
			if len(got) != tc.regions-1 {
				t.Fatalf("got %d split keys, want %d", len(got), tc.regions-1)
			}
			for i, k := range got {
				want := all[int64(i+1)*tc.count/int64(tc.regions)]
				if !bytes.Equal(k, want) {
					t.Errorf("split %d = %s, want %s", i, k, want)
				}
			}
		})
	}
}

func TestSplitKeysRejectsBadInput(t *testing.T) {
	if _, err := SplitKeys(100, 0, 1, false); err == nil {
		t.Error("0 regions: want an error")
	}
	if _, err := SplitKeys(3, 4, 1, false); err == nil {
		t.Error("3 rows in 4 regions: want an error")
	}
	if ks, err := SplitKeys(100, 1, 1, false); err != nil || ks != nil {
		t.Errorf("1 region: got %v, %v; want no split keys", ks, err)
	}
}

func BenchmarkSplitKeys1M(b *testing.B) {
	for b.Loop() {
		if _, err := SplitKeys(1_000_000, 64, 1, false); err != nil {
			b.Fatal(err)
		}
	}
}
