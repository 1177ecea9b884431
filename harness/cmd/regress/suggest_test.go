package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestUnknownNamesSuggestTheNearest: a mistyped command or flag, at the
// root or below, is a usage error naming the nearest; a group's flags are
// its commands' (`ycsb runn --zk` is about runn).
func TestUnknownNamesSuggestTheNearest(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compre"}, `unknown command "compre" for "regress"; did you mean compare?`},
		{[]string{"--baselin", "2.6.0"}, "unknown flag --baselin for regress; did you mean --baseline?"},
		{[]string{"compare", "--baselin", "x"}, "unknown flag --baselin for regress compare; did you mean --baseline?"},
		{[]string{"results", "lisst"}, `unknown command "lisst" for "regress results"; did you mean list?`},
		{[]string{"ycsb", "runn", "--zk", "x"}, `unknown command "runn" for "regress ycsb"; did you mean run?`},
		{[]string{"ycsb", "--zk", "x"}, "regress ycsb takes one of its commands (create-table, load, run) before --zk"},
		{[]string{"cluster", "up", "--versoin", "2.6.1"}, "did you mean --version?"},
		{[]string{"history", "--refrence", "2.6.0"}, "did you mean --reference?"},
		{[]string{"compare", "--log-fromat", "json"}, "did you mean --log-format?"},
		{[]string{"zzzzzz"}, `unknown command "zzzzzz" for "regress" (its commands: bisect, capacity,`},
		{[]string{"compare", "--zzzzzz"}, "unknown flag --zzzzzz for regress compare; see `regress compare --help` for its flags"},
	} {
		_, _, err := runCLI(t, tc.args...)
		if codeOf(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("regress %s: %v (exit %d), want exit 2 saying %q", strings.Join(tc.args, " "), err, codeOf(err), tc.want)
		}
	}
	if out, _, err := runCLI(t, "results"); err != nil || !strings.Contains(out, "Available Commands") {
		t.Errorf("regress results: %v, want its help", err)
	}
}

// valueName is what a back-quoted word in a flag's usage may be: pflag
// prints it as the flag's value name (`N` in "--load-hosts N").
var valueName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// TestFlagUsageHasNoStrayValueName: pflag reads the first back-quoted text
// of a usage as the flag's value name, so "`regress cluster versions`"
// printed "--versions regress cluster versions". Back quotes in usage are
// for value names only.
func TestFlagUsageHasNoStrayValueName(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(f.Usage, "`") {
				return
			}
			if name, _ := pflag.UnquoteUsage(f); !valueName.MatchString(name) {
				t.Errorf("%s --%s: usage back-quotes %q, which pflag prints as the value name; rephrase without back quotes", c.CommandPath(), f.Name, name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}
