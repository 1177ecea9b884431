package suite

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/inputfile"
	"github.com/regress-hbase/regress/harness/workload"
)

// Scenarios is where suites (suites/NAME.yaml) and the workload files they
// name are read from: a folder on disk, the set built into the binary, or
// the files a stored run carried. A suite never reads the folder the
// process stands in unless it is named here.
type Scenarios struct {
	// FS holds the files, rooted where a scenarios folder's root is.
	FS fs.FS
	// Dir is the folder on disk FS reads ("" when the files are not a folder's).
	Dir string
	// Label names a set that is no folder in messages ("the built-in scenarios").
	Label string
}

// Folder is the scenarios folder dir on disk.
func Folder(dir string) Scenarios { return Scenarios{FS: os.DirFS(dir), Dir: dir} }

// Set is a set of scenarios that is no folder (the built-in ones), named
// label in messages.
func Set(label string, fsys fs.FS) Scenarios { return Scenarios{FS: fsys, Label: label} }

// String names the scenarios as messages do: the folder, or the set's label.
func (sc Scenarios) String() string {
	if sc.Dir != "" {
		return sc.Dir
	}
	return sc.Label
}

// Path names file name of sc in messages: its path on disk, or the name
// and the set it is in.
func (sc Scenarios) Path(name string) string {
	if sc.Dir != "" {
		return filepath.Join(sc.Dir, name)
	}
	return name + " (" + sc.Label + ")"
}

// stat is fs.Stat of the slash path name in sc (a folder: of the file on disk).
func (sc Scenarios) stat(name string) (fs.FileInfo, error) {
	if sc.FS == nil {
		return nil, fmt.Errorf("%s: %w", name, fs.ErrNotExist)
	}
	return fs.Stat(sc.FS, filepath.ToSlash(name))
}

// read reads file name of sc: a regular file of at most limit bytes. A
// folder's file is read through inputfile, never through FS: os.DirFS's
// open of a FIFO would wait for a writer.
func (sc Scenarios) read(name string, limit int64) ([]byte, error) {
	if sc.Dir != "" {
		return inputfile.ReadFile(filepath.Join(sc.Dir, name), limit)
	}
	fi, err := sc.stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file", sc.Path(name), inputfile.Kind(fi.Mode()))
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is %s, more than the %s a file here may hold", sc.Path(name), inputfile.Size(fi.Size()), inputfile.Size(limit))
	}
	return fs.ReadFile(sc.FS, filepath.ToSlash(name))
}

// maxSuiteFile bounds a suite file (the shipped ones are a few KiB).
const maxSuiteFile = 1 << 20

// Names lists the suites of sc (suites/*.yaml), sorted.
func (sc Scenarios) Names() []string {
	if sc.FS == nil {
		return nil
	}
	m, _ := fs.Glob(sc.FS, "suites/*.yaml")
	var out []string
	for _, p := range m {
		out = append(out, strings.TrimSuffix(path.Base(p), ".yaml"))
	}
	slices.Sort(out)
	return out
}

// Named loads suite name from sc's suites/NAME.yaml, its workloads from sc.
func Named(sc Scenarios, name string) (*Suite, error) {
	if !nameRE.MatchString(name) {
		return nil, fmt.Errorf("suite %q: a suite name may hold only letters, digits, '.', '_' and '-'", name)
	}
	p := "suites/" + name + ".yaml"
	if _, err := sc.stat(p); err != nil {
		return nil, fmt.Errorf("suite %q not found at %s (known suites: %s)", name, sc.Path(filepath.FromSlash(p)), strings.Join(sc.Names(), ", "))
	}
	b, err := sc.read(filepath.FromSlash(p), maxSuiteFile)
	if err != nil {
		return nil, fmt.Errorf("read suite: %w", err)
	}
	return parseFile(b, sc.Path(filepath.FromSlash(p)), name, sc)
}

// Has says whether sc holds a suite of that name.
func (sc Scenarios) Has(name string) bool {
	_, err := sc.stat("suites/" + name + ".yaml")
	return nameRE.MatchString(name) && err == nil
}

// Text is the suite file as it was read (YAML), "" for a Suite made in code.
func (s *Suite) Text() string { return string(s.text) }

