package compare

import (
	"math"
	"testing"
)

func TestFastExpMatchesMathExp(t *testing.T) {
	worst := 0.0
	for x := -30.0; x <= 30; x += 0.0007 {
		got, want := fastExp(x), math.Exp(x)
		worst = math.Max(worst, math.Abs(got-want)/want)
	}
	if worst > 1e-8 {
		t.Fatalf("fastExp relative error up to %g, want below 1e-8 (the generator relies on it)", worst)
	}
}
