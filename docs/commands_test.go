// Package docs is the manuals of this repository. Its test keeps every
// command they and README.md name runnable as written.
package docs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The manuals: README.md and docs/*.md, relative to this folder.
const root = ".."

// subcommands are the commands that take a subcommand first. A bare first
// argument of one of them must be listed here, and the listed ones must be
// known to the binary (its -h names the subcommand and lists flags).
var subcommands = map[string][]string{
	"gamebot":       {"play", "healthcheck"},
	"giretra-ref":   {"validate", "benchmark", "swiss", "compare", "show", "report", "losses"},
	"battleref":     {"show", "report"},
	"othello-train": {"gen", "valid", "fit", "check", "mpc", "openings", "recode"},
	"giretra-train": {"gen", "fit", "check", "calib"},
	"othello-match": {"report", "losses", "solve"},
}

// flagless subcommands take no flag: -h would run them.
var flagless = map[string]bool{"gamebot healthcheck": true}

// goEnv are the variables of the go command itself a manual may set.
var goEnv = map[string]bool{"GOTOOLCHAIN": true, "GOOS": true, "GOARCH": true, "CGO_ENABLED": true, "GOFLAGS": true}

// A snippet is one command line of a manual: a line of a code block (its
// continuations joined) or an inline code span.
type snippet struct {
	where string // file:line
	text  string
}

// An invocation is one of our commands as a manual calls it.
type invocation struct {
	where, text string
	name        string   // the command (cmd/NAME)
	args        []string // after the command
}

// TestCommandsRunAsWritten checks every command line of README.md and
// docs/*.md: each `go run ./cmd/NAME …` (or NAME …, or a path ending in
// /NAME, as when a command is built first or quoted as another's engine)
// names a command of cmd/, its subcommand exists, and each flag it passes
// is one the command lists in its -h output; each package a go command
// names exists, with a test or benchmark for every -run and -bench
// pattern; each environment variable set is read somewhere in the module;
// each file given as curl's @FILE, each relative link and each repository
// path in inline code exists.
func TestCommandsRunAsWritten(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every command the manuals name")
	}
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	cmds := commandDirs(t)
	envRead := moduleSource(t)

	var calls []invocation
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, f)
		checkLinks(t, f, name, string(b))
		for _, s := range snippets(name, string(b)) {
			for _, line := range splitCommands(s.text) {
				toks := tokens(line)
				for len(toks) > 0 && isAssignment(toks[0]) {
					v, _, _ := strings.Cut(toks[0], "=")
					if !goEnv[v] && !bytes.Contains(envRead, []byte(`"`+v+`"`)) {
						t.Errorf("%s: %s sets %s, which nothing in the module reads", s.where, line, v)
					}
					toks = toks[1:]
				}
				if len(toks) == 0 {
					continue
				}
				calls = append(calls, checkGo(t, s.where, line, toks, cmds)...)
				if inv, ok := ours(s.where, line, toks, cmds); ok {
					calls = append(calls, inv)
					calls = append(calls, nested(s.where, inv.args, cmds)...)
				}
				for _, tok := range toks {
					if p, ok := strings.CutPrefix(tok, "@"); ok && strings.Contains(p, "/") {
						if _, err := os.Stat(filepath.Join(root, p)); err != nil {
							t.Errorf("%s: %s reads %s, which does not exist", s.where, line, p)
						}
					}
				}
			}
			checkPath(t, s, cmds)
		}
	}
	if len(calls) == 0 {
		t.Fatal("no command found in the manuals")
	}

	// Build the commands named, once, and ask each for its flags.
	var names []string
	for _, c := range calls {
		if !slices.Contains(names, c.name) {
			names = append(names, c.name)
		}
	}
	slices.Sort(names)
	bin := t.TempDir()
	args := []string{"build", "-o", bin + string(filepath.Separator)}
	for _, n := range names {
		args = append(args, "./cmd/"+n)
	}
	build := exec.Command("go", args...)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	helps := map[string]flagSet{}
	for _, c := range calls {
		checkFlags(t, c, filepath.Join(bin, c.name), helps)
	}
	t.Logf("%d calls of %d commands checked against %d flag lists", len(calls), len(names), len(helps))
}

// commandDirs are the folders of cmd/ that hold a main package.
func commandDirs(t *testing.T) map[string]bool {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join(root, "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]bool{}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		gos, _ := filepath.Glob(filepath.Join(root, "cmd", d.Name(), "*.go"))
		for _, g := range gos {
			b, err := os.ReadFile(g)
			if err == nil && !strings.HasSuffix(g, "_test.go") && regexp.MustCompile(`(?m)^package main$`).Match(b) {
				cmds[d.Name()] = true
				break
			}
		}
	}
	if len(cmds) == 0 {
		t.Fatal("no command in cmd/")
	}
	return cmds
}

// moduleSource is every non-test Go file of the module, concatenated: an
// environment variable a manual sets must be named in it.
func moduleSource(t *testing.T) []byte {
	t.Helper()
	var all []byte
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "data") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			all = append(all, b...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

var (
	fenceRE  = regexp.MustCompile("(?m)^ *```([a-z]*)[^\n]*\n((?s:.*?))^ *```[ \t]*$")
	inlineRE = regexp.MustCompile("`([^`]+)`")
	yamlRun  = regexp.MustCompile(`^\s*(?:-\s+)?run:\s*(.*)$`)
	linkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// snippets are a manual's command lines: every line of its code blocks
// (YAML: the run: lines), continuations joined, and every inline code span.
func snippets(file, doc string) []snippet {
	var out []snippet
	lineOf := func(off int) int { return 1 + strings.Count(doc[:off], "\n") }
	rest := doc
	for _, m := range fenceRE.FindAllStringSubmatchIndex(doc, -1) {
		lang, body := doc[m[2]:m[3]], doc[m[4]:m[5]]
		first := lineOf(m[4])
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		for i := 0; i < len(lines); i++ {
			n, l := first+i, lines[i]
			for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
				i++
				l = strings.TrimSuffix(l, `\`) + " " + lines[i]
			}
			if lang == "yaml" || lang == "yml" {
				sm := yamlRun.FindStringSubmatch(l)
				if sm == nil {
					continue
				}
				l = sm[1]
			}
			out = append(out, snippet{fmt.Sprintf("%s:%d", file, n), l})
		}
		// Blank the block (keeping its newlines) so that its backticks
		// start no inline span.
		blank := regexp.MustCompile(`[^\n]`).ReplaceAllString(doc[m[0]:m[1]], " ")
		rest = rest[:m[0]] + blank + rest[m[1]:]
	}
	for _, m := range inlineRE.FindAllStringSubmatchIndex(rest, -1) {
		span := rest[m[2]:m[3]]
		if strings.Contains(span, "\n\n") {
			continue
		}
		out = append(out, snippet{fmt.Sprintf("%s:%d", file, lineOf(m[2])), strings.Join(strings.Fields(span), " ")})
	}
	return out
}

// splitCommands cuts a line at the shell's separators outside quotes and
// drops a comment.
func splitCommands(line string) []string {
	var out []string
	var cur strings.Builder
	quote := byte(0)
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			flush()
			return out
		case c == ';' || c == '|' || c == '&':
			flush()
			continue
		}
		cur.WriteByte(c)
	}
	flush()
	return out
}

// tokens splits a command as the shell does: spaces separate words,
// quotes group them.
func tokens(cmd string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

var assignRE = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)

func isAssignment(tok string) bool { return assignRE.MatchString(tok) }

// ours reads a call of one of our commands: go run ./cmd/NAME …, NAME …,
// or a built binary's path ending in /NAME (a path into cmd/ is a mention
// of the source, not a call).
func ours(where, line string, toks []string, cmds map[string]bool) (invocation, bool) {
	if len(toks) >= 3 && toks[0] == "go" && toks[1] == "run" {
		if n, ok := strings.CutPrefix(toks[2], "./cmd/"); ok && cmds[n] {
			return invocation{where, line, n, toks[3:]}, true
		}
		return invocation{}, false
	}
	if strings.Contains(toks[0], "cmd/") || !cmds[filepath.Base(toks[0])] {
		return invocation{}, false
	}
	return invocation{where, line, filepath.Base(toks[0]), toks[1:]}, true
}

// nested are our commands quoted as the arguments of another, as
// othello-match's -a 'bin/othello-engine -movetime 100ms'.
func nested(where string, args []string, cmds map[string]bool) []invocation {
	var out []invocation
	for _, a := range args {
		toks := tokens(a)
		if len(toks) < 2 {
			continue
		}
		if inv, ok := ours(where, a, toks, cmds); ok {
			out = append(out, inv)
		}
	}
	return out
}

// goValueFlags are the go command's flags that take a value.
var goValueFlags = map[string]bool{"run": true, "bench": true, "fuzz": true, "benchtime": true, "timeout": true,
	"count": true, "cpu": true, "fuzztime": true, "list": true, "tags": true, "o": true, "p": true, "parallel": true,
	"ldflags": true, "gcflags": true, "C": true, "skip": true, "coverprofile": true, "cpuprofile": true}

const module = "github.com/botarena/gamebot"

// checkGo checks a go command: the packages it names exist, and every
// -run, -bench and -fuzz pattern of go test matches a function of theirs.
// It returns the command a go install names, as an invocation without
// arguments (so that it is built).
func checkGo(t *testing.T, where, line string, toks []string, cmds map[string]bool) []invocation {
	t.Helper()
	if toks[0] != "go" || len(toks) < 2 {
		return nil
	}
	switch toks[1] {
	case "run", "build", "test", "vet", "install", "doc", "generate", "list":
	default:
		return nil
	}
	var pkgs []string
	patterns := map[string]string{}
	var out []invocation
	args := toks[2:]
	if toks[1] == "run" && len(args) > 0 {
		args = args[:1] // the program's own arguments follow
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if name, ok := strings.CutPrefix(a, "-"); ok {
			name = strings.TrimPrefix(name, "-")
			k, v, hasV := strings.Cut(name, "=")
			if goValueFlags[k] && !hasV && i+1 < len(args) {
				i++
				v, hasV = args[i], true
			}
			if hasV && (k == "run" || k == "bench" || k == "fuzz") {
				patterns[k] = v
			}
			continue
		}
		p := a
		if rest, ok := strings.CutPrefix(a, module+"/"); ok {
			p, _, _ = strings.Cut("./"+rest, "@")
			if n, ok := strings.CutPrefix(p, "./cmd/"); ok && cmds[n] {
				out = append(out, invocation{where, line, n, nil})
			}
		}
		if p != "." && !strings.HasPrefix(p, "./") {
			continue
		}
		pkgs = append(pkgs, p)
		dir := strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
		if gos, _ := filepath.Glob(filepath.Join(root, dir, "*.go")); len(gos) == 0 && !strings.HasSuffix(p, "...") {
			t.Errorf("%s: %s names %s, which holds no Go package", where, line, p)
		}
	}
	if toks[1] != "test" || len(patterns) == 0 {
		return out
	}
	var funcs []string
	for _, p := range pkgs {
		if strings.HasSuffix(p, "...") {
			return out // any package: nothing to match against
		}
		tests, _ := filepath.Glob(filepath.Join(root, p, "*_test.go"))
		for _, f := range tests {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz|Example)\w*)\(`).FindAllSubmatch(b, -1) {
				funcs = append(funcs, string(m[1]))
			}
		}
	}
	for k, pat := range patterns {
		if pat == "^$" || pat == "" {
			continue
		}
		first, _, _ := strings.Cut(pat, "/")
		re, err := regexp.Compile(first)
		if err != nil {
			t.Errorf("%s: %s: -%s %q: %v", where, line, k, pat, err)
			continue
		}
		found := false
		for _, f := range funcs {
			isBench := strings.HasPrefix(f, "Benchmark")
			if (k == "bench") == isBench && (k != "fuzz" || strings.HasPrefix(f, "Fuzz")) && re.MatchString(f) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: %s: -%s %q matches no function of %v", where, line, k, pat, pkgs)
		}
	}
	return out
}

// checkPath checks an inline span that names a path of the repository
// (its first folder exists here): the path exists, or is a package and
// one of its names (battleship/wire.ArenaBoats).
func checkPath(t *testing.T, s snippet, cmds map[string]bool) {
	t.Helper()
	p := s.text
	if strings.ContainsAny(p, " *<>{}…$|") || !strings.Contains(p, "/") || strings.HasPrefix(p, "/") || strings.Contains(p, "://") {
		return
	}
	first, _, _ := strings.Cut(p, "/")
	if first == "." || first == ".." {
		return // relative to wherever the reader is
	}
	if fi, err := os.Stat(filepath.Join(root, first)); err != nil || !fi.IsDir() {
		return
	}
	p = strings.TrimSuffix(p, "/")
	if _, err := os.Stat(filepath.Join(root, p)); err == nil {
		return
	}
	if dir, sym, ok := cutLast(p, "."); ok && sym != "" && sym[0] >= 'A' && sym[0] <= 'Z' {
		if fi, err := os.Stat(filepath.Join(root, dir)); err == nil && fi.IsDir() {
			return
		}
	}
	t.Errorf("%s: `%s` names a path that does not exist", s.where, s.text)
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// checkLinks checks a manual's relative links.
func checkLinks(t *testing.T, path, name, doc string) {
	t.Helper()
	for _, m := range linkRE.FindAllStringSubmatch(doc, -1) {
		target, _, _ := strings.Cut(m[1], "#")
		if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), target)); err != nil {
			t.Errorf("%s: link to %s, which does not exist", name, m[1])
		}
	}
}

// A flagSet is what a command's -h lists: each flag, and whether it
// takes a value.
type flagSet map[string]bool

var flagLine = regexp.MustCompile(`(?m)^  -([A-Za-z0-9][\w.-]*)( \S+)?(?:\t|$)`)

// help runs bin [sub] -h and reads its flag list. A command whose -h is a
// flag of its own (battleref's board height) is asked with -help.
func help(t *testing.T, bin, sub string) (flagSet, string) {
	t.Helper()
	run := func(h string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		args := []string{h}
		if sub != "" {
			args = []string{sub, h}
		}
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "FS_BOT_TOKEN=") // nothing may reach a platform
		out, err := cmd.CombinedOutput()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatalf("%s %v: %v", bin, args, err)
		}
		return string(out)
	}
	out := run("-h")
	if strings.Contains(out, "flag needs an argument: -h") {
		out = run("-help")
	}
	fs := flagSet{}
	for _, m := range flagLine.FindAllStringSubmatch(out, -1) {
		fs[m[1]] = m[2] != ""
	}
	return fs, out
}

// checkFlags checks an invocation against its command's flags.
func checkFlags(t *testing.T, c invocation, bin string, helps map[string]flagSet) {
	t.Helper()
	sub, args := "", c.args
	if subs, ok := subcommands[c.name]; ok && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if !slices.Contains(subs, args[0]) {
			t.Errorf("%s: %s: %q is not a subcommand of %s (%s)", c.where, c.text, args[0], c.name, strings.Join(subs, ", "))
			return
		}
		sub, args = args[0], args[1:]
	}
	key := strings.TrimSpace(c.name + " " + sub)
	if flagless[key] {
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				t.Errorf("%s: %s: %s takes no flag, not %s", c.where, c.text, key, a)
			}
		}
		return
	}
	if len(args) == 0 && sub == "" {
		return // the command alone: the build said it exists
	}
	fs, ok := helps[key]
	if !ok {
		var out string
		fs, out = help(t, bin, sub)
		_, hasSubs := subcommands[c.name]
		if len(fs) == 0 && (sub != "" || !hasSubs) {
			t.Fatalf("%s -h listed no flags:\n%s", key, out)
		}
		if sub != "" && !strings.Contains(out, sub) {
			t.Fatalf("%s -h does not name %s:\n%s", key, sub, out)
		}
		helps[key] = fs
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return
		}
		name, ok := strings.CutPrefix(a, "-")
		if !ok || name == "" {
			continue
		}
		name = strings.TrimPrefix(name, "-")
		name, _, hasValue := strings.Cut(name, "=")
		takes, known := fs[name]
		switch {
		case !known && (name == "h" || name == "help"):
		case !known:
			t.Errorf("%s: %s: %s has no flag -%s", c.where, c.text, key, name)
		case takes && !hasValue:
			i++ // its value, which may start with "-" (-sprt -10,20)
		}
	}
}
