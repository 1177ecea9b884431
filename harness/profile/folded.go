package profile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/folded"
)

// Folded is one profile in the folded-stack format flamegraph.pl and
// speedscope read: each key is a stack, root first, frames joined by ";",
// and its value the stack's weight (samples, or allocated bytes).
type Folded map[string]int64

// Total is the summed weight of every stack.
func (f Folded) Total() int64 {
	var t int64
	for _, w := range f {
		t += w
	}
	return t
}

// Merge sums profiles into one: a side's region servers, or the pairs of a
// workload pooled, before Diff.
func Merge(fs ...Folded) Folded {
	out := Folded{}
	for _, f := range fs {
		for s, w := range f {
			out[s] += w
		}
	}
	return out
}

// Without returns f less every stack holding a frame that contains one of
// marks, and the weight it removed: the frames of a reader's own requests
// (regress reading its agent through /jmx at a window's edges), which are
// not the server's work under test.
func (f Folded) Without(marks ...string) (Folded, int64) {
	out := make(Folded, len(f))
	var removed int64
	for s, w := range f {
		if slices.ContainsFunc(marks, func(m string) bool { return strings.Contains(s, m) }) {
			removed += w
			continue
		}
		out[s] = w
	}
	return out, removed
}

// WriteTo writes one "frame;frame;frame weight" line a stack, sorted by stack so equal profiles give equal files.
func (f Folded) WriteTo(w io.Writer) (int64, error) {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	bw := bufio.NewWriter(w)
	var n int64
	for _, k := range keys {
		m, err := fmt.Fprintf(bw, "%s %d\n", k, f[k])
		n += int64(m)
		if err != nil {
			return n, err
		}
	}
	return n, bw.Flush()
}

// ReadFolded reads the folded format: a stack, a space, and a whole weight a
// line; blank lines are skipped. Frames are read as CanonicalFrame names
// them, so stacks stored with a JVM's lambda numbers (before FrameName
// knew every form) match across the two sides.
func ReadFolded(r io.Reader) (Folded, error) {
	return readStacks(r, stackFormat{what: "profile: folded", weight: "weight", read: "profile: read folded stacks"}, canonicalStack)
}

// stackFormat names a "stack weight" format in readStacks' errors.
type stackFormat struct {
	what, weight, read string
}

// readStacks reads "frame;frame weight" lines (blank lines skipped,
// through folded.Scan) into a Folded, each stack renamed by name: the
// folded files regress stores and async-profiler's collapsed output are the
// same lines.
func readStacks(r io.Reader, ft stackFormat, name func(stack string) string) (Folded, error) {
	f := Folded{}
	err := folded.Scan(r, func(stack string, w int64) { f[name(stack)] += w })
	var le *folded.LineError
	switch {
	case errors.As(err, &le) && le.BadWeight:
		return nil, fmt.Errorf("%s line %d %q: %s %q is not a whole number of 0 or more", ft.what, le.Line, trim(le.Text), ft.weight, le.Weight)
	case errors.As(err, &le):
		return nil, fmt.Errorf("%s line %d %q: want \"frame;frame %s\"", ft.what, le.Line, trim(le.Text), ft.weight)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", ft.read, err)
	}
	return f, nil
}

// canonicalStack applies CanonicalFrame to each frame of a stack that may
// hold a generated class or a lambda's body; most stacks hold neither.
func canonicalStack(s string) string {
	if !strings.Contains(s, "0x") && !strings.Contains(s, "ambda") {
		return s
	}
	frames := strings.Split(s, ";")
	for i, f := range frames {
		frames[i] = CanonicalFrame(f)
	}
	return strings.Join(frames, ";")
}

// WriteFoldedFile writes f to path atomically (atomicfile), creating its directory.
func WriteFoldedFile(path string, f Folded) error {
	var b bytes.Buffer
	if _, err := f.WriteTo(&b); err != nil {
		return err
	}
	return writeFileAtomic(path, b.Bytes())
}

// writeFileAtomic writes data over path through atomicfile, creating its
// directory first.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("profile: create %s: %w", dir, err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	return nil
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
