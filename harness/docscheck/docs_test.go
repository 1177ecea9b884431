package docscheck

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// maxReadmeLines keeps the README a front door, not the manual.
const maxReadmeLines = 200

// exampleTimeout bounds one example; none that needs no HBase takes a second.
const exampleTimeout = 2 * time.Minute

// pendingPages are linked from the README but written on other branches of
// this round; a link to one that is not here yet is logged, not failed.
var pendingPages = []string{"docs/profiles.md", "docs/noise.md"}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// regressBinary builds harness/cmd/regress once per test binary.
func regressBinary(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "docscheck-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "regress")
		cmd := exec.Command("go", "build", "-o", binPath, "./harness/cmd/regress")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./harness/cmd/regress: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// docFiles lists README.md and every Markdown file under docs/, relative to root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// example is one command line from a shell block of the docs.
type example struct {
	file  string
	line  int
	block int // index of its block in the file: examples of one block share a directory
	text  string
}

func (e example) String() string { return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.text) }

// shellBlocks are the fence info strings whose blocks hold commands to run.
var shellBlocks = []string{"sh", "shell", "bash", "console"}

// examples returns the command lines of every shell block in file (continued
// lines joined, `$ ` prompts and comment lines dropped).
func examples(t *testing.T, root, file string) []example {
	t.Helper()
	f, err := os.Open(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []example
	sc := bufio.NewScanner(f)
	inBlock, runnable, block, n := false, false, 0, 0
	var cur strings.Builder
	curLine := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			if inBlock {
				inBlock = false
				continue
			}
			inBlock, block = true, block+1
			runnable = slices.Contains(shellBlocks, strings.TrimSpace(strings.TrimPrefix(trimmed, "```")))
			continue
		}
		if !inBlock || !runnable {
			continue
		}
		if cur.Len() == 0 {
			if trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			curLine = n
			trimmed = strings.TrimPrefix(trimmed, "$ ")
		}
		if strings.HasSuffix(trimmed, `\`) {
			cur.WriteString(strings.TrimSuffix(trimmed, `\`) + " ")
			continue
		}
		cur.WriteString(trimmed)
		out = append(out, example{file: file, line: curLine, block: block, text: cur.String()})
		cur.Reset()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// command is an example parsed: what runs, what it documents, how it is written.
type command struct {
	args     []string // arguments after the program name
	regress  bool     // the program is regress (or go run ./harness/cmd/regress)
	wantExit int
	stdout   string // file named by a trailing > redirect
	shellOps bool   // a pipe, &&, ; or & that the test does not run
}

var exitComment = regexp.MustCompile(`\bexit (\d+)\b`)

// parse splits an example into words the way sh would for the simple
// commands the docs show: quotes, backslash escapes, a trailing # comment
// (whose "exit N" is the documented exit code) and a trailing > FILE.
func parse(text string) (command, error) {
	var c command
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' && i+1 < len(rs) {
				i++
				w.WriteRune(rs[i])
			} else {
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			w.WriteRune(rs[i])
			inWord = true
		case r == '#' && !inWord:
			if m := exitComment.FindStringSubmatch(string(rs[i:])); m != nil {
				c.wantExit, _ = strconv.Atoi(m[1])
			}
			i = len(rs)
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return c, fmt.Errorf("unclosed %c quote", quote)
	}
	if inWord {
		words = append(words, w.String())
	}
	for i := 0; i < len(words); i++ {
		switch words[i] {
		case "|", "||", "&&", ";", "&":
			c.shellOps = true
		case ">":
			if i+1 >= len(words) {
				return c, errors.New("> without a file")
			}
			c.stdout = words[i+1]
			words = append(words[:i], words[i+2:]...)
			i--
		}
	}
	switch {
	case len(words) > 0 && words[0] == "regress":
		c.regress, c.args = true, words[1:]
	case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./harness/cmd/regress":
		c.regress, c.args = true, words[3:]
	default:
		c.args = words
	}
	return c, nil
}

// rule says whether an example runs here, and why not when it does not.
// Every regress example must fall under one rule, so a new command is a
// deliberate choice here, not a silent skip.
func rule(c command) (run bool, why string, err error) {
	if !c.regress {
		return false, "not a regress command", nil
	}
	if slices.Contains(c.args, "--help") || slices.Contains(c.args, "-h") {
		return true, "", nil
	}
	if len(c.args) == 0 {
		return false, "", errors.New("regress without arguments documents nothing")
	}
	switch c.args[0] {
	case "compare", "plan", "import-ycsb", "completion", "help":
		return true, "", nil
	case "results":
		if len(c.args) > 1 {
			switch c.args[1] {
			case "list", "check":
				return true, "", nil
			case "remove":
				// Examples link the repository's testdata into their directory:
				// a remove there would delete the fixture.
				return false, "removes stored results: never run against the repository's fixture", nil
			}
		}
	case "run", "capacity", "history", "bisect":
		return false, "needs HBase: starts or connects to the clusters it measures", nil
	case "cluster":
		return false, "needs Maven and a JDK: starts HBase or asks Maven for versions", nil
	case "ycsb", "doctor", "worker":
		return false, "needs HBase: talks to the cluster at --zk", nil
	}
	if strings.HasPrefix(c.args[0], "-") {
		return false, "needs HBase: the main job starts or connects to both sides' clusters", nil
	}
	return false, "", fmt.Errorf("no rule for regress %s: add it to rule() in harness/docscheck", c.args[0])
}

// workDir makes a directory that looks like the repository root to an
// example (every top-level entry linked) but holds a store and reports of
// its own, so examples write nothing into the repository.
func workDir(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		switch e.Name() {
		case ".git", "baselines", "reports":
			continue
		}
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"baselines", "reports"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// exampleEnv is the environment without what would send output elsewhere.
func exampleEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GITHUB_STEP_SUMMARY", "REGRESS_SCENARIOS", "REGRESS_CACHE_DIR", "HOME":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "REGRESS_CACHE_DIR="+filepath.Join(home, "cache"))
}

// TestExamplesRun runs every example of the docs that needs no HBase and
// checks that it exits as documented; the others are logged with the rule
// that skipped them.
func TestExamplesRun(t *testing.T) {
	root := repoRoot(t)
	bin := regressBinary(t)
	ran := 0
	for _, file := range docFiles(t, root) {
		exs := examples(t, root, file)
		dirs := map[int]string{}
		for _, ex := range exs {
			c, err := parse(ex.text)
			if err != nil {
				t.Errorf("%v: %v", ex, err)
				continue
			}
			run, why, err := rule(c)
			if err != nil {
				t.Errorf("%v: %v", ex, err)
				continue
			}
			if !run {
				t.Logf("skip %v (%s)", ex, why)
				continue
			}
			if c.shellOps {
				t.Errorf("%v: a runnable example must be one command without pipes or &", ex)
				continue
			}
			dir, ok := dirs[ex.block]
			if !ok {
				dir = workDir(t, root)
				dirs[ex.block] = dir
			}
			ran++
			runExample(t, bin, dir, ex, c)
		}
	}
	// The docs show at least the help, compare, plan, results and import
	// examples; far fewer means the parser stopped finding them.
	if ran < 10 {
		t.Errorf("ran %d examples; the docs hold more than 10 that need no HBase, so the parser is broken", ran)
	}
	t.Logf("ran %d examples", ran)
}

func runExample(t *testing.T, bin, dir string, ex example, c command) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), exampleTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, c.args...)
	cmd.Dir = dir
	cmd.Env = exampleEnv(dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		t.Errorf("%v: %v", ex, err)
		return
	}
	if ctx.Err() != nil {
		t.Errorf("%v: still running after %v", ex, exampleTimeout)
		return
	}
	if c.stdout != "" {
		if err := os.WriteFile(filepath.Join(dir, c.stdout), stdout.Bytes(), 0o644); err != nil {
			t.Errorf("%v: %v", ex, err)
		}
	}
	if got != c.wantExit {
		t.Errorf("%v: exit %d, the docs say %d\nstdout:\n%s\nstderr:\n%s", ex, got, c.wantExit, tail(stdout.String()), tail(stderr.String()))
		return
	}
	if stdout.Len()+stderr.Len() == 0 {
		t.Errorf("%v: printed nothing", ex)
	}
	t.Logf("ran  %v (exit %d)", ex, got)
}

// tail keeps the last lines of an output for an error message.
func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	return strings.Join(lines, "\n")
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		text string
		want command
	}{
		{"regress --help", command{regress: true, args: []string{"--help"}}},
		{"go run ./harness/cmd/regress compare --baseline a --candidate b   # exit 1: REGRESSION",
			command{regress: true, args: []string{"compare", "--baseline", "a", "--candidate", "b"}, wantExit: 1}},
		{`regress --baseline 2.6.0 --candidate 2.6.1 --format markdown > perf.md`,
			command{regress: true, args: []string{"--baseline", "2.6.0", "--candidate", "2.6.1", "--format", "markdown"}, stdout: "perf.md"}},
		{`regress plan --suite 'a b' --x "c\"d"`, command{regress: true, args: []string{"plan", "--suite", "a b", "--x", `c"d`}}},
		{"regress cluster up --version 2.6.1 &  # prints zookeeper=...", command{regress: true, args: []string{"cluster", "up", "--version", "2.6.1", "&"}, shellOps: true}},
		{"make test", command{args: []string{"make", "test"}}},
		{"jq .manifest x#y", command{args: []string{"jq", ".manifest", "x#y"}}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			got, err := parse(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.args, tc.want.args) || got.regress != tc.want.regress || got.wantExit != tc.want.wantExit ||
				got.stdout != tc.want.stdout || got.shellOps != tc.want.shellOps {
				t.Errorf("parse(%q) = %+v, want %+v", tc.text, got, tc.want)
			}
		})
	}
	if _, err := parse(`regress "unclosed`); err == nil {
		t.Error("an unclosed quote parsed")
	}
}

