package results

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
)

// Histograms reads the .hlog of each given trial (checksums verified) and
// merges the interval histograms by tag ("READ.intended", "READ.service"...),
// across trials. Pass one workload's trials to get that workload's
// distributions; trials without a stored log are skipped.
func (s *Store) Histograms(k Key, trials []Trial) (map[string]*hdrhistogram.Histogram, error) {
	return histogramsAt(s.Dir(k), k, trials)
}

func histogramsAt(dir string, k Key, trials []Trial) (map[string]*hdrhistogram.Histogram, error) {
	out := map[string]*hdrhistogram.Histogram{}
	for _, t := range trials {
		if err := mergeTrialLog(out, dir, k, t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mergeTrialLog reads trial t's .hlog (checksum verified) and merges it into
// out, its workload's histograms so far: the one rule by which compare reads
// a stored log and `results check` judges it. A trial without a log is no
// error.
func mergeTrialLog(out map[string]*hdrhistogram.Histogram, dir string, k Key, t Trial) error {
	if t.HlogFile == "" {
		return nil
	}
	b, err := readHlogAt(dir, k, t)
	if err != nil {
		return err
	}
	if err := mergeHlog(out, b); err != nil {
		return fmt.Errorf("trial %s in %s: %w", t.ID, k, err)
	}
	return nil
}

// mergeHlog adds every interval of one log into out, by tag, through
// loadgen's one reader of interval logs.
func mergeHlog(out map[string]*hdrhistogram.Histogram, log []byte) error {
	// A hostile geometry (1..2^62 at 5 digits would allocate tens of MiB per
	// interval) is the stored file's damage: refused here as ErrCorrupt,
	// before ReadHlog (which checks it too) decodes anything.
	if err := loadgen.CheckHlog(log); err != nil {
		return fmt.Errorf("%w: %w", err, ErrCorrupt)
	}
	if len(bytes.TrimSpace(log)) == 0 {
		return fmt.Errorf("an empty interval log (regress writes at least its header line): %w", ErrCorrupt)
	}
	intervals, err := loadgen.ReadHlog(bytes.NewReader(log))
	if err != nil {
		return err
	}
	if len(intervals) == 0 {
		// The reader passes over lines it does not know: a log of them
		// (binary, or another file) would read as one of no operations.
		if l := firstDataLine(log); l != "" {
			return fmt.Errorf("not an interval log: no interval could be read, and it holds %q: %w", clip(l), ErrCorrupt)
		}
	}
	return loadgen.MergeByTag(out, intervals)
}

// firstDataLine is the first line of an interval log that is neither blank,
// a comment nor the column legend: what should have been an interval.
func firstDataLine(log []byte) string {
	for _, l := range bytes.Split(log, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) > 0 && l[0] != '#' && !bytes.HasPrefix(l, []byte(`"StartTimestamp"`)) {
			return string(l)
		}
	}
	return ""
}

// WorkloadHistograms returns the merged interval histograms of m's trials
// and summaries per workload (see Histograms), read beside m's manifest (its
// Dir, else its place in the store); nil m gives none. A workload whose logs
// are missing or damaged is left out and named in err, one error per
// workload, so the caller can say which plots are lost and why.
func (s *Store) WorkloadHistograms(m *Manifest) (map[string]map[string]*hdrhistogram.Histogram, error) {
	out := map[string]map[string]*hdrhistogram.Histogram{}
	if m == nil {
		return out, nil
	}
	k := KeyOf(m)
	dir := m.Dir
	if dir == "" {
		dir = s.Dir(k)
	}
	groups := map[string][]Trial{}
	for _, t := range append(append([]Trial(nil), m.Trials...), m.Summaries...) {
		groups[t.Workload] = append(groups[t.Workload], t)
	}
	var errs []error
	for _, w := range slices.Sorted(maps.Keys(groups)) {
		hs, err := histogramsAt(dir, k, groups[w])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s workload %s: latency plots left out: %w", k, w, err))
			continue
		}
		out[w] = hs
	}
	return out, errors.Join(errs...)
}
