package results

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
)

// TrialHlog reads trial t's stored interval log beside m (its Dir, else its
// place in the store), its checksum verified.
func (s *Store) TrialHlog(m *Manifest, t Trial) ([]byte, error) {
	k := KeyOf(m)
	dir := m.Dir
	if dir == "" {
		dir = s.Dir(k)
	}
	return readHlogAt(dir, k, t)
}

// TrialIntended is trial t's intended-latency histogram of each operation
// it counted (t.Ops: failures, tagged READ-FAILED, are not an operation's
// latency), its interval log (beside m) read once and its intervals merged.
func (s *Store) TrialIntended(m *Manifest, t Trial) (map[string]*hdrhistogram.Histogram, error) {
	if t.HlogFile == "" {
		return nil, fmt.Errorf("trial %s stored no interval log", t.ID)
	}
	b, err := s.TrialHlog(m, t)
	if err != nil {
		return nil, err
	}
	intervals, err := loadgen.ReadHlog(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("trial %s: %w", t.ID, err)
	}
	byTag := map[string]*hdrhistogram.Histogram{}
	if err := loadgen.MergeByTag(byTag, intervals); err != nil {
		return nil, fmt.Errorf("trial %s: %w", t.ID, err)
	}
	out := map[string]*hdrhistogram.Histogram{}
	for op := range t.Ops {
		if h := byTag[loadgen.Tag(op, loadgen.Intended)]; h != nil {
			out[op] = h
		}
	}
	return out, nil
}

// TrialIntervals is trial t's intended latency by interval of its log
// (beside m): one histogram an interval, every operation merged, in start
// order; a histogram's StartTimeMs and EndTimeMs are its interval's edges.
func (s *Store) TrialIntervals(m *Manifest, t Trial) ([]*hdrhistogram.Histogram, error) {
	b, err := s.TrialHlog(m, t)
	if err != nil {
		return nil, err
	}
	hs, err := loadgen.ReadHlog(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	type edges struct{ start, end int64 }
	merged := map[edges]*hdrhistogram.Histogram{}
	var order []edges
	for _, h := range hs {
		if _, k, err := loadgen.ParseTag(h.Tag()); err != nil || k != loadgen.Intended {
			continue
		}
		e := edges{h.StartTimeMs(), h.EndTimeMs()}
		if m, ok := merged[e]; ok {
			m.Merge(h)
			continue
		}
		merged[e] = h
		order = append(order, e)
	}
	slices.SortFunc(order, func(a, b edges) int { return cmp.Compare(a.start, b.start) })
	out := make([]*hdrhistogram.Histogram, 0, len(order))
	for _, e := range order {
		out = append(out, merged[e])
	}
	return out, nil
}
