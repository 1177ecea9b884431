package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Status is one entry or stored sweep as `regress results check` sees it:
// usable, or damaged and why.
type Status struct {
	// Name is the entry as `regress results remove` takes it:
	// TARGET/SUITE-FINGERPRINT, or capacity/<run id> for a sweep.
	Name string
	Dir  string
	// Entry is set for a usable entry; Sweep for a usable sweep.
	Entry *Entry
	Sweep *SweepEntry
	// Err says why the entry is damaged (nil when it is usable).
	Err error
}

// Check verifies every entry of the store: its manifest (checksum, schema,
// the directory it lies in) and every .hlog it names (present, regular,
// checksum), then every stored sweep (checksum, or a readable plain sweep
// from before the checksum). Damaged entries are reported, never skipped;
// err is set only when the store itself cannot be read.
func (s *Store) Check() ([]Status, error) {
	good, bad, err := s.Scan()
	if err != nil {
		return nil, err
	}
	sweeps, badSweeps, err := s.Sweeps()
	if err != nil {
		return nil, err
	}
	bad = append(bad, badSweeps...)
	var out []Status
	for _, e := range good {
		st := Status{Name: e.Key.Target + "/" + filepath.Base(e.Dir), Dir: e.Dir}
		m, err := s.Load(e.Key)
		if err == nil {
			err = checkLogs(e.Dir, e.Key, m)
		}
		if err != nil {
			st.Err = err
		} else {
			st.Entry = &e
		}
		out = append(out, st)
	}
	for _, e := range sweeps {
		out = append(out, Status{Name: e.Name, Dir: e.Path, Sweep: &e})
	}
	for _, d := range bad {
		out = append(out, Status{Name: d.String(), Dir: d.Dir, Err: d.Err})
	}
	return out, nil
}