// Files are the workload files the suite read, as a manifest keeps them:
// each of the suite file's workloads under its name, each -P file under
// "-P " and the argument as given, with its contents.
func (s *Suite) Files() map[string]string {
	if len(s.kept) == 0 {
		return nil
	}
	out := make(map[string]string, len(s.kept))
	for k, v := range s.kept {
		out[k] = string(v)
	}
	return out
}

// FromStored loads again the suite a run stored: text its file as written,
// files its workload files (Files), args the command line's changes
// (Overridden). Nothing is read from disk: the suite judges a run the same
// wherever it is read.
func FromStored(name, text string, files map[string]string, args []string) (*Suite, error) {
	mem := memFS{}
	for k, v := range files {
		if !strings.HasPrefix(k, pArg) {
			mem[filepath.ToSlash(k)] = []byte(v)
		}
	}
	sc := Set("the suite stored with the run", mem)
	s, err := parseFile([]byte(text), "suite "+name+" as stored with the run", name, sc)
	if err != nil {
		return nil, err
	}
	o, mode, instances, err := parseArgs(args)
	if err != nil {
		return nil, fmt.Errorf("suite %s as stored with the run: %w", name, err)
	}
	s.pFile = func(arg string) (string, []byte, error) {
		b, ok := files[pArg+arg]
		if !ok {
			return "", nil, fmt.Errorf("-P %s: the run stored no such workload file", arg)
		}
		return filepath.Base(arg), []byte(b), nil
	}
	if err := s.Override(o); err != nil {
		return nil, fmt.Errorf("suite %s as stored with the run: %w", name, err)
	}
	if mode != "" {
		s.SetMode(mode)
	}
	if instances > 0 {
		s.SetInstances(instances)
	}
	return s, nil
}

// pArg prefixes the key a -P file is kept under in Files.
const pArg = "-P "

// SetMode sets run.mode from the command line (--trials), recorded in
// Overridden when it changes the suite.
func (s *Suite) SetMode(mode string) {
	if mode != s.Run.Mode {
		s.Run.Mode = mode
		s.Overridden = append(s.Overridden, "--trials "+mode)
	}
}

// SetInstances sets run.instances from the command line (--instances),
// recorded in Overridden when it changes the suite.
func (s *Suite) SetInstances(n int) {
	if n != s.Run.Instances {
		s.Run.Instances = n
		s.Overridden = append(s.Overridden, fmt.Sprintf("--instances %d", n))
	}
}

// parseArgs reads Overridden back: Overrides.Args, then --trials and --instances.
func parseArgs(args []string) (o Overrides, mode string, instances int, err error) {
	for _, a := range args {
		flag, v, _ := strings.Cut(a, " ")
		switch flag {
		case "-P":
			o.Workloads = append(o.Workloads, v)
		case "-p":
			o.Properties = append(o.Properties, v)
		case "--threads":
			_, err = fmt.Sscan(v, &o.Threads)
		case "--target":
			var r float64
			if _, err = fmt.Sscan(v, &r); err == nil {
				o.Target = &r
			}
		case "--trials":
			mode = v
		case "--instances":
			_, err = fmt.Sscan(v, &instances)
		default:
			err = fmt.Errorf("%q is no change of a suite this build knows", a)
		}
		if err != nil {
			return o, "", 0, fmt.Errorf("command line change %q: %w", a, err)
		}
	}
	return o, mode, instances, nil
}

// memFS is a set of files in memory: a stored run's workload files.
type memFS map[string][]byte

func (m memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if b, ok := m[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(b))}, r: strings.NewReader(string(b))}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

type memFile struct {
	info memInfo
	r    io.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *memFile) Close() error               { return nil }

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

// readWorkload reads workload file name of sc as a property file's bytes.
func (sc Scenarios) readWorkload(name string) ([]byte, error) {
	if sc.Dir != "" {
		return workload.ReadPropertyFile(filepath.Join(sc.Dir, name))
	}
	b, err := sc.read(name, workload.MaxPropertyFile)
	if err != nil {
		return nil, fmt.Errorf("read property file: %w", err)
	}
	return b, nil
}
