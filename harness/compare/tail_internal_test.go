package compare

import (
	"slices"
	"testing"
)

// TestFallbackOrderIsTheCatalogues: the tail rule falls back from the
// highest percentile down to the mean, in the order the catalogue's
// quantiles give.
func TestFallbackOrderIsTheCatalogues(t *testing.T) {
	want := []string{MetricP999, MetricP99, MetricP95, MetricP50, MetricMean}
	if !slices.Equal(fallbackOrder, want) {
		t.Errorf("fallbackOrder = %v, want %v", fallbackOrder, want)
	}
	if OpsNeeded(MetricP99) != 5000 || OpsNeeded(MetricP999) != 50000 || OpsNeeded(MetricMean) != 0 || OpsNeeded(MetricThroughput) != 0 {
		t.Errorf("OpsNeeded p99 %d, p99.9 %d, mean %d, throughput %d", OpsNeeded(MetricP99), OpsNeeded(MetricP999), OpsNeeded(MetricMean), OpsNeeded(MetricThroughput))
	}
}