func TestRule(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		regress bool
		run     bool
		err     bool
	}{
		{[]string{"--help"}, true, true, false},
		{[]string{"cluster", "up", "--help"}, true, true, false},
		{[]string{"compare", "--baseline", "a"}, true, true, false},
		{[]string{"results", "list"}, true, true, false},
		{[]string{"results", "check", "--store", "s"}, true, true, false},
		{[]string{"results", "remove", "a/b-0123"}, true, false, false},
		{[]string{"results", "frobnicate"}, true, false, true},
		{[]string{"history", "--versions", "2.6.0,2.6.1"}, true, false, false},
		{[]string{"bisect", "--good", "2.6.0", "--bad", "2.6.1"}, true, false, false},
		{[]string{"import-ycsb", "f"}, true, true, false},
		{[]string{"--baseline", "2.6.0", "--candidate", "2.6.1"}, true, false, false},
		{[]string{"run", "--version", "2.6.1"}, true, false, false},
		{[]string{"ycsb", "run", "--zk", "x"}, true, false, false},
		{[]string{"doctor", "--zk", "x"}, true, false, false},
		{[]string{"make", "test"}, false, false, false},
		{[]string{"frobnicate"}, true, false, true},
		{nil, true, false, true},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			run, why, err := rule(command{regress: tc.regress, args: tc.args})
			if (err != nil) != tc.err || run != tc.run {
				t.Errorf("rule(%v) = %v, %q, %v; want run %v, error %v", tc.args, run, why, err, tc.run, tc.err)
			}
			if !run && err == nil && why == "" {
				t.Errorf("rule(%v) skips without saying why", tc.args)
			}
		})
	}
}