// checkLogs reads every .hlog a manifest names and verifies its checksum.
func checkLogs(dir string, k Key, m *Manifest) error {
	var errs []error
	for _, t := range append(append([]Trial(nil), m.Trials...), m.Summaries...) {
		if t.HlogFile == "" {
			continue
		}
		if _, err := readHlogAt(dir, k, t); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Remove deletes one entry, named TARGET/SUITE-FINGERPRINT as `regress
// results list` and `check` print it, damaged or not, or one stored sweep
// named capacity/<run id>. It holds the store
// lock, refuses anything that is not an entry directory of this store (a
// symbolic link included), and first renames the entry out of the way, so an
// interrupted removal never leaves a half entry that looks whole. It returns
// the directory removed.
func (s *Store) Remove(name string) (string, error) {
	target, entry, ok := strings.Cut(filepath.ToSlash(name), "/")
	if !ok || strings.Contains(entry, "/") {
		return "", fmt.Errorf("remove %q: name an entry as TARGET/SUITE-FINGERPRINT, as `regress results list` or `regress results check` prints it", name)
	}
	if err := checkName("target", target); err != nil {
		return "", fmt.Errorf("remove %q: %w", name, err)
	}
	if err := checkName("entry", entry); err != nil {
		return "", fmt.Errorf("remove %q: %w", name, err)
	}
	if fi, err := os.Lstat(filepath.Join(s.root, target)); err == nil && !fi.IsDir() {
		return "", fmt.Errorf("remove %q: %s is not a directory of this store (%s); remove it by hand if it should go", name, filepath.Join(s.root, target), fi.Mode().Type())
	}
	dir := filepath.Join(s.root, target, entry)
	fi, err := os.Lstat(dir)
	if target == sweepsDir && (errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode().IsRegular()) {
		return s.removeSweep(name, entry)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("remove %q: no such entry in %s (see `regress results list`): %w", name, s.root, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("remove %q: %w", name, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("remove %q: %s is not an entry directory (%s); remove it by hand if it should go", name, dir, fi.Mode().Type())
	}
	if _, err := os.Lstat(filepath.Join(dir, manifestFile)); err != nil {
		return "", fmt.Errorf("remove %q: %s holds no %s, so it is not a store entry; remove it by hand if it should go", name, dir, manifestFile)
	}
	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	trash := filepath.Join(s.root, fmt.Sprintf(".removing-%s-%s-%d", target, entry, time.Now().UnixNano()))
	if err := os.Rename(dir, trash); err != nil {
		return "", fmt.Errorf("remove %q: %w", name, err)
	}
	if err := os.RemoveAll(trash); err != nil {
		return "", fmt.Errorf("remove %q: the entry is gone from the store, but %s could not be deleted: %w", name, trash, err)
	}
	_ = os.Remove(filepath.Join(s.root, target)) // only when empty
	return dir, nil
}

// Pending is a summary to store, with its interval log (nil: none).
type Pending struct {
	Trial Trial
	Hlog  []byte
}

// AppendSummaries stores many imported summaries with one manifest write,
// so an import costs the same whatever its size. Summaries whose id is
// already stored (or repeated in ps) are skipped and returned in skipped, so
// importing the same output again stores nothing twice.
func (s *Store) AppendSummaries(k Key, ps []Pending) (stored, skipped []Trial, err error) {
	defer func() { err = s.diskFull(err) }()
	if err := k.validate(); err != nil {
		return nil, nil, err
	}
	for _, p := range ps {
		if err := checkName("trial id", p.Trial.ID); err != nil {
			return nil, nil, err
		}
	}
	unlock, err := s.lock()
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	m, err := s.Load(k)
	if err != nil {
		return nil, nil, fmt.Errorf("append summaries: %w (create the entry with Ensure first)", err)
	}
	have := map[string]bool{}
	for _, t := range append(append([]Trial{}, m.Trials...), m.Summaries...) {
		have[t.ID] = true
	}
	before, err := json.Marshal(append([]Trial{}, m.Summaries...))
	if err != nil {
		return nil, nil, fmt.Errorf("append summaries: %w", err)
	}
	var written []string
	committed := false
	defer func() {
		if !committed {
			for _, p := range written {
				_ = os.Remove(p)
			}
		}
	}()
	for _, p := range ps {
		t := p.Trial
		if have[t.ID] {
			skipped = append(skipped, t)
			continue
		}
		have[t.ID] = true
		t.HlogFile, t.HlogSHA256 = "", ""
		if p.Hlog != nil {
			rel := filepath.ToSlash(filepath.Join(trialsDir, t.ID+".hlog"))
			path := filepath.Join(s.Dir(k), filepath.FromSlash(rel))
			sum, err := writeAtomic(path, bytes.NewReader(p.Hlog))
			if err != nil {
				return nil, nil, fmt.Errorf("store hlog of summary %s: %w", t.ID, err)
			}
			written = append(written, path)
			t.HlogFile, t.HlogSHA256 = rel, sum
		}
		stored = append(stored, t)
	}
	if len(stored) == 0 {
		committed = true
		return nil, skipped, nil
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		return nil, nil, fmt.Errorf("append summaries to %s: %w; nothing was written", k, s.ctx.Err())
	}
	m.Summaries = append(m.Summaries, stored...)
	b, err := EncodeManifest(m)
	if err != nil {
		return nil, nil, err
	}
	again, err := DecodeManifest(b)
	if err != nil {
		return nil, nil, fmt.Errorf("append summaries to %s: re-reading the new manifest: %w", k, err)
	}
	after, err := json.Marshal(append([]Trial{}, again.Summaries[:len(again.Summaries)-len(stored)]...))
	if err != nil || !bytes.Equal(before, after) {
		return nil, nil, fmt.Errorf("append summaries to %s: stored summaries would change; refusing to write", k)
	}
	if _, err := writeAtomic(filepath.Join(s.Dir(k), manifestFile), bytes.NewReader(b)); err != nil {
		return nil, nil, fmt.Errorf("write manifest of %s: %w", k, err)
	}
	committed = true
	return stored, skipped, nil
}
