package workload

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// unsupported are YCSB properties regress does not implement and whose
// being ignored would change what a run does or measures: a value other
// than the one regress behaves as (honoured) is refused by name with what
// to do, never passed over in silence.
var unsupported = []struct {
	key      string
	honoured func(v string) bool
	what     string
}{
	{"dataintegrity", isFalse, "regress does not check the values it reads against the ones written; run YCSB itself (bin/ycsb run hbase2 -p dataintegrity=true) for that check, or leave dataintegrity out"},
	{"clientbuffering", isFalse, "regress's HBase client sends each write at once, as YCSB's hbase2 binding does without buffering; leave clientbuffering out (or false)"},
	{"core_workload_insertion_retry_limit", isZero, "regress does not retry a failed insert, it counts it as failed; leave core_workload_insertion_retry_limit out (or 0)"},
	{"measurementtype", func(v string) bool { return v == "hdrhistogram" }, "regress records HDR histograms only; leave measurementtype out (or hdrhistogram)"},
}

// isFalse is Java's Boolean.parseBoolean(v) == false, as YCSB reads a flag.
func isFalse(v string) bool { return !strings.EqualFold(v, "true") }

// isZero says whether v is a whole number 0.
func isZero(v string) bool { n, err := strconv.Atoi(v); return err == nil && n == 0 }

// CheckUnsupported refuses a property regress does not implement when its
// value asks for behaviour regress lacks: "regress does not support
// dataintegrity=true (-p): regress does not check...".
func CheckUnsupported(p Properties) error {
	var errs []error
	for _, u := range unsupported {
		v, ok := p.Get(u.key)
		if !ok || u.honoured(strings.TrimSpace(v)) {
			continue
		}
		errs = append(errs, fmt.Errorf("regress does not support %s=%s (%s): %s", u.key, strings.TrimSpace(v), cmpSource(p.Source(u.key)), u.what))
	}
	return errors.Join(errs...)
}

// cmpSource names where a property was set, for an error.
func cmpSource(src string) string {
	if src == "" {
		return "defaults"
	}
	return "set in " + src
}
