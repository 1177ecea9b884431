package suite

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/regress-hbase/regress/harness/inputfile"
	"github.com/regress-hbase/regress/harness/workload"
)

// Overrides are a command line's changes to a suite in YCSB's manner: -P
// workload files, -p properties, -threads and -target. Applied before
// anything fingerprints the suite, they are part of its identity: results
// measured with other properties never pool with these.
type Overrides struct {
	// Workloads run in place of the suite's: each a workload file's path
	// (anywhere) or a name under the scenarios directory (-P).
	Workloads []string
	// Properties are key=value YCSB properties (-p), later ones winning.
	Properties []string
	// Threads sets run.threads (0 keeps the suite's).
	Threads int
	// Target sets run.target in ops/s (nil keeps the suite's).
	Target *float64
}

// sectionKeys are the YCSB properties a suite sets through one of its
// sections, not through properties: -p maps them there, and a suite's
// properties: section naming one is refused (it would be overwritten).
var sectionKeys = map[string]string{
	"threadcount":    "run.threads",
	"target":         "run.target",
	"operationcount": "run.operationcount",
	"recordcount":    "data.recordcount",
	"fieldcount":     "data.fieldcount",
	"fieldlength":    "data.fieldlength",
	"columnfamily":   "data.columnfamily",
}

// checkProperties refuses a properties: key that a section of the suite sets.
func checkProperties(props map[string]string) error {
	var errs []error
	for _, k := range slices.Sorted(maps.Keys(props)) {
		if sec, ok := sectionKeys[k]; ok {
			errs = append(errs, fmt.Errorf("properties.%s: the suite sets it as %s; write it there", k, sec))
		}
	}
	return errors.Join(errs...)
}

// Empty says whether o changes nothing.
func (o Overrides) Empty() bool {
	return len(o.Workloads) == 0 && len(o.Properties) == 0 && o.Threads == 0 && o.Target == nil
}

// Override applies o to s and validates the result as a suite file would
// be: -p threadcount, target and operationcount set the run section, -p
// recordcount, fieldcount, fieldlength and columnfamily the data section,
// any other key the suite's properties; --threads and --target win over
// nothing (giving both a flag and its property with two values is refused).
// Every workload's load is read again, so an unsupported property is
// refused here, before any cluster starts.
func (s *Suite) Override(o Overrides) error {
	if o.Empty() {
		return nil
	}
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	props := maps.Clone(s.Properties)
	if props == nil {
		props = map[string]string{}
	}
	threads, target := o.Threads, o.Target
	for _, arg := range o.Properties {
		k, v, ok := strings.Cut(arg, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			bad("-p %q: expected key=value, e.g. -p requestdistribution=uniform", arg)
			continue
		}
		switch k {
		case "threadcount":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				bad("-p threadcount=%s: give a whole number of client threads, 1 or more", v)
			} else if threads != 0 && threads != n {
				bad("-p threadcount=%s and --threads %d disagree: give one", v, threads)
			} else {
				threads = n
			}
		case "target":
			r, err := strconv.ParseFloat(v, 64)
			if err != nil || r < 0 || math.IsNaN(r) || math.IsInf(r, 0) {
				bad("-p target=%s: give a rate in ops/s, 0 for unthrottled", v)
			} else if target != nil && *target != r {
				bad("-p target=%s and --target %g disagree: give one", v, *target)
			} else {
				target = &r
			}
		case "operationcount":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				bad("-p operationcount=%s: give a whole number of operations (0: each trial runs for run.measure)", v)
			} else {
				s.Run.OperationCount = n
			}
		case "recordcount", "fieldcount", "fieldlength":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 {
				bad("-p %s=%s: give a whole number, 1 or more", k, v)
				continue
			}
			switch k {
			case "recordcount":
				s.Data.RecordCount = n
			case "fieldcount":
				s.Data.FieldCount = int(n)
			default:
				s.Data.FieldLength = int(n)
			}
		case "columnfamily":
			if v == "" {
				bad("-p columnfamily=: give the column family's name")
			} else {
				s.Data.ColumnFamily = v
			}
		default:
			props[k] = v
			if s.cmdline == nil {
				s.cmdline = map[string]bool{}
			}
			s.cmdline[k] = true
		}
	}
	if threads < 0 {
		bad("--threads %d: give a whole number of client threads, 1 or more", threads)
	} else if threads > 0 {
		s.Run.Threads = threads
	}
	if target != nil {
		if *target < 0 || math.IsNaN(*target) || math.IsInf(*target, 0) {
			bad("--target %g: give a rate in ops/s, 0 for unthrottled", *target)
		} else {
			s.Run.TargetOpsPerSec = *target
		}
	}
	if d := s.Data; d.Regions > 0 && int64(d.Regions) > d.RecordCount {
		bad("-p recordcount=%d is fewer rows than the suite's %d regions: give more rows, or a suite with fewer data.regions", d.RecordCount, d.Regions)
	}
	if len(props) > 0 {
		s.Properties = props
	}
	if len(o.Workloads) > 0 {
		if err := s.useWorkloads(o.Workloads); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if err := s.readLoads(); err != nil {
		return err
	}
	s.Overridden = append(s.Overridden, o.Args()...)
	return nil
}

