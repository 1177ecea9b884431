//go:build !unix

package report

// lockParent is a no-op where flock is unavailable: two comparisons given
// one --out at once may both write, and the second fails at its rename.
func lockParent(string) func() { return func() {} }
