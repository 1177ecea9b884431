package results

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/inputfile"
	"github.com/regress-hbase/regress/harness/version"
)

// DefaultRoot is the store directory used when --store is not given.
const DefaultRoot = "baselines"

// manifestFile is the name of each entry's manifest; trialsDir holds its .hlog files.
const (
	manifestFile = "manifest.json"
	trialsDir    = "trials"
	lockFile     = ".lock"
	// envelopeFormat names the file format so a stray JSON file is not taken for a manifest.
	envelopeFormat = "regress-manifest"
)

// ErrNotFound is returned (wrapped) when no manifest is stored for a key.
var ErrNotFound = errors.New("no stored results")

// ErrCorrupt is returned (wrapped) when a stored file fails its checksum or does not parse.
var ErrCorrupt = errors.New("stored results are corrupted")

// ErrSchema is returned (wrapped) when a manifest was written by an unknown schema version.
var ErrSchema = errors.New("unknown manifest schema")

// ErrJarsDiffer marks a store target whose stored trials ran other HBase jars.
var ErrJarsDiffer = errors.New("stored results ran other HBase jars")

// ErrVersionsDiffer marks a store target (a label) whose stored results are of another HBase version.
var ErrVersionsDiffer = errors.New("stored results are of another HBase version")

// Store is a results directory: <root>/<target>/<suite>-<fingerprint[:12]>/manifest.json
// beside trials/<trial-id>.hlog. One process writes at a time: every write holds
// an exclusive lock on <root>/.lock.
type Store struct {
	root string
	// ctx bounds waits for the store lock (WithContext); nil waits until the lock frees.
	ctx context.Context
}

// Key names one stored entry: a target (HBase version or label), a suite and its fingerprint.
type Key struct {
	Target      string
	Suite       string
	Fingerprint string
}

// String renders the key as the path fragment it is stored under.
func (k Key) String() string { return k.Target + "/" + k.Suite + "-" + shortFP(k.Fingerprint) }

// KeyOf returns the key a manifest is stored under: its side's store name (StoreName) and suite.
func KeyOf(m *Manifest) Key {
	return Key{Target: m.StoreName(), Suite: m.Suite.Name, Fingerprint: m.Suite.Fingerprint}
}

// Entry describes one stored manifest, as listed by List and Find.
type Entry struct {
	Key
	Dir       string    // directory holding manifest.json
	Version   string    // the HBase version its trials ran
	Naming    SideName  // how its side was named (Manifest.Name)
	Source    string    // "regress" or "ycsb-import"
	Trials    int       // measured trials
	Summaries int       // imported summaries
	Updated   time.Time // last write of manifest.json
}

// Open opens (creating if needed) the store rooted at root.
func Open(root string) (*Store, error) {
	if root == "" {
		root = DefaultRoot
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("open results store %s: %w (check the --store directory is writable)", root, err)
	}
	return &Store{root: root}, nil
}

// OpenReadOnly opens the store rooted at root for reading: a missing
// directory is an empty store and is not created.
func OpenReadOnly(root string) (*Store, error) {
	if root == "" {
		root = DefaultRoot
	}
	fi, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("open results store %s: %w (check the --store directory)", root, err)
	case !fi.IsDir():
		return nil, fmt.Errorf("open results store %s: not a directory (give --store a directory)", root)
	}
	return &Store{root: root}, nil
}

// WithContext returns a copy of s whose waits for the store lock end when
// ctx does (an interrupted command then writes nothing).
func (s *Store) WithContext(ctx context.Context) *Store {
	c := *s
	c.ctx = ctx
	return &c
}

// Root returns the directory the store is rooted at.
func (s *Store) Root() string { return s.root }

// safeName accepts names that are one path element and cannot climb out of the store.
var safeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// MaxNameLen bounds a version, label, suite name or trial id: each names a
// directory or file (an entry's is the suite name and 13 more bytes), and a
// file system takes 255 bytes a name at most.
const MaxNameLen = 128

func checkName(what, v string) error {
	if !safeName.MatchString(v) || strings.Contains(v, "..") {
		return fmt.Errorf("%s %q cannot name a store directory: use letters, digits, '.', '_', '+' and '-' only", what, v)
	}
	if len(v) > MaxNameLen {
		return fmt.Errorf("%s %q... is %d bytes long: it names a store directory, which takes at most %d; choose a shorter name", what, v[:32], len(v), MaxNameLen)
	}
	return nil
}

// ValidateTarget checks that a version or label can name a store entry, so a
// command can refuse it before any work is done.
func ValidateTarget(name string) error { return checkName("target (version or label)", name) }

// ValidateLabel checks a label given to name the results of HBase release
// (release "" when not known before the run: a running cluster, a home):
// it must name a store entry, and must not pass for a name the store gives
// itself, where its results would be read as others' (the store's sweeps
// folder; a '+', which joins a version and its settings, region servers,
// jars or A/A side in the names regress makes; another release's version).
func ValidateLabel(label, release string) error {
	if err := checkName("label", label); err != nil {
		return err
	}
	switch {
	case label == sweepsDir:
		return fmt.Errorf("label %q names the folder the store keeps capacity sweeps in: choose another label", label)
	case strings.Contains(label, "+"):
		return fmt.Errorf("label %q holds a '+', which regress uses to name a side by its settings, region servers, jars or A/A side (2.6.1+conf-0a1b2c3d, +rs3, +jars-..., +baseline): choose a label without one, e.g. rc1-2.6.1 or %s", label, strings.ReplaceAll(label, "+", "-"))
	case release != "" && releaseNumber(label) != "" && releaseNumber(release) != "" && releaseNumber(label) != releaseNumber(release):
		return fmt.Errorf("label %q reads as HBase %s, but these are results of %s: they would be taken for %s's; choose a label that names no other release, e.g. %s-mine", label, releaseNumber(label), release, releaseNumber(label), release)
	}
	return nil
}

