package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/hbase"
)

// quorumFlag is a flag that takes a ZooKeeper quorum: a bad address
// (127.0.0.1:x, :99999, an empty item) is refused when the flag is parsed
// (exit 2), not found when the connection times out.
type quorumFlag struct{ p *string }

func (q quorumFlag) String() string {
	if q.p == nil {
		return ""
	}
	return *q.p
}

// Set checks s as a quorum and keeps it as given.
func (q quorumFlag) Set(s string) error {
	if _, err := hbase.ParseQuorum(s); err != nil {
		return err
	}
	*q.p = s
	return nil
}

// Type is "string", as the help printed it before the check.
func (quorumFlag) Type() string { return "string" }

// quorumVar defines a ZooKeeper quorum flag bound to p.
func quorumVar(f *pflag.FlagSet, p *string, name, usage string) {
	f.Var(quorumFlag{p}, name, usage)
}

// countFlag is an int flag whose default 0 means "the suite's", so a value
// given must be at least 1: `--region-servers 0` is refused, not read as
// the default.
type countFlag struct{ p *int }

func (c countFlag) String() string {
	if c.p == nil {
		return "0"
	}
	return strconv.Itoa(*c.p)
}

// Set refuses anything but a whole number of at least 1.
func (c countFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return fmt.Errorf("%q is not a count: give a whole number of at least 1, or leave the flag out for the suite's", s)
	}
	*c.p = n
	return nil
}

// Type is "int", as the help printed it before the check.
func (countFlag) Type() string { return "int" }

// storeFlag is --store: an empty value is refused, not read as the default
// (./baselines), which would write somewhere the user did not name.
type storeFlag struct{ p *string }

func (s storeFlag) String() string {
	if s.p == nil {
		return ""
	}
	return *s.p
}

// Set refuses an empty or blank directory.
func (s storeFlag) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("the results store directory is empty: give a directory, e.g. --store baselines (the default)")
	}
	*s.p = v
	return nil
}

// Type is "string", as the help printed it before the check.
func (storeFlag) Type() string { return "string" }

// outFlag is --out: an empty value is refused, not read as the default
// (reports/<timestamp>), a directory the user did not name, as --store's is.
type outFlag struct{ p *string }

func (o outFlag) String() string {
	if o.p == nil {
		return ""
	}
	return *o.p
}

// Set refuses an empty or blank directory.
func (o outFlag) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("the report directory is empty: give a directory, e.g. --out reports/NAME, or leave the flag out (reports/<timestamp>)")
	}
	*o.p = v
	return nil
}

// Type is "string", as the help printed it before the check.
func (outFlag) Type() string { return "string" }
