package job

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/history"
	"github.com/regress-hbase/regress/harness/report"
)

// Checked is a flag value (pflag's Value) whose package checks it when the
// flag is parsed, so a bad one is refused at once (exit 2), not found when
// it is used: Parse reads the text into *P; Typ is what the help prints.
type Checked[T any] struct {
	P     *T
	Parse func(string) (T, error)
	Typ   string
}

// String is the flag's value as the help prints its default.
func (c Checked[T]) String() string {
	if c.P == nil {
		var zero T
		return fmt.Sprint(zero)
	}
	return fmt.Sprint(*c.P)
}

// Set parses s and stores it; a refused value leaves the flag as it was.
func (c Checked[T]) Set(s string) error {
	v, err := c.Parse(s)
	if err == nil {
		*c.P = v
	}
	return err
}

// Type is the value's name in the help.
func (c Checked[T]) Type() string { return c.Typ }

// ParseFormat reads --format of a comparison's report: a format's name or
// one of its aliases, in any case (JSON, md, txt), returned as its name.
func ParseFormat(s string) (string, error) {
	if name, ok := report.FormatName(s); ok {
		return name, nil
	}
	return "", fmt.Errorf("%q is no report format: choose one of %s", s, report.FormatChoices())
}

// ParseHistoryFormat reads --format of `regress history`, as ParseFormat does.
func ParseHistoryFormat(s string) (string, error) {
	if f, ok := history.Formats.Lookup(s); ok {
		return f.Name, nil
	}
	return "", fmt.Errorf("%q is no history format: choose one of %s", s, history.Formats.Choices())
}

// Nearest returns the names within two edits of typed (a swapped, missing
// or extra letter), nearest first, or else those that begin with it; three
// at most: what "did you mean" offers.
func Nearest(typed string, names []string) []string {
	type near struct {
		name string
		d    int
	}
	var nearby, prefixed []near
	t := strings.ToLower(typed)
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		l := strings.ToLower(n)
		if d := editDistance(t, l); d <= 2 {
			nearby = append(nearby, near{n, d})
		} else if t != "" && strings.HasPrefix(l, t) {
			prefixed = append(prefixed, near{n, d})
		}
	}
	if len(nearby) == 0 {
		nearby = prefixed
	}
	slices.SortStableFunc(nearby, func(a, b near) int { return a.d - b.d })
	var out []string
	for _, f := range nearby[:min(len(nearby), 3)] {
		out = append(out, f.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := range ra {
		cur := make([]int, len(rb)+1)
		cur[0] = i + 1
		for j := range rb {
			cost := 1
			if ra[i] == rb[j] {
				cost = 0
			}
			cur[j+1] = min(prev[j+1]+1, cur[j]+1, prev[j]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

// didYouMean is "; did you mean a or b?" for the nearest names, "" when none is near.
func didYouMean(typed string, names []string, prefix string) string {
	s := Nearest(typed, names)
	if len(s) == 0 {
		return ""
	}
	for i := range s {
		s[i] = prefix + s[i]
	}
	return "; did you mean " + strings.Join(s, " or ") + "?"
}

// UnknownCommand is the usage error for args given to a command that only
// groups others (path, whose commands are names) or to the root: the
// nearest command when the first is a word, else a word that a command
// must come before the flags.
func UnknownCommand(path string, args, names []string) error {
	if len(args) > 0 && strings.HasPrefix(args[0], "-") {
		return fault.Usagef("%s takes one of its commands (%s) before %s; see `%s --help`", path, strings.Join(names, ", "), args[0], path)
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], path)
	if s := didYouMean(args[0], names, ""); s != "" {
		return fault.Usagef("%s%s", msg, s)
	}
	return fault.Usagef("%s (its commands: %s); see `%s --help`", msg, strings.Join(names, ", "), path)
}

// ycsbProperty is the -p form of a YCSB flag regress takes as a long flag.
func ycsbProperty(flag string) string {
	if flag == "threads" {
		return "threadcount=N"
	}
	return flag + "=VALUE"
}

// FlagError is a command's flag parsing error as a usage error: an unknown
// flag names the nearest of the command's flags (names without dashes),
// "unknown flag --baselin for regress; did you mean --baseline?".
func FlagError(path string, err error, names []string) error {
	if err == nil {
		return nil
	}
	if typed, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
		msg := fmt.Sprintf("unknown flag --%s for %s", typed, path)
		if s := didYouMean(typed, names, "--"); s != "" {
			return fault.Usagef("%s%s", msg, s)
		}
		return fault.Usagef("%s; see `%s --help` for its flags", msg, path)
	}
	if _, word, ok := strings.Cut(err.Error(), "' in -"); ok && strings.HasPrefix(err.Error(), "unknown shorthand flag") && slices.Contains(names, word) {
		// pflag reads YCSB's -threads as the shorthands -t -h -r ...
		return fault.Usagef("%s takes --%s with two dashes: -%s is YCSB's single-dash spelling, which only -P and -p keep here (or give -p %s)", path, word, word, ycsbProperty(word))
	}
	if strings.HasPrefix(err.Error(), "unknown shorthand flag") {
		return fault.Usage(fmt.Errorf("%w; see `%s --help` for its flags", err, path))
	}
	var ue *fault.UsageError
	if errors.As(err, &ue) {
		return err
	}
	return fault.Usage(err)
}

// PrintError writes the error a command ended with to stderr in the
// command's --log-format: "regress: ..." as text, one JSON object (level
// ERROR, the message and the exit code) as json, so a CI reading JSON
// lines meets no plain-text line at the end.
func PrintError(stderr io.Writer, format string, code int, err error) {
	if err == nil || err.Error() == "" {
		return
	}
	if format == "json" {
		slog.New(slog.NewJSONHandler(stderr, nil)).Error(err.Error(), "exit_code", code)
		return
	}
	fmt.Fprintln(stderr, "regress:", err)
}