// releaseNumber is the major.minor.patch a name starts with ("2.6.1" of
// 2.6.1-rc1), or "".
func releaseNumber(name string) string {
	if version.ValidateRelease(name) != nil {
		return ""
	}
	return releaseNumberRE.FindString(name)
}

var releaseNumberRE = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+`)

func (k Key) validate() error {
	if err := checkName("target (version or label)", k.Target); err != nil {
		return err
	}
	if err := checkName("suite name", k.Suite); err != nil {
		return err
	}
	return checkName("suite fingerprint", k.Fingerprint)
}

func shortFP(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

// Dir returns the directory an entry is stored in.
func (s *Store) Dir(k Key) string {
	return filepath.Join(s.root, k.Target, k.Suite+"-"+shortFP(k.Fingerprint))
}

// Load reads and verifies the manifest stored for k. A missing entry wraps
// ErrNotFound; a damaged one wraps ErrCorrupt; a newer schema wraps ErrSchema.
func (s *Store) Load(k Key) (*Manifest, error) {
	if err := k.validate(); err != nil {
		return nil, err
	}
	if err := s.noLinkTo(k, manifestFile); err != nil {
		return nil, fmt.Errorf("%s: %w", k, err)
	}
	return ReadManifestFile(filepath.Join(s.Dir(k), manifestFile))
}

// ReadManifestFile reads and verifies one manifest.json.
func ReadManifestFile(path string) (*Manifest, error) {
	b, err := readRegular(path, MaxManifestBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", path, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read manifest %s: %w", path, err)
	}
	m, err := DecodeManifest(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.Dir = filepath.Dir(path)
	return m, nil
}

// Size bounds of the store's files, checked before a file is read (and
// before a manifest is written): a file beyond them was not written by
// regress, and reading it would cost its size in memory and more.
const (
	// MaxManifestBytes bounds a manifest.json (a trial or summary takes 0.5
	// to 2 KiB of it: 36,000 imported runs take about 50 MiB).
	MaxManifestBytes = 256 << 20
	// MaxHlogBytes bounds one trial's or summary's .hlog.
	MaxHlogBytes = 256 << 20
	// MaxSweepBytes bounds a stored capacity sweep.
	MaxSweepBytes = 64 << 20
)

// readRegular reads a stored file that must be a regular file of at most
// limit bytes. It opens without blocking, so a FIFO or device put in the
// store's place is refused at once instead of hanging the reader, and
// refuses a file beyond limit before reading it.
func readRegular(path string, limit int64) ([]byte, error) {
	b, err := inputfile.ReadFile(path, limit)
	if errors.Is(err, inputfile.ErrNotRegular) || errors.Is(err, inputfile.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %w; remove it", err, ErrCorrupt)
	}
	return b, err
}

// Ensure returns the manifest stored under m's key, creating it from m (with
// no trials) when absent. An existing manifest keeps its own metadata; m only
// has to agree on the key.
func (s *Store) Ensure(m *Manifest) (_ *Manifest, err error) {
	defer func() { err = s.diskFull(err) }()
	k := KeyOf(m)
	if err := k.validate(); err != nil {
		return nil, err
	}
	unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	existing, err := s.Load(k)
	if err == nil {
		// One name, one version: results of two versions under one label
		// would be compared as one build.
		if existing.Version != "" && m.Version != "" && existing.Version != m.Version {
			return nil, fmt.Errorf("%w: %s holds results of HBase %s, not %s: a label names one version; store these under a label of their own, or, if the stored ones are under the wrong name, remove them with `regress results remove %s` and store them again", ErrVersionsDiffer, k, existing.Version, m.Version, k)
		}
		if len(existing.JarChecksums) > 0 && len(m.JarChecksums) > 0 && !maps.Equal(existing.JarChecksums, m.JarChecksums) {
			return nil, fmt.Errorf("%w: %s holds trials of other HBase jars than the ones running now (an earlier RC under the same label?): give this one its own label", ErrJarsDiffer, k)
		}
		// The suite travels with the entry: this run's, when it carries
		// one the entry does not hold yet (tolerances and pairs are no
		// part of the fingerprint, so they may have changed).
		if m.Suite.Carried() && !sameSuite(existing.Suite, m.Suite) {
			existing.Suite.Text, existing.Suite.Files, existing.Suite.Overrides = m.Suite.Text, m.Suite.Files, m.Suite.Overrides
			if err := s.writeManifest(k, existing); err != nil {
				return nil, err
			}
		}
		return existing, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	// A new entry of a name used before, under another suite or an edited
	// one: the name must still hold one version (the key check above sees
	// only this suite's entry).
	if other, v := s.otherVersion(k.Target, m.Version); other != "" {
		return nil, fmt.Errorf("%w: %s holds results of HBase %s (in %s), not %s: a label names one version, whatever the suite; store these under a label of their own, or, if the stored ones are under the wrong name, remove them with `regress results remove %s` and store them again", ErrVersionsDiffer, k.Target, v, other, m.Version, other)
	}
	fresh := *m
	fresh.Schema = SchemaVersion
	fresh.Trials = []Trial{}
	fresh.Summaries = nil
	if fresh.Source == "" {
		fresh.Source = "regress"
	}
	if err := os.MkdirAll(filepath.Join(s.Dir(k), trialsDir), 0o755); err != nil {
		return nil, fmt.Errorf("create store entry %s: %w", k, err)
	}
	if err := s.writeManifest(k, &fresh); err != nil {
		return nil, err
	}
	return &fresh, nil
}

// sameSuite says whether a and b carry one suite: its text, files and
// the command line's changes.
func sameSuite(a, b SuiteInfo) bool {
	return a.Text == b.Text && maps.Equal(a.Files, b.Files) && slices.Equal(a.Overrides, b.Overrides)
}

// AppendTrial adds a measured trial to k's manifest and stores its .hlog (read
// from hlog; nil stores none). Stored trials are never rewritten: a trial
// with an ID already present is refused.
func (s *Store) AppendTrial(k Key, t Trial, hlog io.Reader) (Trial, error) {
	return s.appendTo(k, t, hlog, false)
}

// AppendTrialFile is AppendTrial with the .hlog read from a file path.
func (s *Store) AppendTrialFile(k Key, t Trial, hlogPath string) (Trial, error) {
	f, err := os.Open(hlogPath)
	if err != nil {
		return Trial{}, fmt.Errorf("store trial %s: open hlog: %w", t.ID, err)
	}
	defer f.Close()
	return s.appendTo(k, t, f, false)
}

// AppendSummary adds an imported summary (no significance possible) to k's
// manifest, with an optional .hlog, under the same append-only rules.
func (s *Store) AppendSummary(k Key, t Trial, hlog io.Reader) (Trial, error) {
	return s.appendTo(k, t, hlog, true)
}

func (s *Store) appendTo(k Key, t Trial, hlog io.Reader, summary bool) (_ Trial, err error) {
	defer func() { err = s.diskFull(err) }()
	if err := k.validate(); err != nil {
		return Trial{}, err
	}
	if err := checkName("trial id", t.ID); err != nil {
		return Trial{}, err
	}
	unlock, err := s.lock()
	if err != nil {
		return Trial{}, err
	}
	defer unlock()
	m, err := s.Load(k)
	if err != nil {
		return Trial{}, fmt.Errorf("append trial %s: %w (create the entry with Ensure first)", t.ID, err)
	}
	for _, have := range append(append([]Trial{}, m.Trials...), m.Summaries...) {
		if have.ID == t.ID {
			return Trial{}, fmt.Errorf("append trial %s to %s: a trial with that id is already stored; stored trials are never replaced", t.ID, k)
		}
	}
	before, err := json.Marshal(append([]Trial{}, storedList(m, summary)...))
	if err != nil {
		return Trial{}, fmt.Errorf("append trial %s: %w", t.ID, err)
	}
	t.HlogFile, t.HlogSHA256 = "", ""
	var hlogPath string
	if hlog != nil {
		if err := s.noLinkTo(k, trialsDir); err != nil {
			return Trial{}, fmt.Errorf("store hlog of trial %s: %w", t.ID, err)
		}
		rel := filepath.ToSlash(filepath.Join(trialsDir, t.ID+".hlog"))
		hlogPath = filepath.Join(s.Dir(k), filepath.FromSlash(rel))
		if _, err := os.Stat(hlogPath); err == nil {
			// No stored trial has this id (checked above, under the lock), so the
			// file is an orphan of an append that died before its manifest write.
			slog.Warn("results: replacing an orphaned trial log", "path", hlogPath)
		}
		sum, err := writeAtomic(hlogPath, hlog)
		if err != nil {
			return Trial{}, fmt.Errorf("store hlog of trial %s: %w", t.ID, err)
		}
		t.HlogFile, t.HlogSHA256 = rel, sum
	}
	// Until the manifest names it, the log is not stored: remove it on failure.
	committed := false
	defer func() {
		if !committed && hlogPath != "" {
			_ = os.Remove(hlogPath)
		}
	}()
	if summary {
		m.Summaries = append(m.Summaries, t)
	} else {
		m.Trials = append(m.Trials, t)
	}
	b, err := EncodeManifest(m)
	if err != nil {
		return Trial{}, err
	}
	// Guard the append-only promise on the bytes about to be written: decoded
	// again, the stored prefix must be exactly what was read.
	again, err := DecodeManifest(b)
	if err != nil {
		return Trial{}, fmt.Errorf("append trial %s to %s: re-reading the new manifest: %w", t.ID, k, err)
	}
	list := storedList(again, summary)
	after, err := json.Marshal(append([]Trial{}, list[:len(list)-1]...))
	if err != nil || !bytes.Equal(before, after) {
		return Trial{}, fmt.Errorf("append trial %s to %s: stored trials would change; refusing to write", t.ID, k)
	}
	if _, err := writeAtomic(filepath.Join(s.Dir(k), manifestFile), bytes.NewReader(b)); err != nil {
		return Trial{}, fmt.Errorf("write manifest of %s: %w", k, err)
	}
	committed = true
	return t, nil
}

func storedList(m *Manifest, summary bool) []Trial {
	if summary {
		return m.Summaries
	}
	return m.Trials
}

// ReadHlog returns a stored trial's .hlog after checking it against the
// checksum recorded in the manifest.
func (s *Store) ReadHlog(k Key, t Trial) ([]byte, error) {
	return readHlogAt(s.Dir(k), k, t)
}

// readHlogAt is ReadHlog for an entry stored in dir (a manifest directory
// given by path may lie outside the store).
func readHlogAt(dir string, k Key, t Trial) ([]byte, error) {
	if t.HlogFile == "" {
		return nil, fmt.Errorf("trial %s in %s has no stored hlog", t.ID, k)
	}
	rel := filepath.Clean(filepath.FromSlash(t.HlogFile))
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("trial %s in %s: hlog path %q leaves the store entry: %w", t.ID, k, t.HlogFile, ErrCorrupt)
	}
	if err := noLink(dir, strings.Split(filepath.ToSlash(rel), "/")...); err != nil {
		return nil, fmt.Errorf("read hlog of trial %s: %w", t.ID, err)
	}
	path := filepath.Join(dir, rel)
	b, err := readRegular(path, MaxHlogBytes)
	if err != nil {
		return nil, fmt.Errorf("read hlog of trial %s: %w", t.ID, err)
	}
	sum := sha256.Sum256(b)
	if t.HlogSHA256 != "" && hex.EncodeToString(sum[:]) != t.HlogSHA256 {
		return nil, fmt.Errorf("%s: checksum does not match the manifest: %w; delete this trial's entry directory and re-run, or restore it from a copy", path, ErrCorrupt)
	}
	return b, nil
}

// Damaged is a store entry whose manifest cannot be used, and why.
type Damaged struct {
	// Dir is the entry directory; Target and Name its two path elements
	// (Name is <suite>-<fingerprint>, Suite the part before the last '-').
	Dir, Target, Name, Suite string
	Err                      error
}

// String names the entry as `regress results remove` takes it.
func (d Damaged) String() string {
	if d.Name == "" {
		return d.Target
	}
	return d.Target + "/" + d.Name
}

// Scan returns every usable entry and every damaged one; err is set only
// when the store itself cannot be read. One damaged manifest never hides
// the others.
func (s *Store) Scan() ([]Entry, []Damaged, error) {
	var out []Entry
	var bad []Damaged
	targets, err := os.ReadDir(s.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("list results store %s: %w", s.root, err)
	}
	for _, t := range targets {
		if strings.HasPrefix(t.Name(), ".") {
			continue
		}
		if err := s.noLinkIn(t.Name()); err != nil {
			// Not followed, and not passed over either: a reader asking
			// for this target learns why nothing of it is read.
			bad = append(bad, damagedAt(s.root, t.Name(), "", err))
			continue
		}
		if !t.IsDir() {
			continue
		}
		good, damaged := s.scanTarget(t.Name(), nil)
		out, bad = append(out, good...), append(bad, damaged...)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Target != b.Target {
			return a.Target < b.Target
		}
		if a.Suite != b.Suite {
			return a.Suite < b.Suite
		}
		return a.Fingerprint < b.Fingerprint
	})
	sort.Slice(bad, func(i, j int) bool { return bad[i].Dir < bad[j].Dir })
	return out, bad, nil
}

// scanTarget is Scan of one target directory: its usable entries and its
// damaged ones, and each usable entry's manifest handed to keep (when not
// nil) as it is read.
func (s *Store) scanTarget(target string, keep func(*Manifest)) (out []Entry, bad []Damaged) {
	tdir := filepath.Join(s.root, target)
	if testHookScan != nil {
		testHookScan(tdir)
	}
	suites, err := os.ReadDir(tdir)
	if err != nil {
		if vanished(tdir) {
			return nil, nil // its last entry removed since the store was listed
		}
		return nil, []Damaged{damagedAt(s.root, target, "", err)}
	}
	for _, d := range suites {
		if strings.HasPrefix(d.Name(), ".") {
			continue
		}
		path := filepath.Join(tdir, d.Name(), manifestFile)
		// Lstat: a manifest that is a dangling link or a link loop is
		// there, and damaged, not absent.
		if _, err := os.Lstat(path); err != nil {
			continue // not an entry directory
		}
		if err := s.noLinkIn(target, d.Name(), manifestFile); err != nil {
			bad = append(bad, damagedAt(s.root, target, d.Name(), err))
			continue
		}
		if testHookScan != nil {
			testHookScan(path)
		}
		m, err := ReadManifestFile(path)
		if err != nil {
			if vanished(path) {
				continue // removed (renamed away) since it was seen: gone, not damaged
			}
			bad = append(bad, damagedAt(s.root, target, d.Name(), err))
			continue
		}
		st, err := os.Stat(path)
		if err != nil {
			if vanished(path) {
				continue
			}
			bad = append(bad, damagedAt(s.root, target, d.Name(), err))
			continue
		}
		k := KeyOf(m)
		if k.Target != target || k.Suite+"-"+shortFP(k.Fingerprint) != d.Name() {
			bad = append(bad, damagedAt(s.root, target, d.Name(),
				fmt.Errorf("%s: the manifest is of %s, not of the directory it lies in (moved or copied by hand?): %w", path, k, ErrCorrupt)))
			continue
		}
		out = append(out, Entry{Key: k, Dir: filepath.Dir(path), Version: m.Version, Naming: m.Name(), Source: m.Source,
			Trials: len(m.Trials), Summaries: len(m.Summaries), Updated: st.ModTime().UTC()})
		if keep != nil {
			keep(m)
		}
	}
	return out, bad
}

// testHookScan, when set by a test, is called with each target directory
// before Scan reads it and each manifest between seeing and reading it: the
// windows in which a concurrent `results remove` takes the entry away.
var testHookScan func(path string)

// vanished says whether path is no longer there at all (not even as a
// dangling link): a reader that saw it a moment ago saw an entry or sweep
// a concurrent removal has since taken away, which is no damage.
func vanished(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

func damagedAt(root, target, name string, err error) Damaged {
	suite := name
	if i := strings.LastIndex(name, "-"); i > 0 {
		suite = name[:i]
	}
	return Damaged{Dir: filepath.Join(root, target, name), Target: target, Name: name, Suite: suite, Err: err}
}

// DamagedError lists damaged entries found while looking for others.
type DamagedError struct{ Entries []Damaged }

func (e *DamagedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d damaged store %s (see `regress results check`; remove with `regress results remove NAME` or restore from a copy):", len(e.Entries), plural(len(e.Entries), "entry", "entries"))
	for _, d := range e.Entries {
		fmt.Fprintf(&b, "\n  %s: %v", d, d.Err)
	}
	return b.String()
}

// Unwrap exposes each entry's error (errors.Is(err, ErrCorrupt) holds when one is corrupt).
func (e *DamagedError) Unwrap() []error {
	var errs []error
	for _, d := range e.Entries {
		errs = append(errs, d.Err)
	}
	return errs
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// damagedErr is nil without damaged entries, else a *DamagedError.
func damagedErr(bad []Damaged) error {
	if len(bad) == 0 {
		return nil
	}
	return &DamagedError{Entries: bad}
}

// List returns every usable entry, sorted by target, suite and fingerprint.
// Damaged entries are left out and reported in err as a *DamagedError, so one
// damaged manifest does not hide the rest; any other error means the store
// could not be read.
func (s *Store) List() ([]Entry, error) {
	out, bad, err := s.Scan()
	if err != nil {
		return nil, err
	}
	return out, damagedErr(bad)
}

// Find returns the stored entries of one target (version or label), optionally
// narrowed to a suite name ("" matches any). Damaged entries that could be
// the ones asked for come back in err as a *DamagedError beside the good ones.
//
// suiteName may carry a fingerprint, NAME@FINGERPRINT (any prefix of it, as
// `regress results list` prints it): what tells apart the results of a suite
// edited between runs.
func (s *Store) Find(target, suiteName string) ([]Entry, error) {
	all, bad, err := s.Scan()
	if err != nil {
		return nil, err
	}
	name, fp := SplitSuite(suiteName)
	var out []Entry
	for _, e := range all {
		if e.Target == target && (name == "" || e.Suite == name && strings.HasPrefix(e.Fingerprint, fp)) {
			out = append(out, e)
		}
	}
	var mine []Damaged
	for _, d := range bad {
		if d.Target == target && (name == "" || d.Suite == name && strings.HasPrefix(d.Name, name+"-"+shortFP(fp)) || d.Name == "") {
			mine = append(mine, d)
		}
	}
	return out, damagedErr(mine)
}

// SplitSuite splits a --suite value naming stored results into the suite's
// name and a fingerprint prefix: NAME@FINGERPRINT, or NAME alone (fp "").
// Only a tail after the last '@' without '.' or '/' is a fingerprint, so a
// suite file's path (suite.yaml) stays whole.
func SplitSuite(v string) (name, fp string) {
	i := strings.LastIndexByte(v, '@')
	if i <= 0 || !fingerprintPrefix.MatchString(v[i+1:]) {
		return v, ""
	}
	return v[:i], v[i+1:]
}

// fingerprintPrefix is what may follow '@' in a --suite value.
var fingerprintPrefix = regexp.MustCompile(`^[A-Za-z0-9_+-]+$`)

// suiteChoices are the --suite values that pick each entry: its suite's
// name, or NAME@FINGERPRINT where one name has several fingerprints.
func suiteChoices(entries []Entry) []string {
	n := map[string]int{}
	for _, e := range entries {
		n[e.Suite]++
	}
	var out []string
	for _, e := range entries {
		v := e.Suite
		if n[e.Suite] > 1 {
			v += "@" + shortFP(e.Fingerprint)
		}
		out = append(out, v)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// FindTrials loads the stored trials of a release for a suite with the given
// fingerprint, trying version and version-hadoop3 (the build the local
// provider prefers); it returns a wrapped ErrNotFound when none has trials,
// or the damage that may hide them.
func (s *Store) FindTrials(version, suiteName, fingerprint string) (*Manifest, error) {
	return s.FindTrialsUnder([]string{version, version + "-hadoop3"}, suiteName, fingerprint)
}

// FindTrialsUnder is FindTrials of the first of names (store targets, in
// order of preference) that holds trials of the suite.
func (s *Store) FindTrialsUnder(names []string, suiteName, fingerprint string) (*Manifest, error) {
	var damage []error
	for _, name := range names {
		entries, err := s.Find(name, suiteName)
		var de *DamagedError
		if err != nil && !errors.As(err, &de) {
			return nil, err
		}
		if de != nil {
			for _, d := range de.Entries {
				if d.Name == "" || d.Name == suiteName+"-"+shortFP(fingerprint) {
					damage = append(damage, fmt.Errorf("%s: %w", d, d.Err))
				}
			}
		}
		for _, e := range entries {
			if e.Fingerprint != fingerprint {
				continue
			}
			m, err := s.Load(e.Key)
			if err != nil {
				return nil, err
			}
			if len(m.Trials) > 0 {
				return m, nil
			}
		}
	}
	if len(damage) > 0 {
		return nil, fmt.Errorf("the stored trials of %s for suite %s are damaged (see `regress results check`): %w", names[0], suiteName, errors.Join(damage...))
	}
	return nil, fmt.Errorf("no stored trials of %s for suite %s (fingerprint %s) in %s: %w", names[0], suiteName, fingerprint, s.Root(), ErrNotFound)
}

// Resolve finds the results a user named: a directory holding manifest.json,
// or a target (version or label) with results of one suite (suiteName, when
// given, chooses among several). A damaged entry of another target or suite
// does not stop it; one that could be the entry asked for is named in the
// error when no good entry matches.
func (s *Store) Resolve(ref, suiteName string) (*Manifest, error) {
	if err := ambiguous(ref, filepath.Join(s.root, ref), "results stored in "+s.root, "the directory of its entry under "+filepath.Join(s.root, ref)+" (`regress results list` names it)"); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(ref); err == nil && fi.IsDir() {
		m, err := ReadManifestFile(filepath.Join(ref, manifestFile))
		if err != nil {
			return nil, err
		}
		if s.holds(m) {
			if err := s.checkLabelVersions(m); err != nil {
				return nil, fmt.Errorf("%s: %w", ref, err)
			}
		}
		return m, nil
	}
	entries, err := s.Find(ref, suiteName)
	var de *DamagedError
	if err != nil && !errors.As(err, &de) {
		return nil, err
	}
	if len(entries) == 0 && de == nil {
		// What the user typed may be the release of a stored name:
		// `--baseline 2.6.0` ran 2.6.0-hadoop3 and stored it so.
		target, err := s.typedTarget(ref, suiteName)
		if err != nil {
			return nil, err
		}
		if target != "" {
			slog.Info("results: "+ref+" is stored as "+target, "typed", ref, "stored", target)
			return s.Resolve(target, suiteName)
		}
	}
	if len(entries) == 0 {
		if de != nil {
			return nil, fmt.Errorf("%q: %w", ref, de)
		}
		if suiteName != "" {
			if others, _ := s.Find(ref, ""); len(others) > 0 {
				choices := suiteChoices(others)
				return nil, fmt.Errorf("nothing stored for %q under suite %s in %s; it has results of suite %s: choose one with --suite %s: %w", ref, suiteName, s.Root(), strings.Join(choices, ", "), strings.Join(choices, " or --suite "), ErrNotFound)
			}
		}
		if fi, err := os.Stat(ref); err == nil && !fi.IsDir() {
			// A path, not a name: the manifest itself is as good as its
			// directory; anything else is no stored result.
			if filepath.Base(ref) == manifestFile {
				return ReadManifestFile(ref)
			}
			return nil, fmt.Errorf("%s is %s, not a directory holding %s nor a version or label stored in %s: give an entry's directory, or a name `regress results list` prints: %w", ref, inputfile.Kind(fi.Mode()), manifestFile, s.Root(), ErrNotFound)
		}
		return nil, fmt.Errorf("nothing stored for %q in %s: run `regress run --version %s` or `regress import-ycsb`, or give a directory holding manifest.json (see `regress results list`): %w", ref, s.Root(), shellQuote(ref), ErrNotFound)
	}
	if len(entries) > 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Key.String())
		}
		sort.Strings(names)
		why := "one suite under several fingerprints (the suite was edited between runs)"
		for _, e := range entries {
			if e.Suite != entries[0].Suite {
				why = "several suites"
			}
		}
		return nil, fmt.Errorf("%q has results of %s (%s): choose one with --suite %s (`regress results list` says when each was stored)", ref, why, strings.Join(names, ", "), strings.Join(suiteChoices(entries), " or --suite "))
	}
	if de != nil && suiteName == "" {
		slog.Warn("results: a damaged entry of this target is left out (see `regress results check`)", "target", ref, "using", entries[0].Key.String(), "damaged", de.Entries[0].String())
	}
	m, err := s.Load(entries[0].Key)
	if err != nil {
		return nil, err
	}
	// A label holding two versions is damage for compare as for `results
	// check`: which entry is the version the user meant is not known.
	if err := s.checkLabelVersions(m); err != nil {
		return nil, fmt.Errorf("%q: %w", ref, err)
	}
	return m, nil
}

