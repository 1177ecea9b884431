package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/atomicfile"
)

// Format is one way to write a document of type T: its --format name, the
// other names it answers to, the file WriteFiles puts it in and the
// function that writes it.
type Format[T any] struct {
	Name    string
	Aliases []string
	File    string
	Write   func(io.Writer, T) error
}

// A FormatTable is every format one kind of document is written in, one row
// a format, in the order Names lists and WriteFiles writes them: the
// comparison's report (this package's) and `regress history`'s are two.
type FormatTable[T any] []Format[T]

// Names lists the formats' names, for flags' help and errors.
func (t FormatTable[T]) Names() []string {
	names := make([]string, len(t))
	for i, f := range t {
		names[i] = f.Name
	}
	return names
}

// Choices lists the formats for an error: "text (txt, table), markdown (md), json".
func (t FormatTable[T]) Choices() string {
	out := make([]string, len(t))
	for i, f := range t {
		out[i] = f.Name
		if len(f.Aliases) > 0 {
			out[i] += " (" + strings.Join(f.Aliases, ", ") + ")"
		}
	}
	return strings.Join(out, ", ")
}

// Lookup finds the format called name or one of its aliases, in any case.
func (t FormatTable[T]) Lookup(name string) (Format[T], bool) {
	name = strings.ToLower(name)
	for _, f := range t {
		if f.Name == name || slices.Contains(f.Aliases, name) {
			return f, true
		}
	}
	return Format[T]{}, false
}

// Render writes v to w in the format called name.
func (t FormatTable[T]) Render(w io.Writer, name string, v T) error {
	if f, ok := t.Lookup(name); ok {
		return f.Write(w, v)
	}
	return fmt.Errorf("unknown format %q: choose one of %s", name, strings.Join(t.Names(), ", "))
}

// WriteFiles writes v in every format into dir (created if needed), each
// file rendered whole and then written atomically, and returns the paths
// written.
func (t FormatTable[T]) WriteFiles(dir string, v T) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	var written []string
	for _, f := range t {
		var buf bytes.Buffer
		if err := f.Write(&buf, v); err != nil {
			return written, err
		}
		p := filepath.Join(dir, f.File)
		if err := atomicfile.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			return written, fmt.Errorf("write %s: %w", p, err)
		}
		written = append(written, p)
	}
	return written, nil
}
