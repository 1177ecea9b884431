package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/inputfile"
)

// Status is one entry or stored sweep as `regress results check` sees it:
// usable, or damaged and why, or something left in the store that is no
// entry (Leftover).
type Status struct {
	// Name is the entry as `regress results remove` takes it:
	// TARGET/SUITE-FINGERPRINT, or capacity/<run id> for a sweep; for a
	// leftover, its path relative to the store.
	Name string
	Dir  string
	// Entry is set for a usable entry; Sweep for a usable sweep.
	Entry *Entry
	Sweep *SweepEntry
	// Err says why the entry is damaged, or what the leftover is and what to
	// do with it (nil when the entry is usable).
	Err error
	// Leftover marks what is no entry: an empty entry, an entry directory
	// without its manifest, an interrupted removal or write, a stray file,
	// directory or symbolic link.
	Leftover bool
}

// Check verifies every entry of the store: its manifest (checksum, schema,
// the directory it lies in), every .hlog it names (present, regular,
// checksum) and every profile it holds (folded stacks that parse, a
// description that parses and names a run of the entry), then every stored sweep (checksum, or a readable plain sweep
// from before the checksum), then finds what is left in the store that is no
// entry (see Status.Leftover). It holds the store's lock (shared) while it
// reads, so a removal or write in progress is never seen half done. Damaged
// entries are reported, never skipped; err is set only when the store
// itself cannot be read.
func (s *Store) Check() ([]Status, error) {
	unlock, err := s.readLock()
	if err != nil {
		return nil, err
	}
	defer unlock()
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
	entries := map[string]*Manifest{}
	for _, e := range good {
		st := Status{Name: e.Key.Target + "/" + filepath.Base(e.Dir), Dir: e.Dir}
		m, err := s.Load(e.Key)
		if err == nil {
			entries[e.Dir] = m
			err = errors.Join(checkLogs(e.Dir, e.Key, m), checkProfiles(e.Dir, m))
		}
		switch {
		case err != nil:
			st.Err = err
		case len(m.Trials) == 0 && len(m.Summaries) == 0:
			st.Leftover = true
			st.Err = fmt.Errorf("an empty entry: no trials and no summaries (left by an interrupted or failed run or import, or a run still measuring its first trial): remove it with `regress results remove %s`", st.Name)
		default:
			st.Entry = &e
		}
		out = append(out, st)
	}
	// One name, one version, whatever the suite: stores written before
	// Ensure checked across suites may hold a label with two. The rule is
	// labelVersions', which compare applies too (Resolve).
	byTarget := map[string][]*Manifest{}
	for _, st := range out {
		if m := entries[st.Dir]; m != nil {
			byTarget[KeyOf(m).Target] = append(byTarget[KeyOf(m).Target], m)
		}
	}
	for i, st := range out {
		if st.Entry == nil {
			continue
		}
		if err := labelVersions(entries[st.Dir], byTarget[st.Entry.Target]); err != nil {
			out[i].Entry, out[i].Err = nil, err
		}
	}
	for _, e := range sweeps {
		out = append(out, Status{Name: e.Name, Dir: e.Path, Sweep: &e})
	}
	for _, d := range bad {
		if errors.Is(d.Err, ErrLink) && isLink(d.Dir) {
			continue // a linked directory: a leftover, named below
		}
		entries[d.Dir] = nil
		out = append(out, Status{Name: d.String(), Dir: d.Dir, Err: d.Err})
	}
	return append(out, s.leftovers(entries)...), nil
}

