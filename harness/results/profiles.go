package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/folded"
	"github.com/regress-hbase/regress/harness/inputfile"
)

// ProfilesDir is the folder of a store entry that holds its trials' profiles.
const ProfilesDir = "profiles"

// ProfileKinds are the kinds of folded stacks a profile may store, as its
// file names spell them (profile.Kind's values: CPU samples, allocated
// bytes, allocation samples, the request threads' waits and wait events).
var ProfileKinds = []string{"cpu", "alloc", "alloc-samples", "wait", "wait-events"}

// Size bounds of a profile's files, checked before they are read.
const (
	// MaxProfileBytes bounds one kind of a profile's folded stacks.
	MaxProfileBytes = 256 << 20
	// MaxProfileMetaBytes bounds a profile's description (ProfileMeta).
	MaxProfileMetaBytes = 1 << 20
)

// ProfileFile is where a stored trial's folded stacks of one kind (one of
// ProfileKinds) lie in the store entry dir: profiles/<trial-id>.<kind>.folded
// (every region server of the side summed).
func ProfileFile(entryDir, trialID, kind string) string {
	return filepath.Join(entryDir, ProfilesDir, trialID+"."+kind+".folded")
}

// ProfileMetaFile is where a profiled trial's ProfileMeta lies in a store entry dir.
func ProfileMetaFile(entryDir, id string) string {
	return filepath.Join(entryDir, ProfilesDir, id+".json")
}

// ProfileMeta says what one side's stored profiles of a profiled trial
// stand for, beside them in profiles/<id>.json: the operations the trial
// served while recording divide the stacks (the trial itself is not stored).
type ProfileMeta struct {
	ID       string `json:"id"`
	RunID    string `json:"run_id"`
	Workload string `json:"workload"`
	// Ops counts the operations the trial served in its measurement window.
	Ops int64 `json:"ops"`
	// Start is the measurement window's start; DurationMillis its length.
	Start          time.Time `json:"start"`
	DurationMillis int64     `json:"duration_ms"`
	// CPUPerOpMicros is the trial's server CPU per operation with the
	// recorder on, for reference (0 when not read): what profiling costs a trial.
	CPUPerOpMicros float64 `json:"cpu_per_op_us,omitempty"`
	// OwnReadCPUSamples and OwnReadAllocBytes are what the stored stacks
	// leave out: regress's own readings at the window's edges.
	OwnReadCPUSamples int64 `json:"own_read_cpu_samples,omitempty"`
	OwnReadAllocBytes int64 `json:"own_read_alloc_bytes,omitempty"`
	// Profiler says what sampled the stacks: "" for JFR (jcmd on a region
	// server this machine runs), ProfilerServlet for async-profiler run by
	// the info servers' /prof (CPU only: no allocation stacks are stored),
	// ProfilerJMX for JFR through the servers' JMX connectors.
	Profiler string `json:"profiler,omitempty"`
}

// ProfilerServlet is ProfileMeta.Profiler for stacks from the info servers'
// /prof: async-profiler's CPU samples, every thread of the JVM's.
const ProfilerServlet = "async-profiler"

// ProfilerJMX is ProfileMeta.Profiler for JFR recorded through the region
// servers' JMX remote connectors (--*-jmx-port): CPU and allocation, as jcmd's.
const ProfilerJMX = "JFR over JMX"

