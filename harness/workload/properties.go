package workload

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/regress-hbase/regress/harness/inputfile"
)

// OverrideSource names the origin of a property set on the command line with -p.
const OverrideSource = "-p"

// Properties is a set of YCSB properties (key=value), each remembering where
// it came from so a bad value can be reported against the file that set it.
// The zero value is not usable; make one with NewProperties.
type Properties struct {
	vals map[string]string
	src  map[string]string
}

// NewProperties returns an empty property set.
func NewProperties() Properties {
	return Properties{vals: map[string]string{}, src: map[string]string{}}
}

// Set sets key to value, recording source (a file name, or OverrideSource) for error messages.
func (p Properties) Set(key, value, source string) {
	p.vals[key] = value
	p.src[key] = source
}

// Merge copies every property of o into p, o's values winning, as a later
// -P file or a -p override does in YCSB.
func (p Properties) Merge(o Properties) {
	for k, v := range o.vals {
		p.Set(k, v, o.src[k])
	}
}

// Clone returns an independent copy of p.
func (p Properties) Clone() Properties {
	c := NewProperties()
	c.Merge(p)
	return c
}

// Keys returns the property names in sorted order.
func (p Properties) Keys() []string {
	ks := make([]string, 0, len(p.vals))
	for k := range p.vals {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Get returns the raw value of key and whether it is set.
func (p Properties) Get(key string) (string, bool) {
	v, ok := p.vals[key]
	return v, ok
}

// Source returns where key was set (a file name or OverrideSource), or "" when unset.
func (p Properties) Source(key string) string { return p.src[key] }

// String returns the value of key, or def when it is unset.
func (p Properties) String(key, def string) string {
	if v, ok := p.vals[key]; ok {
		return v
	}
	return def
}

// valueError reports a property value that cannot be used.
func (p Properties) valueError(key, v, why string) error {
	src := p.src[key]
	if src == "" {
		src = "defaults"
	}
	return fmt.Errorf("%s=%s in %s: %s", key, v, src, why)
}

// Int64 returns key as an integer, def when unset, and an error naming the
// key, value and its source when the value is not a whole number.
func (p Properties) Int64(key string, def int64) (int64, error) {
	v, ok := p.vals[key]
	if !ok {
		return def, nil
	}
	// Java keeps trailing blanks in a property value; YCSB would then fail on
	// parseInt. Forgiving them here is harmless and spares users a puzzle.
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, p.valueError(key, v, "out of range for a 64-bit integer")
		}
		if _, ferr := strconv.ParseFloat(strings.TrimSpace(v), 64); ferr == nil {
			return 0, p.valueError(key, v, "not a whole number")
		}
		return 0, p.valueError(key, v, "not a number")
	}
	return n, nil
}

// Int returns key as an int within [lo, hi], def when unset.
func (p Properties) Int(key string, def, lo, hi int64) (int64, error) {
	n, err := p.Int64(key, def)
	if err != nil {
		return 0, err
	}
	if n < lo || n > hi {
		return 0, p.valueError(key, strconv.FormatInt(n, 10), fmt.Sprintf("must be between %d and %d", lo, hi))
	}
	return n, nil
}

// Float64 returns key as a finite number, def when unset.
func (p Properties) Float64(key string, def float64) (float64, error) {
	v, ok := p.vals[key]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, p.valueError(key, v, "not a number")
	}
	return f, nil
}

// Bool returns key as a boolean (true or false, any case), def when unset.
// YCSB reads anything but "true" as false; a typo such as "ture" silently
// changing a run is worse than an error, so other values are refused.
func (p Properties) Bool(key string, def bool) (bool, error) {
	v, ok := p.vals[key]
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, p.valueError(key, v, "not true or false")
}

// OneOf returns key's value (def when unset) and an error if it is not one of allowed.
func (p Properties) OneOf(key, def string, allowed ...string) (string, error) {
	v := strings.TrimSpace(p.String(key, def))
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", p.valueError(key, v, "must be one of "+strings.Join(allowed, ", "))
}

// MaxPropertyFile bounds a property file (YCSB's are a few KiB): a larger
// file is refused before it is read.
const MaxPropertyFile = 16 << 20

// LoadPropertiesFile reads a property file in Java .properties syntax. It
// must be a regular file (a FIFO or `<(...)` is refused at once rather than
// waited on) of at most MaxPropertyFile bytes.
func LoadPropertiesFile(path string) (Properties, error) {
	b, err := ReadPropertyFile(path)
	if err != nil {
		return Properties{}, err
	}
	p, err := ParseProperties(bytes.NewReader(b), path)
	if err != nil {
		return Properties{}, err
	}
	return p, nil
}

