package main

import (
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
