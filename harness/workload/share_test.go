package workload

import "testing"

// TestShareInsertKeysDisjoint checks that three hosts' run-phase insert keys
// never collide, cover recordcount.. without gaps, and leave preloaded keys alone.
func TestShareInsertKeysDisjoint(t *testing.T) {
	const rc = 100
	seen := map[int64]int{}
	for i := range 3 {
		s := Share{Index: i, Of: 3}
		if got := s.keyNumber(42, rc); got != 42 {
			t.Errorf("host %d maps preloaded key 42 to %d", i, got)
		}
		for n := int64(rc); n < rc+10; n++ {
			k := s.keyNumber(n, rc)
			if prev, dup := seen[k]; dup {
				t.Fatalf("key %d written by hosts %d and %d", k, prev, i)
			}
			seen[k] = i
		}
	}
	for k := int64(rc); k < rc+30; k++ {
		if _, ok := seen[k]; !ok {
			t.Errorf("key %d written by no host", k)
		}
	}
	if err := (Share{Index: 2, Of: 2}).Validate(); err == nil {
		t.Error("host 2 of 2 accepted")
	}
	if got := (Share{}).keyNumber(rc+5, rc); got != rc+5 {
		t.Errorf("no share maps %d to %d", rc+5, got)
	}
}