// isLink reports whether path is a symbolic link.
func isLink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// isTemp reports whether name is a temporary file of an atomic write
// (atomicfile's ".NAME.tmp-*").
func isTemp(name string) bool { return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") }

// leftovers finds what lies in the store that is no entry, no sweep and no
// part of one. entries holds every entry directory Check saw, with its
// manifest when it is usable (nil when damaged).
func (s *Store) leftovers(entries map[string]*Manifest) []Status {
	var out []Status
	add := func(path, format string, args ...any) {
		rel, err := filepath.Rel(s.root, path)
		if err != nil {
			rel = path
		}
		out = append(out, Status{Name: filepath.ToSlash(rel), Dir: path, Leftover: true, Err: fmt.Errorf(format, args...)})
	}
	// stray says what a non-directory where a directory belongs is and what to do.
	stray := func(path string, mode fs.FileMode, belongs string) {
		if mode&fs.ModeSymlink != 0 {
			add(path, "%s", (&linkError{path: path, belongs: belongs}).words())
			return
		}
		add(path, "%s where %s belongs: move it out of the store", inputfile.Kind(mode), belongs)
	}
	temp := func(path string) {
		add(path, "a temporary file of a write that was interrupted: delete it (rm %s)", shellQuote(path))
	}
	top, err := os.ReadDir(s.root)
	if err != nil {
		return nil
	}
	for _, t := range top {
		name, path := t.Name(), filepath.Join(s.root, t.Name())
		switch {
		case name == lockFile && t.Type().IsRegular():
			continue
		case name == lockFile:
			// Writers cannot take the lock: every import and run fails.
			add(path, "%s where the store's lock file belongs: no run or import can lock the store while it is there; delete it (rm -rf %s) and regress makes the file again", inputfile.Kind(t.Type()), shellQuote(path))
			continue
		case strings.HasPrefix(name, ".removing-"):
			add(path, "left by a `regress results remove` that was interrupted (the entry was already out of the store): delete it (rm -rf %s)", shellQuote(path))
			continue
		case strings.HasPrefix(name, importingPrefix):
			add(path, "left by a `regress import-ycsb` that was interrupted before its new entry was renamed into place (nothing of it is in the store): delete it (rm -rf %s)", shellQuote(path))
			continue
		case isTemp(name):
			temp(path)
			continue
		case strings.HasPrefix(name, "."):
			continue // not regress's
		case !t.IsDir():
			stray(path, t.Type(), "a target directory")
			continue
		}
		dirs, err := os.ReadDir(path)
		if err != nil {
			continue // Scan reported it
		}
		for _, d := range dirs {
			dname, dpath := d.Name(), filepath.Join(path, d.Name())
			switch {
			case isTemp(dname):
				temp(dpath)
				continue
			case strings.HasPrefix(dname, "."):
				continue
			case name == sweepsDir && d.Type()&fs.ModeSymlink != 0:
				// Sweeps reports it damaged, and Check leaves links to
				// this pass: without this line no one named it.
				add(dpath, "%s", (&linkError{path: dpath, belongs: "a capacity sweep"}).words())
				continue
			case name == sweepsDir && !d.IsDir() && !strings.HasSuffix(dname, ".json"):
				add(dpath, "%s that is no capacity sweep (a sweep is RUN-ID.json): move it out of the store", inputfile.Kind(d.Type()))
				continue
			case name == sweepsDir && !d.IsDir():
				continue // a sweep: Sweeps read it
			case !d.IsDir():
				stray(dpath, d.Type(), "an entry directory")
				continue
			}
			m, isEntry := entries[dpath]
			if !isEntry {
				s.strayDir(dpath, add)
				continue
			}
			s.entryLeftovers(dpath, m, add, temp, stray)
		}
	}
	return out
}

// strayDir names a directory of a target that holds no manifest.json: one
// whose manifest was deleted beside its .hlog files, or a stray directory.
func (s *Store) strayDir(dir string, add func(path, format string, args ...any)) {
	logs, _ := filepath.Glob(filepath.Join(dir, trialsDir, "*.hlog"))
	if len(logs) > 0 {
		add(dir, "%s is missing beside %d .hlog files (deleted or lost?): restore it from a copy, or delete the directory (rm -rf %s); its trials cannot be read without it", manifestFile, len(logs), shellQuote(dir))
		return
	}
	add(dir, "a directory that is no store entry (it holds no %s): move it out of the store, or delete it (rm -rf %s)", manifestFile, shellQuote(dir))
}

// entryLeftovers names what lies in an entry directory beside its manifest,
// the .hlog files it names and its profiles (m nil: a damaged entry, whose
// logs are not known).
func (s *Store) entryLeftovers(dir string, m *Manifest, add func(path, format string, args ...any), temp func(string), stray func(string, fs.FileMode, string)) {
	named := map[string]bool{}
	if m != nil {
		for _, t := range append(append([]Trial(nil), m.Trials...), m.Summaries...) {
			if t.HlogFile != "" {
				named[filepath.Join(dir, filepath.FromSlash(t.HlogFile))] = true
			}
		}
	}
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		path := filepath.Join(dir, f.Name())
		switch {
		case f.Name() == manifestFile:
		case isTemp(f.Name()):
			temp(path)
		case strings.HasPrefix(f.Name(), "."):
			// not regress's, as in the store's root
		case f.Name() == trialsDir && f.IsDir():
			logs, _ := os.ReadDir(path)
			for _, l := range logs {
				lpath := filepath.Join(path, l.Name())
				switch {
				case isTemp(l.Name()):
					temp(lpath)
				case m != nil && !named[lpath] && l.Type().IsRegular():
					add(lpath, "a file the manifest does not name (left by a write that failed before its manifest): delete it (rm %s)", shellQuote(lpath))
				case m != nil && !named[lpath]:
					add(lpath, "%s in trials/, which holds only the .hlog files the manifest names: move it out of the store", inputfile.Kind(l.Type()))
				}
			}
		case f.Name() == ProfilesDir && f.IsDir():
			profileLeftovers(path, m, add, temp)
		case f.Type()&fs.ModeSymlink != 0 && (f.Name() == trialsDir || f.Name() == ProfilesDir):
			stray(path, f.Type(), belongsAt([]string{f.Name()}, 0))
		case f.Type()&fs.ModeSymlink != 0 || !f.IsDir() && !f.Type().IsRegular():
			stray(path, f.Type(), "nothing")
		default:
			add(path, "%s that is no part of a store entry (an entry holds %s, %s/ and %s/): move it out of the store", inputfile.Kind(f.Type()), manifestFile, trialsDir, ProfilesDir)
		}
	}
}

