package main

import (
	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/job"
)

// checked is a flag its package checks when it is parsed (job.Checked).
func checked[T any](p *T, parse func(string) (T, error), typ string) pflag.Value {
	return job.Checked[T]{P: p, Parse: parse, Typ: typ}
}

// quorumVar defines a ZooKeeper quorum flag (127.0.0.1:x, :99999 or an empty item refused).
func quorumVar(f *pflag.FlagSet, p *string, name, usage string) {
	parse := func(s string) (string, error) { _, err := hbase.ParseQuorum(s); return s, err }
	f.Var(checked(p, parse, "string"), name, usage)
}

// infoPortVar defines an info server port flag (0, past 65535 or not a number refused).
func infoPortVar(f *pflag.FlagSet, p *int, name, usage string) {
	f.Var(checked(p, hbase.ParseInfoPort, "port"), name, usage)
}

// znodeVar defines a znode path flag with a default (checked as
// zookeeper.znode.parent is: absolute, no empty element), refused when parsed.
func znodeVar(f *pflag.FlagSet, p *string, name, value, usage string) {
	*p = value
	parse := func(s string) (string, error) { return s, job.CheckZNode("--"+name, s) }
	f.Var(checked(p, parse, "string"), name, usage)
}

// countVar defines a count whose default 0 means the suite's (0 given is refused).
func countVar(f *pflag.FlagSet, p *int, name, usage string) {
	f.Var(checked(p, job.ParseCount, "int"), name, usage)
}
