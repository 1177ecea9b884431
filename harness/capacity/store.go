package capacity

import (
	"encoding/json"
	"fmt"

	"github.com/regress-hbase/regress/harness/results"
)

// Save stores sw through the results store (results.Store.PutSweep:
// <store>/capacity/<run id>.json, checksummed and written atomically) and
// returns the path written. A sweep without a run id cannot be stored.
func Save(st *results.Store, sw *Sweep) (string, error) {
	b, err := json.Marshal(sw)
	if err != nil {
		return "", fmt.Errorf("capacity: encode sweep: %w", err)
	}
	p, err := st.PutSweep(sw.RunID, b)
	if err != nil {
		return "", fmt.Errorf("capacity: %w", err)
	}
	return p, nil
}

// Load reads a stored sweep: ref is a sweep file or a run id in st. Sweeps
// stored before the store's checksum (plain JSON) load as they are.
func Load(st *results.Store, ref string) (*Sweep, error) {
	b, path, err := st.ReadSweep(ref)
	if err != nil {
		return nil, fmt.Errorf("capacity: %w", err)
	}
	var sw Sweep
	if err := json.Unmarshal(b, &sw); err != nil {
		return nil, fmt.Errorf("capacity: %s is not a capacity sweep (written by regress capacity): %w", path, err)
	}
	return &sw, nil
}