// typedTarget is the one stored target whose name begins with what the
// user typed as a release: ref itself with its build flavour
// (2.6.0-hadoop3) and any suffix regress adds to keep sides apart (+conf-,
// +jars-, +baseline); "" when none is. Several are an error naming them.
// suiteName, when given, narrows the choice as Find does.
func (s *Store) typedTarget(ref, suiteName string) (string, error) {
	if ref == "" || strings.ContainsAny(ref, "+/"+string(filepath.Separator)) {
		return "", nil
	}
	all, _, err := s.Scan()
	if err != nil {
		return "", err
	}
	name, fp := SplitSuite(suiteName)
	seen := map[string]bool{}
	var found []string
	for _, e := range all {
		// A name begins with a person's label, else the version; a
		// quorum's or one an older build made whole is no release.
		n := e.Naming
		if n.ZK != "" || n.Made != "" || release(cmp.Or(n.Given, e.Version)) != ref || seen[e.Target] || name != "" && (e.Suite != name || !strings.HasPrefix(e.Fingerprint, fp)) {
			continue
		}
		seen[e.Target] = true
		found = append(found, e.Target)
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	sort.Strings(found)
	return "", fmt.Errorf("%q names several stored results in %s: %s; give one of them (see `regress results list`): %w", ref, s.Root(), strings.Join(found, ", "), ErrAmbiguous)
}

// ErrAmbiguous marks a name given on the command line that could mean
// more than one thing (errors.Is): several stored results, or both a path
// on disk and a name stored in the store.
var ErrAmbiguous = errors.New("ambiguous name")

// ambiguous refuses ref when it is both a path on disk (relative to the
// current directory) and a name stored at stored (what is stored there, and
// how to name it instead, for the message): which of the two was meant is
// not known, and taking either would compare other results than the user's
// without a word. A path written as one (./NAME, DIR/NAME, an absolute
// path) is no name and passes, as does a store rooted here (the two are one).
func ambiguous(ref, stored, what, instead string) error {
	if checkName("name", ref) != nil || !pathAndStored(ref, stored) {
		return nil
	}
	return fmt.Errorf("%q names both %s here and %s (%s): say which: ./%s for the one here, or %s for the stored one: %w", ref, pathKind(ref), what, stored, ref, instead, ErrAmbiguous)
}

// pathAndStored is the one test of ambiguity every command's name of
// stored results goes through (Resolve, ReadSweep, Remove): ref is a path
// here (relative to the current directory) and stored, what a store holds
// under that name, is there too, and the two are not one (a store rooted
// here names its entries as paths too).
func pathAndStored(ref, stored string) bool {
	if _, err := os.Lstat(ref); err != nil {
		return false
	}
	_, err := os.Lstat(stored)
	return err == nil && !sameFile(ref, stored)
}

// sameFile says whether two paths are one file or directory (a store
// rooted at the current directory names its targets as paths too).
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// pathKind says what lies at path, for messages.
func pathKind(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return "a path"
	}
	return inputfile.Kind(fi.Mode())
}

