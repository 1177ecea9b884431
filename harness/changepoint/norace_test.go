//go:build !race

package changepoint

// raceEnabled is true under -race, where the validation runs fewer replications.
const raceEnabled = false
