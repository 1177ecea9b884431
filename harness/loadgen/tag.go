package loadgen

import (
	"errors"
	"fmt"
	"strings"
)

// Tag returns the interval-log tag of a measurement's histogram of one kind:
// the measurement (READ, READ-FAILED, or a name YCSB's output gave) and the
// kind after the last dot, e.g. READ.intended or READ-FAILED.service. It is
// the one builder of tags; ParseTag is its inverse.
func Tag(measurement string, k Kind) string { return measurement + "." + k.String() }

// ErrNoKind is ParseTag's answer for a bare tag ("READ", no dot): a
// measurement without a kind, as a log of one kind only holds. The
// measurement is still returned.
var ErrNoKind = errors.New("interval-log tag names no kind")

// ParseTag splits an interval-log tag into its measurement and kind, the
// inverse of Tag: the kind is after the last dot (a measurement may hold
// dots; a kind never does). A bare tag returns itself as the measurement
// with ErrNoKind; an empty tag or measurement, or a kind other than
// intended and service, is an error.
func ParseTag(tag string) (measurement string, k Kind, err error) {
	i := strings.LastIndexByte(tag, '.')
	if i < 0 {
		if tag == "" {
			return "", 0, errors.New("empty interval-log tag")
		}
		return tag, 0, ErrNoKind
	}
	measurement, kind := tag[:i], tag[i+1:]
	if measurement == "" {
		return "", 0, fmt.Errorf("interval-log tag %q names no measurement before its kind", tag)
	}
	for k := range numKinds {
		if kind == k.String() {
			return measurement, k, nil
		}
	}
	return "", 0, fmt.Errorf("interval-log tag %q: kind %q is neither %s nor %s", tag, kind, Intended, Service)
}
