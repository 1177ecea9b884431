//go:build !race

package compare

// raceEnabled is true under -race, where the validation suite runs fewer replications.
const raceEnabled = false
