package loadhosts

import "time"

// SetClockSkew sets w's clock d ahead of the machine's, as a host with a
// clock of its own would have.
func SetClockSkew(w *Worker, d time.Duration) { w.skew = d }