// ReadPropertyFile reads a property file's bytes as LoadPropertiesFile
// does: a regular file of at most MaxPropertyFile bytes.
func ReadPropertyFile(path string) ([]byte, error) {
	b, err := inputfile.ReadFile(path, MaxPropertyFile)
	if errors.Is(err, inputfile.ErrNotRegular) {
		return nil, fmt.Errorf("read property file: %w (give -P a property file on disk; copy a pipe's output to one first)", err)
	}
	if err != nil {
		return nil, fmt.Errorf("read property file: %w", err)
	}
	return b, nil
}

// ParseOverride applies one -p argument ("key=value") to p.
func (p Properties) ParseOverride(arg string) error {
	k, v, ok := strings.Cut(arg, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return fmt.Errorf("-p %q: expected key=value, e.g. -p recordcount=1000", arg)
	}
	p.Set(k, v, OverrideSource)
	return nil
}

// maxPropertyLine bounds one logical line, so a corrupt or binary file fails
// with an error instead of exhausting memory.
const maxPropertyLine = 1 << 20

// ParseProperties reads Java .properties syntax: '#' or '!' comment lines;
// key and value separated by '=', ':' or blanks; a line ending in an odd
// number of backslashes continues on the next; backslash escapes (\t \n \r \f
// \uXXXX, and \x for any other x). source names the input in error messages.
// Input is read as UTF-8, where Java assumes ISO-8859-1; YCSB's files are ASCII.
func ParseProperties(r io.Reader, source string) (Properties, error) {
	p := NewProperties()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxPropertyLine)
	sc.Split(scanPropertyLines)
	var (
		logical strings.Builder
		cont    bool
		lineNo  int
		startNo int
	)
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if !utf8.ValidString(line) {
			return Properties{}, fmt.Errorf("%s:%d: not valid UTF-8 text", source, lineNo)
		}
		trimmed := strings.TrimLeft(line, " \t\f")
		if !cont {
			if trimmed == "" || trimmed[0] == '#' || trimmed[0] == '!' {
				continue
			}
			startNo = lineNo
			logical.Reset()
		}
		more := endsWithOddBackslashes(trimmed)
		if more {
			trimmed = trimmed[:len(trimmed)-1]
		}
		if logical.Len()+len(trimmed) > maxPropertyLine {
			return Properties{}, fmt.Errorf("%s:%d: logical line longer than %d bytes", source, startNo, maxPropertyLine)
		}
		logical.WriteString(trimmed)
		cont = more
		if cont {
			continue
		}
		k, v, err := splitProperty(logical.String())
		if err != nil {
			return Properties{}, fmt.Errorf("%s:%d: %w", source, startNo, err)
		}
		p.Set(k, v, source)
	}
	if err := sc.Err(); err != nil {
		return Properties{}, fmt.Errorf("read %s: %w", source, err)
	}
	if cont {
		k, v, err := splitProperty(logical.String())
		if err != nil {
			return Properties{}, fmt.Errorf("%s:%d: %w", source, startNo, err)
		}
		p.Set(k, v, source)
	}
	return p, nil
}

// scanPropertyLines splits on \n, \r or \r\n, as Java's LineReader does.
func scanPropertyLines(data []byte, atEOF bool) (int, []byte, error) {
	for i, c := range data {
		switch c {
		case '\n':
			return i + 1, data[:i], nil
		case '\r':
			if i+1 < len(data) {
				if data[i+1] == '\n' {
					return i + 2, data[:i], nil
				}
				return i + 1, data[:i], nil
			}
			if atEOF {
				return i + 1, data[:i], nil
			}
			return 0, nil, nil // need one more byte to see whether \n follows
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

func endsWithOddBackslashes(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitProperty splits one logical line (leading blanks removed) into its
// unescaped key and value.
func splitProperty(line string) (string, string, error) {
	keyEnd, valStart := len(line), len(line)
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '\\' {
			i++ // the escaped character belongs to the key
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			keyEnd = i
			j := i
			for j < len(line) && (line[j] == ' ' || line[j] == '\t' || line[j] == '\f') {
				j++
			}
			if c != '=' && c != ':' && j < len(line) && (line[j] == '=' || line[j] == ':') {
				j++
			} else if c == '=' || c == ':' {
				j = i + 1
			}
			for j < len(line) && (line[j] == ' ' || line[j] == '\t' || line[j] == '\f') {
				j++
			}
			valStart = j
			break
		}
	}
	k, err := unescapeProperty(line[:keyEnd])
	if err != nil {
		return "", "", fmt.Errorf("key %q: %w", line[:keyEnd], err)
	}
	v, err := unescapeProperty(line[valStart:])
	if err != nil {
		return "", "", fmt.Errorf("value of %s: %w", k, err)
	}
	return k, v, nil
}

func unescapeProperty(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			break // a lone trailing backslash is dropped, as Java does
		}
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", fmt.Errorf(`malformed \uXXXX escape %q: need four hex digits`, s[i-1:])
			}
			n, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", fmt.Errorf(`malformed \uXXXX escape %q: need four hex digits`, s[i-1:i+5])
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}