// WriteProfile stores a trial's folded stacks of one kind in the store entry
// dir (ProfileFile), written whole by write; the profiles folder is created
// when missing.
func WriteProfile(entryDir, id, kind string, write func(io.Writer) error) error {
	if !slices.Contains(ProfileKinds, kind) {
		return fmt.Errorf("store profile %s: kind %q is none the store knows (%s)", id, kind, strings.Join(ProfileKinds, ", "))
	}
	if err := noLink(entryDir, ProfilesDir); err != nil {
		return fmt.Errorf("store profile %s: %w", id, err)
	}
	if err := os.MkdirAll(filepath.Join(entryDir, ProfilesDir), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(ProfileFile(entryDir, id, kind), 0o644, write)
}

// WriteProfileMeta stores m beside its stacks (ProfileMetaFile of m.ID),
// written last, once the stacks are in place.
func WriteProfileMeta(entryDir string, m *ProfileMeta) error {
	if m.ID == "" || m.RunID == "" {
		return fmt.Errorf("store profile description: id %q and run id %q must both be set", m.ID, m.RunID)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := noLink(entryDir, ProfilesDir); err != nil {
		return fmt.Errorf("store profile description %s: %w", m.ID, err)
	}
	if err := os.MkdirAll(filepath.Join(entryDir, ProfilesDir), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(ProfileMetaFile(entryDir, m.ID), 0o644, func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err })
}

// OpenProfile opens a trial's stored stacks of one kind for reading: a
// regular file within MaxProfileBytes, opened without blocking. A profile
// not stored is an error wrapping fs.ErrNotExist.
func OpenProfile(entryDir, id, kind string) (*os.File, error) {
	if err := noLink(entryDir, ProfilesDir); err != nil {
		return nil, err
	}
	return inputfile.Open(ProfileFile(entryDir, id, kind), MaxProfileBytes)
}

// ReadProfileMetas reads every ProfileMeta in a store entry dir; none when
// it holds no profiles. A file that is not one is named in the error, and
// the others are still returned.
func ReadProfileMetas(entryDir string) ([]ProfileMeta, error) {
	if err := noLink(entryDir, ProfilesDir); err != nil {
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(entryDir, ProfilesDir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []ProfileMeta
	var errs []error
	for _, p := range paths {
		pm, err := readProfileMeta(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, *pm)
	}
	return out, errors.Join(errs...)
}

// readProfileMeta reads one profile's description, which must name the id
// its file name carries.
func readProfileMeta(path string) (*ProfileMeta, error) {
	b, err := readRegular(path, MaxProfileMetaBytes)
	if err != nil {
		return nil, err
	}
	var pm ProfileMeta
	if err := json.Unmarshal(b, &pm); err != nil {
		return nil, fmt.Errorf("%s: not a profile's description (%v)", path, err)
	}
	if want := strings.TrimSuffix(filepath.Base(path), ".json"); pm.ID != want {
		return nil, fmt.Errorf("%s: not a profile's description (it names profile %q, its file name %q)", path, pm.ID, want)
	}
	return &pm, nil
}

// profileFileKind splits a file name of a profiles folder into the profile
// id and kind of its stacks (ok false: no stacks' name).
func profileFileKind(name string) (id, kind string, ok bool) {
	for _, k := range ProfileKinds {
		if id, found := strings.CutSuffix(name, "."+k+".folded"); found && id != "" {
			return id, k, true
		}
	}
	return "", "", false
}

// checkFolded reads a stored profile's folded stacks through folded.Scan,
// "frame;frame weight" lines (blank lines allowed), each weight a whole
// number of 0 or more, as the profile package writes them; the error names
// the first line that is not.
func checkFolded(path string) error {
	f, err := inputfile.Open(path, MaxProfileBytes)
	if err != nil {
		if errors.Is(err, inputfile.ErrNotRegular) || errors.Is(err, inputfile.ErrTooLarge) {
			return fmt.Errorf("%w: %w", err, ErrCorrupt)
		}
		return err
	}
	defer f.Close()
	err = folded.Scan(f, func(string, int64) {})
	var le *folded.LineError
	switch {
	case errors.As(err, &le) && le.BadWeight:
		return fmt.Errorf("%s line %d: weight %q is not a whole number of 0 or more: %w", path, le.Line, clip(le.Weight), ErrCorrupt)
	case errors.As(err, &le):
		return fmt.Errorf("%s line %d: %q is no folded stack (want \"frame;frame weight\"): %w", path, le.Line, clip(le.Text), ErrCorrupt)
	case err != nil:
		return fmt.Errorf("%s: %w (%w)", path, err, ErrCorrupt)
	}
	return nil
}

// clip shortens a damaged line for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// checkProfiles verifies every profile in an entry directory: each
// description parses, names its own id and a run whose trials m holds, and
// each stored stacks file parses as folded stacks. What is no profile's
// file is leftovers' to name. The fix for any damage is the same: the
// profile is lost, the trials are intact.
func checkProfiles(dir string, m *Manifest) error {
	pdir := filepath.Join(dir, ProfilesDir)
	if noLink(dir, ProfilesDir) != nil {
		return nil // leftovers names the link
	}
	files, err := os.ReadDir(pdir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return nil // not a folder, or unreadable: leftovers names it
	}
	runs := map[string]bool{}
	for _, t := range m.Trials {
		runs[t.RunID] = true
	}
	var errs []error
	for _, f := range files {
		name, path := f.Name(), filepath.Join(pdir, f.Name())
		if !f.Type().IsRegular() {
			continue // leftovers names it
		}
		if _, _, ok := profileFileKind(name); ok {
			if err := checkFolded(path); err != nil {
				errs = append(errs, fmt.Errorf("%w; the profile is lost, the trials are intact: delete it (rm %s)", err, shellQuote(path)))
			}
			continue
		}
		if !strings.HasSuffix(name, ".json") || isTemp(name) {
			continue
		}
		pm, err := readProfileMeta(path)
		if err == nil && !runs[pm.RunID] {
			err = fmt.Errorf("%s: the profile of run %q, which stored no trial here", path, pm.RunID)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%w; the profile is lost, the trials are intact: delete it and its stacks (rm %s)", err, shellQuote(filepath.Join(pdir, strings.TrimSuffix(name, ".json")))+".*"))
		}
	}
	return errors.Join(errs...)
}

// profileLeftovers names what lies in an entry's profiles folder that is no
// profile of it: a file whose name is no profile's, and stacks that neither
// a stored trial nor a profile's description names (left by a write that
// failed before its description).
func profileLeftovers(pdir string, m *Manifest, add func(path, format string, args ...any), temp func(string)) {
	files, _ := os.ReadDir(pdir)
	ids := map[string]bool{}
	if m != nil {
		for _, t := range append(append([]Trial(nil), m.Trials...), m.Summaries...) {
			ids[t.ID] = true
		}
	}
	for _, f := range files {
		if id, ok := strings.CutSuffix(f.Name(), ".json"); ok && f.Type().IsRegular() {
			ids[id] = true
		}
	}
	for _, f := range files {
		name := f.Name()
		path := filepath.Join(pdir, name)
		id, _, isStacks := profileFileKind(name)
		switch {
		case isTemp(name):
			temp(path)
		case strings.HasPrefix(name, "."):
			// not regress's, as in the store's root
		case !f.Type().IsRegular():
			add(path, "%s where a profile's file belongs (the store follows no link): move it out of the store, or delete it (rm -r %s)", inputfile.Kind(f.Type()), shellQuote(path))
		case isStacks && m != nil && !ids[id]:
			add(path, "stacks of no stored trial and no profile's description (left by a write that failed before its description): delete it (rm %s)", shellQuote(path))
		case !isStacks && !strings.HasSuffix(name, ".json"):
			add(path, "a file that is no profile (a profile is ID.KIND.folded, KIND one of %s, with ID.json beside it): move it out of the store", strings.Join(ProfileKinds, ", "))
		}
	}
}