// commandPaths walks regress's help from the root and returns every
// command path ("", "run", "results list", ...) but cobra's own.
func commandPaths(t *testing.T, bin string, prefix []string) [][]string {
	t.Helper()
	paths := [][]string{prefix}
	for _, sub := range section(help(t, bin, prefix), "Available Commands:") {
		name := strings.Fields(sub)[0]
		if name == "help" || name == "completion" {
			continue
		}
		paths = append(paths, commandPaths(t, bin, append(slices.Clone(prefix), name))...)
	}
	return paths
}

func help(t *testing.T, bin string, path []string) string {
	t.Helper()
	out, err := exec.Command(bin, append(slices.Clone(path), "--help")...).CombinedOutput()
	if err != nil {
		t.Fatalf("regress %s --help: %v\n%s", strings.Join(path, " "), err, out)
	}
	return string(out)
}

// section returns the indented lines under a help heading.
func section(help, heading string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(help, "\n") {
		switch {
		case l == heading:
			in = true
		case in && strings.HasPrefix(l, "  "):
			out = append(out, strings.TrimSpace(l))
		case in:
			return out
		}
	}
	return out
}

var longFlag = regexp.MustCompile(`--[a-z][a-z0-9-]*`)

// TestUsageNamesEveryFlag fails when a command or flag regress --help
// prints is missing from docs/usage.md.
func TestUsageNamesEveryFlag(t *testing.T) {
	root := repoRoot(t)
	bin := regressBinary(t)
	b, err := os.ReadFile(filepath.Join(root, "docs", "usage.md"))
	if err != nil {
		t.Fatal(err)
	}
	usage := string(b)
	for _, path := range commandPaths(t, bin, nil) {
		name := strings.TrimSpace("regress " + strings.Join(path, " "))
		if len(path) > 0 && !strings.Contains(usage, name) {
			t.Errorf("docs/usage.md does not mention %q", name)
		}
		for _, l := range section(help(t, bin, path), "Flags:") {
			f := longFlag.FindString(l)
			if f == "" || f == "--help" {
				continue
			}
			if !regexp.MustCompile(regexp.QuoteMeta(f) + `\b`).MatchString(usage) {
				t.Errorf("docs/usage.md does not name %s of %q", f, name)
			}
		}
	}
}