// RemoveIfEmpty removes k's entry when it holds no trials and no summaries:
// what a failed or refused import leaves after Ensure created the entry.
// It takes the store's lock; an entry with anything in it is kept.
func (s *Store) RemoveIfEmpty(k Key) error {
	if err := k.validate(); err != nil {
		return err
	}
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	m, err := s.Load(k)
	if err != nil || len(m.Trials) > 0 || len(m.Summaries) > 0 {
		return nil
	}
	dir := s.Dir(k)
	trash := filepath.Join(s.root, fmt.Sprintf(".removing-%s-%s-%d", k.Target, filepath.Base(dir), time.Now().UnixNano()))
	if err := os.Rename(dir, trash); err != nil {
		return fmt.Errorf("remove the empty entry %s: %w", k, err)
	}
	if err := os.RemoveAll(trash); err != nil {
		return fmt.Errorf("remove the empty entry %s: %s could not be deleted: %w", k, trash, err)
	}
	_ = os.Remove(filepath.Dir(dir)) // only when empty
	return nil
}

// checkLogs reads every .hlog a manifest names as compare reads them
// (WorkloadHistograms): its checksum verified, then decoded and merged into
// its workload's histograms in the manifest's order (mergeTrialLog). A log
// compare would leave out as corrupted (a histogram geometry beyond
// loadgen's bounds, such as 1..2^40 at 5 digits; an interval that does not
// decode; values beyond the range of the workload's other logs) is damage
// here too, each one named.
func checkLogs(dir string, k Key, m *Manifest) error {
	var errs []error
	merged := map[string]map[string]*hdrhistogram.Histogram{}
	for _, t := range append(append([]Trial(nil), m.Trials...), m.Summaries...) {
		if merged[t.Workload] == nil {
			merged[t.Workload] = map[string]*hdrhistogram.Histogram{}
		}
		if err := mergeTrialLog(merged[t.Workload], dir, k, t); err != nil {
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
	if err := s.noLinkIn(target, entry); err != nil {
		return "", fmt.Errorf("remove %q: %w", name, err)
	}
	if fi, err := os.Lstat(filepath.Join(s.root, target)); err == nil && !fi.IsDir() {
		return "", fmt.Errorf("remove %q: %s is %s, not a directory of this store; remove it by hand if it should go", name, filepath.Join(s.root, target), inputfile.Kind(fi.Mode()))
	}
	dir := filepath.Join(s.root, target, entry)
	stored := dir
	if target == sweepsDir {
		stored = filepath.Join(s.root, sweepsDir, strings.TrimSuffix(entry, ".json")+".json")
	}
	if pathAndStored(name, dir) || pathAndStored(name, stored) {
		// A copy of the entry here (a backup, another store) and the
		// store's own: a remove meant for the one seen here would delete the
		// other, for good.
		return "", fmt.Errorf("remove %q: it names both %s here and %s in the store %s: to remove the store's, run the command from a folder without ./%s; a folder that is no entry of that store is removed with rm: %w", name, pathKind(name), stored, s.root, name, ErrAmbiguous)
	}
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
		return "", fmt.Errorf("remove %q: %s is %s, not an entry directory; remove it by hand if it should go", name, dir, inputfile.Kind(fi.Mode()))
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

// removeStaleImports deletes the folders of imports that died before
// renaming their entry into place (killed, or ended by a second signal):
// called with the store's lock held, when no other import can be writing
// one, so every folder found is stale.
func (s *Store) removeStaleImports() {
	stale, _ := filepath.Glob(filepath.Join(s.root, importingPrefix+"*"))
	for _, d := range stale {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			slog.Info("results: removing the folder of an import that was interrupted", "path", d)
			_ = os.RemoveAll(d)
		}
	}
}

// importingPrefix names the folder a new entry of an import is written in
// before it is renamed into place.
const importingPrefix = ".importing-"

// ImportSummaries stores imported summaries under m's key with one write: to
// the entry when it exists (as AppendSummaries; m must agree on its
// version), else as a new entry written whole in a folder beside the
// targets and renamed into place, so an import interrupted at any point,
// even killed, leaves no entry, empty or half written. It returns the entry
// as stored and the summaries stored and skipped (already stored).
func (s *Store) ImportSummaries(m *Manifest, ps []Pending) (entry *Manifest, stored, skipped []Trial, err error) {
	defer func() { err = s.diskFull(err) }()
	k := KeyOf(m)
	if err := k.validate(); err != nil {
		return nil, nil, nil, err
	}
	for _, p := range ps {
		if err := checkName("trial id", p.Trial.ID); err != nil {
			return nil, nil, nil, err
		}
	}
	unlock, err := s.lock()
	if err != nil {
		return nil, nil, nil, err
	}
	defer unlock()
	s.removeStaleImports()
	existing, err := s.Load(k)
	if err == nil {
		if existing.Version != "" && m.Version != "" && existing.Version != m.Version {
			return nil, nil, nil, fmt.Errorf("%w: %s holds results of HBase %s, not %s: a label names one version; store these under a label of their own, or, if the stored ones are under the wrong name, remove them with `regress results remove %s` and store them again", ErrVersionsDiffer, k, existing.Version, m.Version, k)
		}
		stored, skipped, err := s.appendSummariesLocked(k, existing, ps)
		return existing, stored, skipped, err
	}
	if !errors.Is(err, ErrNotFound) {
		return nil, nil, nil, err
	}
	if other, v := s.otherVersion(k.Target, m.Version); other != "" {
		return nil, nil, nil, fmt.Errorf("%w: %s holds results of HBase %s (in %s), not %s: a label names one version, whatever the suite; store these under a label of their own, or, if the stored ones are under the wrong name, remove them with `regress results remove %s` and store them again", ErrVersionsDiffer, k.Target, v, other, m.Version, other)
	}
	fresh := *m
	fresh.Schema = SchemaVersion
	fresh.Trials = []Trial{}
	fresh.Summaries = nil
	tmp, err := os.MkdirTemp(s.root, importingPrefix+k.Target+"-*")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("create store entry %s: %w", k, err)
	}
	committed := false
	defer func() {
		if !committed {
			_ = os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, nil, nil, fmt.Errorf("create store entry %s: %w", k, err)
	}
	// The folder goes whole if the import fails, so the hlogs written need no list.
	stored, skipped, _, err = s.storePending(tmp, ps, map[string]bool{})
	if err != nil {
		return nil, nil, nil, err
	}
	if len(stored) == 0 {
		return nil, nil, skipped, fmt.Errorf("import into %s: nothing to store", k)
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		return nil, nil, nil, fmt.Errorf("import into %s: %w; nothing was written", k, s.ctx.Err())
	}
	if err := os.MkdirAll(filepath.Join(tmp, trialsDir), 0o755); err != nil {
		return nil, nil, nil, fmt.Errorf("create store entry %s: %w", k, err)
	}
	fresh.Summaries = stored
	b, err := EncodeManifest(&fresh)
	if err != nil {
		return nil, nil, nil, err
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		// Encoding thousands of summaries takes a while: no write after a signal.
		return nil, nil, nil, fmt.Errorf("import into %s: %w; nothing was written", k, s.ctx.Err())
	}
	if _, err := writeAtomic(filepath.Join(tmp, manifestFile), bytes.NewReader(b)); err != nil {
		return nil, nil, nil, fmt.Errorf("write manifest of %s: %w", k, err)
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		return nil, nil, nil, fmt.Errorf("import into %s: %w; nothing was written", k, s.ctx.Err())
	}
	dir := s.Dir(k)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, nil, nil, fmt.Errorf("create store entry %s: %w", k, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, nil, nil, fmt.Errorf("create store entry %s: rename %s into place: %w", k, tmp, err)
	}
	committed = true
	if d, err := os.Open(filepath.Dir(dir)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	fresh.Dir = dir
	return &fresh, stored, skipped, nil
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
	return s.appendSummariesLocked(k, m, ps)
}

// appendSummariesLocked is AppendSummaries once the lock is held and k's
// manifest m is read.
func (s *Store) appendSummariesLocked(k Key, m *Manifest, ps []Pending) (stored, skipped []Trial, err error) {
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
	if err := s.noLinkTo(k, trialsDir); err != nil {
		return nil, nil, fmt.Errorf("append summaries to %s: %w", k, err)
	}
	stored, skipped, written, err = s.storePending(s.Dir(k), ps, have)
	if err != nil {
		return nil, nil, err
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

// storePending is the import of ps into the entry folder dir, shared by a
// new entry (ImportSummaries, dir its folder beside the targets) and an
// existing one (appendSummariesLocked): each summary whose id have holds,
// or that ps repeats, is skipped; every other is added to have, its hlog
// (if any) written to dir's trials/<id>.hlog and the trial, pointing at
// it, returned in stored. written are the hlog paths written, returned
// on an error too, for a caller that keeps dir to remove them.
func (s *Store) storePending(dir string, ps []Pending, have map[string]bool) (stored, skipped []Trial, written []string, err error) {
	for _, p := range ps {
		// An interrupted import stops between logs, so its caller removes
		// what it wrote within the grace a signal gives (a thousand logs
		// took longer, and the process ended with its folder left).
		if s.ctx != nil && s.ctx.Err() != nil {
			return nil, nil, written, fmt.Errorf("store summaries: %w; nothing was written", s.ctx.Err())
		}
		t := p.Trial
		if have[t.ID] {
			skipped = append(skipped, t)
			continue
		}
		have[t.ID] = true
		t.HlogFile, t.HlogSHA256 = "", ""
		if p.Hlog != nil {
			rel := filepath.ToSlash(filepath.Join(trialsDir, t.ID+".hlog"))
			path := filepath.Join(dir, filepath.FromSlash(rel))
			sum, err := writeAtomic(path, bytes.NewReader(p.Hlog))
			if err != nil {
				return nil, nil, written, fmt.Errorf("store hlog of summary %s: %w", t.ID, err)
			}
			written = append(written, path)
			t.HlogFile, t.HlogSHA256 = rel, sum
		}
		stored = append(stored, t)
	}
	return stored, skipped, written, nil
}
