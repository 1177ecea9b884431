package results

import (
	"github.com/regress-hbase/regress/harness/inputfile"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Rate sweeps (`regress capacity`) are stored beside the trials, one file a
// run: <root>/capacity/<run id>.json, a checksummed envelope around the
// sweep's JSON. The store reads only the sweep's head (SweepHead); what a
// sweep holds is the capacity package's.
const (
	sweepsDir   = "capacity"
	sweepFormat = "regress-capacity-sweep"
)

// SweepHead is what the store reads of every sweep: its sides and its run.
// The JSON names are the sweep's own (capacity.Sweep writes them).
type SweepHead struct {
	Baseline  string `json:"baseline"`
	Candidate string `json:"candidate"`
	Suite     string `json:"suite,omitempty"`
	RunID     string `json:"run_id,omitempty"`
}

// SweepEntry is one stored sweep, as Sweeps and Check see it.
type SweepEntry struct {
	SweepHead
	// Name is the sweep as `regress results remove` takes it: capacity/<run id>.
	Name string
	Path string
	// Legacy says the file is a plain sweep without a checksum, as regress
	// wrote them before sweeps went through the store; it is read as it is.
	Legacy  bool
	Updated time.Time
}

// sweepEnvelope is the on-disk form: the sweep plus the SHA-256 of its compact JSON.
type sweepEnvelope struct {
	Format string          `json:"format"`
	SHA256 string          `json:"sha256"`
	Sweep  json.RawMessage `json:"sweep"`
}

// SweepPath is the file a sweep of run runID is stored in.
func (s *Store) SweepPath(runID string) (string, error) {
	if err := checkName("run id", runID); err != nil {
		return "", err
	}
	return filepath.Join(s.root, sweepsDir, runID+".json"), nil
}

// PutSweep stores the JSON body of run runID's sweep under the store lock,
// atomically (a crash leaves the old file or the new one), in a checksummed
// envelope, and returns the path written. A sweep is stored again as it
// grows; the last write wins.
func (s *Store) PutSweep(runID string, body []byte) (_ string, err error) {
	defer func() { err = s.diskFull(err) }()
	path, err := s.SweepPath(runID)
	if err != nil {
		return "", err
	}
	compact, sum, err := compactSum(body)
	if err != nil {
		return "", fmt.Errorf("store sweep %s: the sweep is not JSON: %w", runID, err)
	}
	if _, err := sweepHead(compact); err != nil {
		return "", fmt.Errorf("store sweep %s: %w", runID, err)
	}
	out, err := json.MarshalIndent(sweepEnvelope{Format: sweepFormat, SHA256: sum, Sweep: compact}, "", "  ")
	if err != nil {
		return "", fmt.Errorf("store sweep %s: %w", runID, err)
	}
	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := s.noLinkIn(sweepsDir); err != nil {
		return "", fmt.Errorf("store sweep %s: %w", runID, err)
	}
	if _, err := writeAtomic(path, bytes.NewReader(append(out, '\n'))); err != nil {
		return "", fmt.Errorf("store sweep %s: %w", runID, err)
	}
	return path, nil
}

// sweepHead reads the head of a sweep's JSON; a JSON object without the
// sides and searches of a sweep is not one.
func sweepHead(body []byte) (SweepHead, error) {
	var head struct {
		SweepHead
		Searches json.RawMessage `json:"searches"`
	}
	if err := json.Unmarshal(body, &head); err != nil || head.Baseline == "" || head.Candidate == "" || len(head.Searches) == 0 {
		if err == nil {
			err = errors.New("no baseline, candidate or searches")
		}
		return SweepHead{}, fmt.Errorf("not a capacity sweep (written by regress capacity): %v: %w", err, ErrCorrupt)
	}
	return head.SweepHead, nil
}

// ReadSweepFile reads and verifies one stored sweep and returns its entry
// and the sweep's JSON. A sweep in an envelope must match its checksum; a
// plain sweep (written before the envelope) is read as it is. A missing file
// wraps ErrNotFound; a damaged one ErrCorrupt.
func ReadSweepFile(path string) (SweepEntry, []byte, error) {
	b, err := readRegular(path, MaxSweepBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return SweepEntry{}, nil, fmt.Errorf("%s: %w", path, ErrNotFound)
	}
	if err != nil {
		return SweepEntry{}, nil, fmt.Errorf("read sweep %s: %w", path, err)
	}
	e := SweepEntry{Path: path, Name: sweepsDir + "/" + strings.TrimSuffix(filepath.Base(path), ".json")}
	if fi, err := os.Stat(path); err == nil {
		e.Updated = fi.ModTime().UTC()
	}
	var env sweepEnvelope
	if err := json.Unmarshal(b, &env); err != nil {
		return e, nil, fmt.Errorf("%s is not a capacity sweep (written by regress capacity): %v: %w", path, err, ErrCorrupt)
	}
	body := b
	if env.Format == "" {
		e.Legacy = true
	} else {
		if env.Format != sweepFormat {
			return e, nil, fmt.Errorf("%s is not a capacity sweep (format %q, want %q): %w", path, env.Format, sweepFormat, ErrCorrupt)
		}
		compact, sum, err := compactSum(env.Sweep)
		if err != nil {
			return e, nil, fmt.Errorf("%s: the sweep is not JSON: %w", path, ErrCorrupt)
		}
		if sum != strings.ToLower(env.SHA256) {
			return e, nil, fmt.Errorf("%s: sweep checksum mismatch (the file was edited or damaged): %w; restore it from a copy or remove it with `regress results remove %s`", path, ErrCorrupt, e.Name)
		}
		body = compact
	}
	head, err := sweepHead(body)
	if err != nil {
		return e, nil, fmt.Errorf("%s: %w", path, err)
	}
	e.SweepHead = head
	return e, body, nil
}

// ReadSweep finds the sweep a user named, a file or a run id stored here,
// and returns its JSON and the file it came from.
func (s *Store) ReadSweep(ref string) ([]byte, string, error) {
	if p := filepath.Join(s.root, sweepsDir, ref+".json"); checkName("run id", ref) == nil {
		if err := ambiguous(ref, p, "a capacity sweep stored in "+s.root, p); err != nil {
			return nil, "", err
		}
	}
	path := ref
	if _, err := os.Stat(ref); err != nil && checkName("run id", ref) == nil {
		path = filepath.Join(s.root, sweepsDir, ref+".json")
		if err := s.noLinkIn(sweepsDir, ref+".json"); err != nil {
			return nil, "", err
		}
	}
	_, body, err := ReadSweepFile(path)
	if errors.Is(err, ErrNotFound) {
		return nil, "", fmt.Errorf("no capacity sweep %q: neither a file nor a run id stored in %s (see `regress results list`): %w", ref, filepath.Join(s.root, sweepsDir), ErrNotFound)
	}
	return body, path, err
}

// Sweeps returns every usable stored sweep, by run id, and every damaged
// one; err is set only when the sweeps' directory cannot be read.
func (s *Store) Sweeps() ([]SweepEntry, []Damaged, error) {
	dir := filepath.Join(s.root, sweepsDir)
	if err := s.noLinkIn(sweepsDir); err != nil {
		return nil, []Damaged{{Dir: dir, Target: sweepsDir, Err: err}}, nil
	}
	files, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("list the sweeps of results store %s: %w", s.root, err)
	}
	var good []SweepEntry
	var bad []Damaged
	for _, f := range files {
		name, ok := strings.CutSuffix(f.Name(), ".json")
		if f.IsDir() || !ok || strings.HasPrefix(name, ".") {
			continue // an entry directory of a target named capacity, or not a sweep
		}
		path := filepath.Join(dir, f.Name())
		if testHookScan != nil {
			testHookScan(path)
		}
		e, _, err := ReadSweepFile(path)
		if err == nil {
			err = s.noLinkIn(sweepsDir, f.Name())
		}
		if err != nil {
			if vanished(path) {
				continue // removed since the directory was listed: gone, not damaged
			}
			bad = append(bad, Damaged{Dir: filepath.Join(dir, f.Name()), Target: sweepsDir, Name: name, Err: err})
			continue
		}
		good = append(good, e)
	}
	sort.Slice(good, func(i, j int) bool { return good[i].Name < good[j].Name })
	return good, bad, nil
}

// removeSweep deletes one stored sweep, named capacity/<run id>.
func (s *Store) removeSweep(name, runID string) (string, error) {
	path := filepath.Join(s.root, sweepsDir, strings.TrimSuffix(runID, ".json")+".json")
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("remove %q: no such entry or sweep in %s (see `regress results list`): %w", name, s.root, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("remove %q: %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("remove %q: %s is %s, not a sweep file; remove it by hand if it should go", name, path, inputfile.Kind(fi.Mode()))
	}
	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := os.Remove(path); err != nil {
		return "", fmt.Errorf("remove %q: %w", name, err)
	}
	return path, nil
}