// Args is o as the command line gave it ("-P /tmp/w", "-p k=v",
// "--threads 16", "--target 500"): what a manifest records of it.
func (o Overrides) Args() []string {
	var out []string
	for _, w := range o.Workloads {
		out = append(out, "-P "+w)
	}
	for _, p := range o.Properties {
		out = append(out, "-p "+p)
	}
	if o.Threads != 0 {
		out = append(out, fmt.Sprintf("--threads %d", o.Threads))
	}
	if o.Target != nil {
		out = append(out, fmt.Sprintf("--target %g", *o.Target))
	}
	return out
}

// useWorkloads makes the workload files ws (paths anywhere, or names under
// the scenarios directory) the suite's workloads, each named by its file's
// base name, as trials are keyed.
func (s *Suite) useWorkloads(ws []string) error {
	var errs []error
	type file struct {
		arg, path string
		b         []byte
	}
	names, files := make([]string, 0, len(ws)), map[string]file{}
	for _, w := range ws {
		name, path, b, err := s.readP(w)
		if err == nil {
			err = looksLikeAWorkload(b, path)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("-P %s: %w", w, err))
			continue
		}
		if prev, ok := files[name]; ok {
			errs = append(errs, fmt.Errorf("-P %s: two workload files are named %s (%s and %s): trials are keyed by the file's name, so copy one under another name", w, name, prev.path, path))
			continue
		}
		files[name] = file{w, path, b}
		names = append(names, name)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for w := range s.Run.Targets {
		if !slices.Contains(names, w) {
			delete(s.Run.Targets, w) // a rate for a workload that no longer runs
		}
	}
	if s.paths == nil {
		s.paths = map[string]string{}
	}
	for name, f := range files {
		s.keep(name, pArg+f.arg, f.b)
		s.paths[name] = f.path
	}
	s.Workloads = names
	return nil
}

// readP reads the file of -P w: a path on disk, else a name in the
// suite's scenarios (a stored suite's: the file the run kept). It returns
// the workload's name (the file's base name, as trials are keyed), the
// path messages name it by, and its contents.
func (s *Suite) readP(w string) (name, path string, b []byte, err error) {
	if s.pFile != nil {
		name, b, err := s.pFile(w)
		return name, w, b, err
	}
	if _, err := os.Stat(w); err != nil && filepath.IsLocal(w) {
		if _, serr := s.Scenarios.stat(w); serr == nil {
			b, err := s.Scenarios.readWorkload(w)
			return filepath.Base(w), s.Scenarios.Path(w), b, err
		}
	}
	fi, err := os.Stat(w)
	switch {
	case err != nil:
		return "", "", nil, fmt.Errorf("no workload file there, nor under the scenarios directory %s: give a YCSB workload file's path", s.Scenarios)
	case !fi.Mode().IsRegular():
		return "", "", nil, fmt.Errorf("%s is %s, not a workload file", w, inputfile.Kind(fi.Mode()))
	}
	abs, err := filepath.Abs(w)
	if err != nil {
		return "", "", nil, err
	}
	b, err = workload.ReadPropertyFile(abs)
	return filepath.Base(abs), abs, b, err
}

// workloadKeys are properties every YCSB workload file sets one of.
var workloadKeys = []string{"workload", "readproportion", "updateproportion", "insertproportion", "scanproportion",
	"readmodifywriteproportion", "requestdistribution", "recordcount", "operationcount"}

// looksLikeAWorkload refuses a file that parses as properties but sets
// none of workloadKeys (a hostname, a README): it would run YCSB's defaults
// for the whole suite under a name that says otherwise.
func looksLikeAWorkload(b []byte, path string) error {
	p, err := workload.ParseProperties(bytes.NewReader(b), path)
	if err != nil {
		return err
	}
	for _, k := range workloadKeys {
		if _, ok := p.Get(k); ok {
			return nil
		}
	}
	return fmt.Errorf("%s sets none of YCSB's workload properties (%s): give a YCSB workload file, e.g. scenarios/workloada", path, strings.Join(workloadKeys, ", "))
}