var (
	tableRow   = regexp.MustCompile("^\\| `(harness/[^`]+|scenarios)` \\|.*\\| ([^|]*) \\|$")
	importName = regexp.MustCompile("`([^`]+)`")
)

// TestPackageTableMatchesImports checks docs/development.md's package table
// against `go list`: every package listed, each with its imports of ours.
func TestPackageTableMatchesImports(t *testing.T) {
	root := repoRoot(t)
	// Named as the table names them: harness/ packages without it, and
	// the scenarios package (the built-in suites) by its own name.
	const module = "github.com/regress-hbase/regress/"
	name := func(p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, module), "harness/") }
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports ","}}`, "./harness/...", "./scenarios")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	want := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imps, _ := strings.Cut(l, " ")
		var ours []string
		for _, imp := range strings.Split(imps, ",") {
			if strings.HasPrefix(imp, module) {
				ours = append(ours, name(imp))
			}
		}
		slices.Sort(ours)
		want[name(pkg)] = ours
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "development.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, l := range strings.Split(string(b), "\n") {
		m := tableRow.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var imps []string
		for _, n := range importName.FindAllStringSubmatch(m[2], -1) {
			imps = append(imps, n[1])
		}
		slices.Sort(imps)
		got[name(m[1])] = imps
	}
	for pkg, imps := range want {
		g, ok := got[pkg]
		switch {
		case !ok:
			t.Errorf("docs/development.md's package table lacks harness/%s (imports %v)", pkg, imps)
		case !slices.Equal(g, imps):
			t.Errorf("docs/development.md says harness/%s imports %v; the code imports %v", pkg, g, imps)
		}
	}
	for pkg := range got {
		if _, ok := want[pkg]; !ok {
			t.Errorf("docs/development.md lists harness/%s, which is no package", pkg)
		}
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinksResolve checks every relative link of the docs: the file exists
// and, with a #fragment into a Markdown file, so does the heading.
func TestLinksResolve(t *testing.T) {
	root := repoRoot(t)
	for _, file := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			rel := file
			if path != "" {
				rel = filepath.Join(filepath.Dir(file), path)
			}
			if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
				if slices.Contains(pendingPages, filepath.ToSlash(rel)) {
					t.Logf("%s: %s is written on another branch of this round; not here yet", file, rel)
					continue
				}
				t.Errorf("%s: link %s: %s does not exist", file, target, rel)
				continue
			}
			if frag != "" && strings.HasSuffix(rel, ".md") && !slices.Contains(anchors(t, filepath.Join(root, rel)), frag) {
				t.Errorf("%s: link %s: %s has no heading with anchor #%s", file, target, rel, frag)
			}
		}
	}
}

// anchors returns GitHub's anchors of a Markdown file's headings: lower
// case, punctuation but - and _ dropped, spaces as -.
func anchors(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	inFence := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		var a strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				a.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				a.WriteRune(r)
			}
		}
		out = append(out, a.String())
	}
	return out
}

func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > maxReadmeLines {
		t.Errorf("README.md has %d lines; keep it at most %d and move the rest to a docs/ page", n, maxReadmeLines)
	}
}