// labelVersions is the one rule for a label holding results of two HBase
// versions, `results check`'s and compare's: m is one entry of a target and
// all every readable entry of that target (m among them, a linked entry
// directory passed over); it is an ErrVersionsDiffer naming the other
// versions' entries when any names another release than m (a -hadoop2 or
// -hadoop3 build is its release), else nil.
func labelVersions(m *Manifest, all []*Manifest) error {
	if m == nil || m.Version == "" {
		return nil
	}
	others := map[string][]string{} // release -> entries
	for _, o := range all {
		if o == nil || o.Version == "" || release(o.Version) == release(m.Version) || o.Dir != "" && isLink(o.Dir) {
			continue
		}
		k := KeyOf(o)
		others[release(o.Version)] = append(others[release(o.Version)], k.Target+"/"+k.Suite+"-"+shortFP(k.Fingerprint))
	}
	if len(others) == 0 {
		return nil
	}
	var named []string
	for _, v := range slices.Sorted(maps.Keys(others)) {
		sort.Strings(others[v])
		named = append(named, fmt.Sprintf("%s in %s", v, strings.Join(others[v], ", ")))
	}
	return fmt.Errorf("%w: %s names results of HBase %s here and of %s: a label names one version; remove the entries under the wrong name (`regress results remove NAME`) and store them under a label of their own", ErrVersionsDiffer, KeyOf(m).Target, m.Version, strings.Join(named, "; "))
}

