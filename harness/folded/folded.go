// Package folded reads the folded-stack line format, "frame;frame weight"
// a line (blank lines skipped), once: the profile package's stored stacks
// and async-profiler's collapsed output are read through Scan, and the
// store's check of a stored profile judges its lines by the same rule.
package folded

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxLine is the longest line Scan reads (a deep stack of long frame names).
const MaxLine = 16 << 20

// A LineError is a line that is not "frame;frame weight": no stack before
// a space, or (BadWeight) a weight that is not a whole number of 0 or more.
type LineError struct {
	Line      int    // from 1
	Text      string // the line, trimmed
	BadWeight bool
	Weight    string // the text after the last space, when BadWeight
}

// Error says which line and why.
func (e *LineError) Error() string {
	if e.BadWeight {
		return fmt.Sprintf("line %d: weight %q is not a whole number of 0 or more", e.Line, e.Weight)
	}
	return fmt.Sprintf("line %d: %q is no folded stack (want \"frame;frame weight\")", e.Line, e.Text)
}

// Scan calls fn with the stack and weight of each line of r in order: a
// line is trimmed, its weight is after its last space, its stack the
// trimmed text before. The first line that is neither blank nor a stack
// and weight ends the scan with a *LineError; a read error (a line longer
// than MaxLine among them) is returned as it is.
func Scan(r io.Reader, fn func(stack string, weight int64)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		i := strings.LastIndexByte(s, ' ')
		if i <= 0 {
			return &LineError{Line: line, Text: s}
		}
		w, err := strconv.ParseInt(s[i+1:], 10, 64)
		if err != nil || w < 0 {
			return &LineError{Line: line, Text: s, BadWeight: true, Weight: s[i+1:]}
		}
		fn(strings.TrimSpace(s[:i]), w)
	}
	return sc.Err()
}