// checkLabelVersions applies labelVersions to m, an entry of this store, and
// its target's other readable entries (Scan's), as `results check` does;
// only the target's directory is read.
func (s *Store) checkLabelVersions(m *Manifest) error {
	var all []*Manifest
	// A damaged manifest is no evidence: Check passes over it too.
	s.scanTarget(KeyOf(m).Target, func(o *Manifest) {
		if o.Version != "" && release(o.Version) != release(m.Version) {
			all = append(all, o)
		}
	})
	return labelVersions(m, all)
}

// holds says whether m was read from its own entry directory in this store
// (not from a copy elsewhere).
func (s *Store) holds(m *Manifest) bool {
	if KeyOf(m).validate() != nil {
		return false
	}
	a, errA := os.Stat(m.Dir)
	b, errB := os.Stat(s.Dir(KeyOf(m)))
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// shellSafe matches arguments a shell takes as they are.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9._+:/=@%^,-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it, so a command the
// tool suggests can be pasted back safely.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// otherVersion names an entry of target holding results of another HBase
// version than version, and that version ("" when none does, or version is
// unknown). Damaged entries are no evidence and are passed over.
func (s *Store) otherVersion(target, version string) (entry, other string) {
	if version == "" {
		return "", ""
	}
	dirs, err := os.ReadDir(filepath.Join(s.root, target))
	if err != nil {
		return "", ""
	}
	for _, d := range dirs {
		if !d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		m, err := ReadManifestFile(filepath.Join(s.root, target, d.Name(), manifestFile))
		if err == nil && m.Version != "" && release(m.Version) != release(version) {
			return target + "/" + d.Name(), m.Version
		}
	}
	return "", ""
}

// release is the release a version string names, its build variant
// (-hadoop2, -hadoop3) dropped: one release's builds are one version here.
func release(v string) string {
	for _, s := range []string{"-hadoop3", "-hadoop2"} {
		v = strings.TrimSuffix(v, s)
	}
	return v
}

// envelope is the on-disk form: the manifest plus the SHA-256 of its compact JSON.
type envelope struct {
	Format   string          `json:"format"`
	SHA256   string          `json:"sha256"`
	Manifest json.RawMessage `json:"manifest"`
}

// EncodeManifest renders m as a checksummed manifest.json body.
func EncodeManifest(m *Manifest) ([]byte, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	sum := sha256.Sum256(body)
	out, err := json.MarshalIndent(envelope{Format: envelopeFormat, SHA256: hex.EncodeToString(sum[:]), Manifest: body}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	if len(out)+1 > MaxManifestBytes {
		return nil, fmt.Errorf("encode manifest: it would take %s, beyond the %s a manifest may hold (and be read back): store further runs under another --label or suite", inputfile.Size(int64(len(out)+1)), inputfile.Size(MaxManifestBytes))
	}
	return append(out, '\n'), nil
}

// DecodeManifest parses and verifies a manifest.json body: the checksum must
// match (whitespace aside) and the schema must be one this build knows.
func DecodeManifest(b []byte) (*Manifest, error) {
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("not a readable manifest (%v): %w; restore the file from a copy or delete its directory and re-run", err, ErrCorrupt)
	}
	if env.Format != envelopeFormat {
		return nil, fmt.Errorf("not a regress manifest (format %q, want %q): %w", env.Format, envelopeFormat, ErrCorrupt)
	}
	compact, sum, err := compactSum(env.Manifest)
	if err != nil {
		return nil, fmt.Errorf("manifest body is not JSON: %w", ErrCorrupt)
	}
	if sum != strings.ToLower(env.SHA256) {
		return nil, fmt.Errorf("manifest checksum mismatch (the file was edited or damaged): %w; restore it from a copy or delete its directory and re-run", ErrCorrupt)
	}
	var head struct {
		Schema *int `json:"schema"`
	}
	if err := json.Unmarshal(compact, &head); err != nil || head.Schema == nil {
		return nil, fmt.Errorf("manifest has no schema version: %w", ErrCorrupt)
	}
	if *head.Schema != SchemaVersion {
		return nil, fmt.Errorf("manifest schema %d, this build reads schema %d: %w; use a regress build that matches the store", *head.Schema, SchemaVersion, ErrSchema)
	}
	var m Manifest
	if err := json.Unmarshal(compact, &m); err != nil {
		return nil, fmt.Errorf("manifest fields do not parse (%v): %w", err, ErrCorrupt)
	}
	// The store never writes a trial id or a .hlog twice (appendTo refuses
	// it): a manifest that holds one was edited and re-signed, and its
	// trials would be mixed (two results read through one id or one log).
	ids, logs := map[string]bool{}, map[string]string{}
	for _, t := range append(slices.Clone(m.Trials), m.Summaries...) {
		if ids[t.ID] {
			return nil, fmt.Errorf("trial id %q appears twice in the manifest (the store never writes that; the file was edited): %w; restore it from a copy or delete its directory and re-run", t.ID, ErrCorrupt)
		}
		ids[t.ID] = true
		if t.HlogFile == "" {
			continue
		}
		if other, ok := logs[t.HlogFile]; ok {
			return nil, fmt.Errorf("trials %q and %q name one log, %s (the store never writes that; the file was edited): %w; restore it from a copy or delete its directory and re-run", other, t.ID, t.HlogFile, ErrCorrupt)
		}
		logs[t.HlogFile] = t.ID
	}
	if err := checkFigures(&m); err != nil {
		return nil, fmt.Errorf("%w (the store never writes that; the file was edited): %w; restore it from a copy or delete its directory and re-run", err, ErrCorrupt)
	}
	m.Environment.upgradeJDK()
	m.upgradeName()
	return &m, nil
}

// compactSum is an envelope's body as its checksum covers it, compact JSON
// (whitespace aside, so re-indenting a file keeps it valid), and the hex
// SHA-256 of that.
func compactSum(body []byte) ([]byte, string, error) {
	var compact bytes.Buffer
	if len(body) == 0 {
		return nil, "", errors.New("empty body")
	}
	if err := json.Compact(&compact, body); err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(compact.Bytes())
	return compact.Bytes(), hex.EncodeToString(sum[:]), nil
}

func (s *Store) writeManifest(k Key, m *Manifest) error {
	b, err := EncodeManifest(m)
	if err != nil {
		return err
	}
	if _, err := writeAtomic(filepath.Join(s.Dir(k), manifestFile), bytes.NewReader(b)); err != nil {
		return fmt.Errorf("write manifest of %s: %w", k, err)
	}
	return nil
}

// writeAtomic copies r into path through atomicfile, so readers see the old
// file or the new one, never half of one. It returns the hex SHA-256 of what it wrote.
func writeAtomic(path string, r io.Reader) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	h := sha256.New()
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := io.Copy(io.MultiWriter(w, h), r)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
