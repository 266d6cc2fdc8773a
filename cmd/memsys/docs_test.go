package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/mcpserver"
)

// TestDocInvocations holds README.md and docs/*.md to the command tree:
// every memsys (and memsys-mcp) command line they show must name a
// command that exists, only flags that command (or memsys, globally)
// has, a value for each flag that takes one and none for a switch, and
// as many positional arguments as the command declares. A renamed flag
// or command would otherwise leave the front door showing a command
// that fails.
//
// What counts as a command line (docInvocations):
//   - In a fenced block marked sh, shell, bash or zsh, every line is
//     shell: after `\` continuations are joined, each simple command of
//     it (split at |, ||, &&, ; and &) that runs memsys is checked, so
//     `echo ... | memsys append --json -` is too.
//   - In any other fenced block (plain, yaml, ...) only a line whose
//     first word, after indentation and an optional `$ ` prompt or YAML
//     `- run:` key, is memsys, memsys-mcp or `go run`: output such as
//     "memsys: CHANGELOG.md:3: ..." and prose are not commands.
//   - Outside fenced blocks, a code span whose text starts with
//     "memsys ", "memsys-mcp " or "go run ". A span may name a command
//     or a flag without the arguments it needs (`memsys show`, `memsys
//     lint --base`): too few positional arguments, and a flag that takes
//     a value written last, are not reported there; all else is.
//
// How a line reads (tokenize): shell quoting and `#` comments;
// redirections and their targets are dropped; `<word>` is a placeholder
// and one in a command's place (`memsys <command>`) makes the line a
// template, which is skipped; a lone `...` or an unquoted $expansion
// stands for unknown words, so the positional count is not checked.
// Synopsis notation is understood: `[...]` marks optional words, a
// trailing `...` repeats one, `a|b` inside a word or a spaced `|` inside
// brackets are alternatives (a spaced `|` outside brackets is a pipe),
// and alternatives in a command's place (`memsys hook
// install|uninstall`) are each checked.
//
// A flag the command requires (renumber's --onto) must be given, except
// in a code span or a synopsis.
//
// A command declares its positional arguments as its help shows them:
// with ArgsUsage (" " for none), else with the synopsis lines of its
// UsageText, else none ("memsys status [options]"; the command's action
// refuses any). Subcommands named in ArgsUsage ("install|uninstall")
// are reached through the tree, not counted as arguments.
//
// The UsageText synopses of the commands' help (and memsys-mcp's usage
// line) are checked the same way, as the first doc a user reads.
//
// Only README.md and docs/*.md are read: the testscripts run memsys
// for real and TestEveryCommandAndFlagHasScript reads them.
func TestDocInvocations(t *testing.T) {
	files := docFiles(t)
	progs := docPrograms(t)
	lines, checked := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docInvocations(f, src) {
			lines++
			problems, n := checkDocLine(progs, d)
			checked += n
			for _, p := range problems {
				t.Errorf("%s:%d: %s", d.file, d.line, p)
			}
		}
	}
	var walk func(c *cli.Command)
	walk = func(c *cli.Command) {
		if len(c.Arguments) > 0 {
			t.Errorf("%s declares cli.Arguments, which declaredArgs does not read: teach it, or the docs' argument counts go unchecked", c.FullName())
		}
		// The help's own synopses are the first doc a user reads, and
		// declaredArgs counts on them.
		for i, line := range strings.Split(c.UsageText, "\n") {
			if line == "" {
				continue
			}
			problems, _ := checkDocLine(progs, docLine{text: line})
			for _, p := range problems {
				t.Errorf("%s UsageText line %d: %s", c.FullName(), i+1, p)
			}
		}
		for _, sub := range c.Commands {
			walk(sub)
		}
	}
	walk(progs["memsys"])
	walk(progs[mcpProgram])
	if checked < 100 {
		t.Errorf("only %d memsys command lines found in %d files: is the extraction broken?", checked, len(files))
	}
	t.Logf("%d doc lines, %d command lines checked against the command tree", lines, checked)
}

// TestDocFilesAreTheFrontDoor keeps TestDocInvocations to the docs: the
// testscripts' txtar archives hold fenced blocks too (golden output,
// seeds), which are not examples for readers.
func TestDocFilesAreTheFrontDoor(t *testing.T) {
	files := docFiles(t)
	if !slices.Contains(files, "README.md") {
		t.Errorf("README.md is not among the doc files %q", files)
	}
	for _, f := range files {
		if f != "README.md" && (path.Dir(f) != "docs" || path.Ext(f) != ".md") {
			t.Errorf("%s is scanned for memsys command lines: only README.md and docs/*.md are docs", f)
		}
	}
	scripts, err := filepath.Glob("../../testscripts/*.txtar")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no testscripts: %v", err)
	}
	for _, s := range scripts {
		if rel := "testscripts/" + filepath.Base(s); slices.Contains(files, rel) {
			t.Errorf("%s is scanned as a doc", rel)
		}
	}
}

// docFiles are the files whose command lines TestDocInvocations checks,
// relative to the repository root with forward slashes.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, "docs/"+filepath.Base(d))
	}
	return files
}

// docPrograms are the programs the docs run, by name: memsys's real
// tree (after a run, so that help, completion and --version are in
// it, as urfave/cli adds them at run time), and memsys-mcp's flags as
// its -h prints them (it uses the flag package, not urfave/cli).
func docPrograms(t *testing.T) map[string]*cli.Command {
	t.Helper()
	app := newApp(io.Discard, io.Discard)
	if err := app.Run(context.Background(), []string{"memsys", "--help"}); err != nil {
		t.Fatalf("memsys --help: %v", err)
	}
	var help bytes.Buffer
	if code := mcpserver.Main(context.Background(), []string{"-h"}, &help); code != 0 {
		t.Fatalf("memsys-mcp -h: exit %d: %s", code, help.String())
	}
	mcp, err := flagUsageCommand(help.String())
	if err != nil {
		t.Fatalf("memsys-mcp -h: %v", err)
	}
	return map[string]*cli.Command{"memsys": app, mcpProgram: mcp}
}

// flagUsageCommand builds a command tree of one node from the help of
// a program that uses the flag package: "usage: NAME SYNOPSIS" first,
// then PrintDefaults' "  -name TYPE" lines (no TYPE: a switch).
func flagUsageCommand(help string) (*cli.Command, error) {
	first, rest, _ := strings.Cut(help, "\n")
	name, synopsis, ok := strings.Cut(strings.TrimPrefix(first, "usage: "), " ")
	if !ok || !strings.HasPrefix(first, "usage: ") {
		return nil, fmt.Errorf("first line %q is not \"usage: NAME ...\"", first)
	}
	c := &cli.Command{Name: name, UsageText: name + " " + synopsis}
	// The flag package answers -h and -help itself.
	c.Flags = append(c.Flags, &cli.BoolFlag{Name: "help", Aliases: []string{"h"}})
	def := regexp.MustCompile(`^  -(\S+)(?: (\S+))?$`)
	for line := range strings.SplitSeq(rest, "\n") {
		m := def.FindStringSubmatch(line)
		switch {
		case m == nil:
		case m[2] == "":
			c.Flags = append(c.Flags, &cli.BoolFlag{Name: m[1]})
		default:
			c.Flags = append(c.Flags, &cli.StringFlag{Name: m[1]})
		}
	}
	if len(c.Flags) == 1 {
		return nil, fmt.Errorf("no flags in %q", help)
	}
	return c, nil
}

// docLine is one command line of a doc: a logical line of a fenced
// block (continuations joined) or a code span.
type docLine struct {
	file   string
	line   int    // where it starts, from 1
	text   string // as shell reads it
	inline bool   // a code span, which may name a command without its arguments
}

// shellInfo are the info strings of fenced blocks that hold shell.
var shellInfo = []string{"sh", "shell", "bash", "zsh"}

// runLine matches a line of another fenced block that runs a program:
// its first word after indentation, a YAML "- run:" key or a "$ "
// prompt.
var runLine = regexp.MustCompile(`^\s*(?:-\s+)?(?:run:\s+)?(?:\$\s+)?((?:memsys|memsys-mcp)(?:\s|$)|go\s+run\s)`)

// fenceOpen matches the line that opens a fenced block: its marker
// and the first word of its info string.
var fenceOpen = regexp.MustCompile("^(```+|~~~+)\\s*([^`\\s]*)")

// spanStart matches a code span that is a command line.
var spanStart = regexp.MustCompile(`^(?:memsys|memsys-mcp|go run) `)

// docInvocations returns the lines of a markdown file that may run
// memsys (see TestDocInvocations for the rule).
func docInvocations(file string, src []byte) []docLine {
	var out []docLine
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	var (
		fence string // the open fence's marker (``` or longer, ~~~), "" outside
		shell bool
		// A markdown block shows a file's content (an event, a rule's
		// good example), not commands.
		markdown bool
		para     []string // the paragraph being collected, for code spans
		paraAt   int
	)
	flush := func() {
		out = append(out, codeSpans(file, paraAt, para)...)
		para = nil
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimLeft(l, " \t")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(strings.TrimSpace(trimmed), fence[:1]) == "" {
				fence = ""
				continue
			}
			at := i + 1
			for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
				i++
				l = strings.TrimSuffix(l, `\`) + " " + lines[i]
			}
			if shell {
				out = append(out, docLine{file: file, line: at, text: strings.TrimPrefix(strings.TrimLeft(l, " \t"), "$ ")})
			} else if m := runLine.FindStringSubmatchIndex(l); m != nil && !markdown {
				out = append(out, docLine{file: file, line: at, text: l[m[2]:]})
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(trimmed); m != nil {
			flush()
			fence, shell, markdown = m[1], slices.Contains(shellInfo, m[2]), m[2] == "markdown" || m[2] == "md"
			continue
		}
		// A blank line ends a paragraph; a table row or a heading is an
		// inline context of its own.
		if strings.TrimSpace(l) == "" || strings.HasPrefix(trimmed, "|") || strings.HasPrefix(trimmed, "#") {
			flush()
			if strings.TrimSpace(l) != "" {
				if strings.HasPrefix(trimmed, "|") {
					// GFM: \| is a | even inside a code span in a table.
					l = strings.ReplaceAll(l, `\|`, "|")
				}
				paraAt, para = i+1, []string{l}
				flush()
			}
			continue
		}
		if para == nil {
			paraAt = i + 1
		}
		para = append(para, l)
	}
	flush()
	return out
}

// codeSpans returns the code spans of a paragraph (lines from line at)
// that are command lines.
func codeSpans(file string, at int, para []string) []docLine {
	text := strings.Join(para, "\n")
	var out []docLine
	for i := 0; i < len(text); {
		if text[i] != '`' || i > 0 && text[i-1] == '\\' {
			i++
			continue
		}
		n := 1
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		open := i
		i += n
		end := -1
		for j := i; j < len(text); {
			if text[j] != '`' {
				j++
				continue
			}
			k := j
			for k < len(text) && text[k] == '`' {
				k++
			}
			if k-j == n {
				end = j
				break
			}
			j = k
		}
		if end < 0 {
			continue // a literal run of backticks
		}
		s := strings.ReplaceAll(text[i:end], "\n", " ")
		if len(s) > 1 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.TrimSpace(s) != "" {
			s = s[1 : len(s)-1]
		}
		i = end + n
		if spanStart.MatchString(s) && !isMessage(s) {
			out = append(out, docLine{file: file, line: at + strings.Count(text[:open], "\n"), text: s, inline: true})
		}
	}
	return out
}

// isMessage reports whether a code span is a message memsys prints
// ("memsys pre-commit hook: memsys is not on PATH: ..."), not a command:
// an unquoted word of it ends in a colon.
func isMessage(s string) bool {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == ':' && (i+1 == len(s) || s[i+1] == ' '):
			return true
		}
	}
	return false
}

// shellWord is a word of a command line, or a control operator.
type shellWord struct {
	text     string // quotes removed; a synopsis' brackets and "..." too
	op       string // "|", "||", "&&", ";" or "&" for an operator, else ""
	optional bool   // inside [...] of a synopsis
	closes   bool   // ends a [...] group: "[--refs]" names a flag without its value
	repeat   bool   // ended in "..." (ENTITY...)
	unknown  bool   // a lone "..." or an unquoted $expansion: any words
	holder   bool   // a placeholder such as <command>
}

// tokenize splits a command line into words and operators, as the
// shell would, plus the synopsis notation TestDocInvocations describes.
// end is where a # comment starts, or len(s).
func tokenize(s string) (words []shellWord, end int, err error) {
	var out []shellWord
	depth := 0 // of unquoted [
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
			continue
		case c == '#':
			return out, i, nil
		}
		if op := operatorAt(s[i:]); op != "" {
			i += len(op)
			if op == "|" && depth > 0 {
				continue // alternatives in a synopsis: [--base REV | --staged]
			}
			out = append(out, shellWord{op: op})
			continue
		}
		if m := placeholder.FindString(s[i:]); m != "" {
			out = append(out, shellWord{text: m, holder: true, optional: depth > 0})
			i += len(m)
			continue
		}
		if m := redirection.FindString(s[i:]); m != "" {
			i += len(m)
			if !strings.HasSuffix(m, "&") || i >= len(s) || s[i] < '0' || s[i] > '9' {
				// The target is a word of its own: read and drop it.
				for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
					i++
				}
				_, n, err := readWord(s[i:])
				if err != nil {
					return nil, 0, err
				}
				i += n
			} else {
				i++ // 2>&1
			}
			continue
		}
		w, n, err := readWord(s[i:])
		if err != nil {
			return nil, 0, err
		}
		i += n
		if w.bare {
			opens, closes := strings.Count(w.text, "["), strings.Count(w.text, "]")
			w.optional = depth > 0 || strings.HasPrefix(w.text, "[")
			depth = max(0, depth+opens-closes)
			if w.text == "..." {
				out = append(out, shellWord{unknown: true, optional: w.optional})
				continue
			}
			w.text = strings.TrimLeft(w.text, "[")
			w.closes = closes > 0 && strings.HasSuffix(strings.TrimSuffix(w.text, "..."), "]")
			for {
				t := strings.TrimSuffix(strings.TrimRight(w.text, "]"), "...")
				if t == w.text {
					break
				}
				if strings.HasSuffix(strings.TrimRight(w.text, "]"), "...") {
					w.repeat = true
				}
				w.text = t
			}
		}
		out = append(out, w.shellWord)
	}
	if depth > 0 {
		return nil, 0, fmt.Errorf("a [ is not closed")
	}
	return out, len(s), nil
}

// placeholder is <word> where a word starts: not a redirection.
var placeholder = regexp.MustCompile(`^<[A-Za-z][^<>\s]*>[^\s|;&]*`)

// redirection is a redirection operator where a word starts.
var redirection = regexp.MustCompile(`^(?:[0-9]*(?:>>|>&|<<<|<<|<>|>|<)|&>>|&>)`)

// operatorAt returns the control operator s starts with, or "".
func operatorAt(s string) string {
	for _, op := range []string{"||", "&&", "|", ";", "&"} {
		if strings.HasPrefix(s, op) && !strings.HasPrefix(s, "&>") {
			return op
		}
	}
	return ""
}

// word is a word as readWord reads it.
type word struct {
	shellWord
	bare bool // no part of it was quoted or escaped
}

// readWord reads the word s starts with: up to unquoted white space, ;
// or a | or & that begins an operator after it. It returns the word and
// the bytes it took.
func readWord(s string) (word, int, error) {
	var b strings.Builder
	w := word{bare: true}
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';':
			w.text = b.String()
			return w, i, nil
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return w, 0, fmt.Errorf("a ' is not closed")
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 2
			w.bare = false
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return w, 0, fmt.Errorf("a \" is not closed")
			}
			i++
			w.bare = false
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i += 2
			w.bare = false
		case c == '$' && i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '('):
			// ${...} or $(...), which may hold spaces and quotes.
			closer := map[byte]byte{'{': '}', '(': ')'}[s[i+1]]
			n, j := 0, i+1
			for ; j < len(s); j++ {
				if s[j] == s[i+1] {
					n++
				} else if s[j] == closer {
					if n--; n == 0 {
						break
					}
				}
			}
			if j >= len(s) {
				return w, 0, fmt.Errorf("a %s is not closed", s[i:i+2])
			}
			b.WriteString(s[i : j+1])
			i = j + 1
			w.unknown = true
		case c == '$' && i+1 < len(s) && (s[i+1] == '_' || s[i+1] == '?' || isLetter(s[i+1])):
			b.WriteByte(c)
			i++
			w.unknown = true
		default:
			b.WriteByte(c)
			i++
		}
	}
	w.text = b.String()
	return w, i, nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// assignment is a VAR=value word before a command.
var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// checkDocLine checks the memsys and memsys-mcp commands of one doc
// line against progs, and returns what is wrong and how many commands
// it checked.
func checkDocLine(progs map[string]*cli.Command, d docLine) ([]string, int) {
	words, end, err := tokenize(d.text)
	if err != nil {
		return []string{fmt.Sprintf("%q: cannot read it as a shell line: %v", d.text, err)}, 0
	}
	shown := strings.TrimSpace(d.text[:end])
	var problems []string
	checked := 0
	for cmd := range splitCommands(words) {
		for len(cmd) > 0 && !cmd[0].unknown && assignment.MatchString(cmd[0].text) {
			cmd = cmd[1:]
		}
		root, args := programOf(progs, cmd)
		if root == nil {
			continue
		}
		checked++
		for _, r := range parseRun(root, args, d.inline) {
			for _, p := range r.problems {
				problems = append(problems, fmt.Sprintf("%q: %s", shown, p))
			}
			if r.template || r.unknown || r.unsure {
				continue
			}
			if p := checkArity(root, r, d.inline); p != "" {
				problems = append(problems, fmt.Sprintf("%q: %s", shown, p))
			}
			if p := checkRequired(r); p != "" && !d.inline && !r.synopsis {
				problems = append(problems, fmt.Sprintf("%q: %s", shown, p))
			}
		}
	}
	return problems, checked
}

// splitCommands yields the simple commands of a line: the words
// between control operators.
func splitCommands(words []shellWord) func(func([]shellWord) bool) {
	return func(yield func([]shellWord) bool) {
		start := 0
		for i, w := range words {
			if w.op != "" {
				if !yield(words[start:i]) {
					return
				}
				start = i + 1
			}
		}
		yield(words[start:])
	}
}

// programOf returns the program a simple command runs, among progs,
// and its arguments; nil when it runs none of them. "go run
// ./cmd/memsys" runs memsys.
func programOf(progs map[string]*cli.Command, cmd []shellWord) (*cli.Command, []shellWord) {
	if len(cmd) == 0 {
		return nil, nil
	}
	if p := progs[path.Base(cmd[0].text)]; p != nil {
		return p, cmd[1:]
	}
	if len(cmd) >= 3 && cmd[0].text == "go" && cmd[1].text == "run" {
		pkg, _, _ := strings.Cut(cmd[2].text, "@")
		if p := progs[path.Base(pkg)]; p != nil && strings.Contains(pkg, "cmd/") {
			return p, cmd[3:]
		}
	}
	return nil, nil
}

// docRun is what one command line asks of the command tree.
type docRun struct {
	cmd      *cli.Command // the command it runs
	required int          // positional words outside [...]
	optional int          // positional words in [...]
	repeat   bool         // a positional word may repeat (X...)
	synopsis bool         // written in synopsis notation
	unknown  bool         // words stand for unknown ones: count unknown
	template bool         // a placeholder stands for the command
	unsure   bool         // an unknown flag or command: the words after it may be read wrong
	given    []cli.Flag   // the flags it passes
	problems []string
}

// parseRun walks args down the command tree from root as urfave/cli
// does: flags (the command's own, and its ancestors' persistent ones)
// with their values, then the first positional word names a
// subcommand if there is one by that name. Alternatives in a command's
// place give a run each. inline allows a flag's value to be missing at
// the end (a code span naming the flag).
func parseRun(root *cli.Command, args []shellWord, inline bool) []docRun {
	r := docRun{cmd: root}
	lineage := []*cli.Command{root}
	positional := false // a positional word has been seen: no more subcommands
	for i := 0; i < len(args); i++ {
		w := args[i]
		r.synopsis = r.synopsis || w.optional || w.repeat
		if w.unknown {
			r.unknown = true
			continue
		}
		if w.text == "--" {
			for _, rest := range args[i+1:] {
				r.addPositional(rest)
			}
			break
		}
		if isFlagWord(w.text) {
			name, value, hasValue := strings.Cut(strings.TrimLeft(w.text, "-"), "=")
			f := lookupFlag(lineage, name)
			if f == nil {
				r.unsure = true
				r.problems = append(r.problems, fmt.Sprintf("%s has no flag %s", fullName(lineage), strings.SplitN(w.text, "=", 2)[0]))
				continue
			}
			r.given = append(r.given, f)
			if dashes := len(w.text) - len(strings.TrimLeft(w.text, "-")); dashes != len(dashed(name))-len(name) {
				r.problems = append(r.problems, fmt.Sprintf("write %s as %s", w.text[:dashes+len(name)], dashed(name)))
			}
			if isSwitch(f) {
				if _, err := strconv.ParseBool(value); hasValue && err != nil {
					r.problems = append(r.problems, fmt.Sprintf("%s is a switch and takes no value, got %q", dashed(name), value))
				}
				continue
			}
			if hasValue {
				continue
			}
			if i+1 >= len(args) || w.closes {
				if !inline && !w.closes {
					r.problems = append(r.problems, fmt.Sprintf("%s takes a value and none is given", dashed(name)))
				}
				continue
			}
			i++ // its value, whatever it looks like (urfave/cli takes "--x" too)
			continue
		}
		if !positional && len(r.cmd.Commands) > 0 {
			if w.holder {
				r.template = true
				return []docRun{r}
			}
			if sub := r.cmd.Command(w.text); sub != nil {
				r.cmd = sub
				lineage = append(lineage, sub)
				continue
			}
			if alts := strings.Split(w.text, "|"); len(alts) > 1 && !slices.ContainsFunc(alts, func(a string) bool { return r.cmd.Command(a) == nil }) {
				var runs []docRun
				for _, a := range alts {
					again := slices.Clone(args)
					again[i].text = a
					runs = append(runs, parseRun(root, again, inline)...)
				}
				return runs
			}
			if r.cmd == root {
				r.unsure = true
				r.problems = append(r.problems, fmt.Sprintf("%s has no command %q", root.Name, w.text))
				return []docRun{r}
			}
		}
		positional = true
		r.addPositional(w)
	}
	return []docRun{r}
}

// addPositional counts one positional word.
func (r *docRun) addPositional(w shellWord) {
	if w.unknown {
		r.unknown = true
		return
	}
	if w.optional {
		r.optional++
	} else {
		r.required++
	}
	r.repeat = r.repeat || w.repeat
}

// isFlagWord reports whether urfave/cli reads w as a flag: a dash and
// a letter, or two dashes and a name ("-" alone is a positional word,
// standard input).
func isFlagWord(w string) bool {
	return strings.HasPrefix(w, "--") && len(w) > 2 || len(w) > 1 && w[0] == '-' && isLetter(w[1])
}

// lookupFlag finds a flag by name on the last command of lineage, or a
// persistent one of its ancestors (urfave/cli's appliedFlags).
func lookupFlag(lineage []*cli.Command, name string) cli.Flag {
	for i := len(lineage) - 1; i >= 0; i-- {
		for _, f := range lineage[i].Flags {
			if !slices.Contains(f.Names(), name) {
				continue
			}
			if lf, ok := f.(cli.LocalFlag); i == len(lineage)-1 || ok && !lf.IsLocal() {
				return f
			}
		}
	}
	return nil
}

// isSwitch reports whether f takes no value. urfave/cli's own test,
// IsBoolFlag, answers only once the flag has been applied by a run of
// its command; TakesValue answers from the flag's type.
func isSwitch(f cli.Flag) bool {
	v, ok := f.(interface{ TakesValue() bool })
	return ok && !v.TakesValue()
}

// fullName is the command path of lineage, "memsys hook install".
func fullName(lineage []*cli.Command) string {
	var names []string
	for _, c := range lineage {
		names = append(names, c.Name)
	}
	return strings.Join(names, " ")
}

// argSpec is a number of positional arguments a command accepts: from
// min to max, max -1 for no limit.
type argSpec struct{ min, max int }

// declaredArgs returns the positional arguments c declares in its
// help: its ArgsUsage, else its UsageText's synopsis lines, else none
// (the help's usage line shows none). ok is false for a command that
// declares them as cli.Arguments, which this does not read.
func declaredArgs(root, c *cli.Command) (specs []argSpec, from string, ok bool) {
	if c.ArgsUsage != "" {
		from = fmt.Sprintf("ArgsUsage %q", c.ArgsUsage)
		words, _, err := tokenize(strings.ReplaceAll(c.ArgsUsage, "|", " | "))
		if err != nil {
			return nil, from, false
		}
		for alt := range splitCommands(words) {
			if len(alt) == 0 || len(alt) == 1 && c.Command(alt[0].text) != nil {
				continue // a subcommand, reached through the tree
			}
			r := docRun{}
			for _, w := range alt {
				r.addPositional(w)
			}
			specs = append(specs, r.spec())
		}
		if len(specs) == 0 {
			specs = []argSpec{{0, 0}}
		}
		return specs, from, true
	}
	if len(c.Arguments) > 0 {
		return nil, "", false // TestDocInvocations fails on such a command
	}
	if c.UsageText == "" {
		// urfave/cli's help then shows "memsys status [options]": no
		// arguments, and the command's own check refuses any.
		return []argSpec{{0, 0}}, "help usage, which shows none", true
	}
	for line := range strings.SplitSeq(c.UsageText, "\n") {
		words, _, err := tokenize(line)
		if err != nil {
			continue
		}
		for cmd := range splitCommands(words) {
			if len(cmd) == 0 || cmd[0].text != root.Name {
				continue
			}
			for _, r := range parseRun(root, cmd[1:], false) {
				if r.cmd == c && len(r.problems) == 0 && !r.template {
					specs = append(specs, r.spec())
				}
			}
		}
	}
	return specs, fmt.Sprintf("UsageText %q", c.UsageText), len(specs) > 0
}

// spec is the range of positional arguments r's words allow.
func (r docRun) spec() argSpec {
	s := argSpec{r.required, r.required + r.optional}
	if r.repeat {
		s.max = -1
	}
	return s
}

// checkArity reports a run whose positional words the command does not
// accept, or "". A code span (inline) may give fewer than needed.
func checkArity(root *cli.Command, r docRun, inline bool) string {
	specs, from, ok := declaredArgs(root, r.cmd)
	if !ok {
		return ""
	}
	got := r.spec()
	for _, s := range specs {
		lowOK := got.min >= s.min || inline
		highOK := s.max < 0 || got.max >= 0 && got.max <= s.max
		if lowOK && highOK {
			return ""
		}
	}
	var takes []string
	for _, s := range specs {
		takes = append(takes, s.String())
	}
	noun := "positional arguments"
	if len(takes) == 1 && takes[0] == "1" {
		noun = "positional argument"
	}
	gives := got.String()
	if gives == "no" {
		gives = "0"
	}
	return fmt.Sprintf("%s takes %s %s (its %s), this gives %s", r.cmd.FullName(), strings.Join(takes, " or "), noun, from, gives)
}

// checkRequired reports a flag r's command requires that r does not
// pass (renumber's --onto), or "". Asking for help needs none.
func checkRequired(r docRun) string {
	if slices.ContainsFunc(r.given, func(f cli.Flag) bool { return slices.Contains(f.Names(), "help") }) {
		return ""
	}
	for _, f := range r.cmd.Flags {
		if rf, ok := f.(cli.RequiredFlag); ok && rf.IsRequired() && !slices.Contains(r.given, f) {
			return fmt.Sprintf("%s needs %s", r.cmd.FullName(), dashed(f.Names()[0]))
		}
	}
	return ""
}

// String is the range in words: "no", "1", "4 to 5", "1 or more".
func (s argSpec) String() string {
	switch {
	case s.max < 0:
		return fmt.Sprintf("%d or more", s.min)
	case s.max == 0:
		return "no"
	case s.max != s.min:
		return fmt.Sprintf("%d to %d", s.min, s.max)
	}
	return fmt.Sprint(s.min)
}

// TestDocInvocationRules shows each rule of TestDocInvocations on a
// small doc: what is read as a command line, what is skipped, and the
// message for each kind of mistake. Every finding is listed, so a
// missing one fails as an unexpected one does.
func TestDocInvocationRules(t *testing.T) {
	progs := docPrograms(t)
	cases := []struct {
		name string
		doc  string
		want []string
	}{{
		name: "shell block: every command of a line, continuations joined",
		doc: "```sh\n" +
			"memsys lint --bogus   # a comment --nope\n" +
			"echo '{}' | memsys append --json - && memsys regen --chek\n" +
			"memsys append --type fix \\\n" +
			"  --nope x\n" +
			"$ memsys lnt\n" +
			"go run ./cmd/memsys -C x lnt\n" +
			"git commit -m \"memsys lint --bogus\"\n" +
			"```\n",
		want: []string{
			`d.md:2: "memsys lint --bogus": memsys lint has no flag --bogus`,
			`d.md:3: "echo '{}' | memsys append --json - && memsys regen --chek": memsys regen has no flag --chek`,
			`d.md:4: "memsys append --type fix    --nope x": memsys append has no flag --nope`,
			`d.md:6: "memsys lnt": memsys has no command "lnt"`,
			`d.md:7: "go run ./cmd/memsys -C x lnt": memsys has no command "lnt"`,
		},
	}, {
		name: "other blocks: only lines that start with the program",
		doc: "```\n" +
			"$ memsys lint --bogus\n" +
			"memsys: lint --bogus: an error message\n" +
			"echo x | memsys append --bogus\n" +
			"```\n" +
			"```yaml\n" +
			"  - run: memsys collisions\n" +
			"```\n" +
			"```markdown\n" +
			"memsys lint --write-baseline, committing the smaller file\n" +
			"```\n" +
			"~~~~\n" +
			"```\n" +
			"memsys lint --inner\n" +
			"~~~~\n" +
			"memsys lint --outside-a-block\n",
		want: []string{
			`d.md:2: "memsys lint --bogus": memsys lint has no flag --bogus`,
			`d.md:7: "memsys collisions": memsys collisions takes 1 or more positional arguments (its ArgsUsage "REV..."), this gives 0`,
			`d.md:14: "memsys lint --inner": memsys lint has no flag --inner`,
		},
	}, {
		name: "code spans: a command or flag may be named without its arguments",
		doc: "Run `memsys show` or `memsys show evt-1 evt-2`, `memsys lint --base`\n" +
			"and `memsys  lint\n--bogus` across lines; ``memsys lint --x`y``.\n" +
			"`memsys <command> --help` is a template, `memsys -C DIR <command>` too,\n" +
			"`memsys pre-commit hook: memsys is not on PATH` a message, `memsys` a name.\n" +
			"| `memsys lint --format text\\|json` | `memsys log --limt\\|-n` |\n" +
			"# `memsys init --tire full`\n",
		want: []string{
			`d.md:1: "memsys show evt-1 evt-2": memsys show takes 1 positional argument (its UsageText "memsys show [--format text|json] [--at evt-NNN|DATE] evt-NNN"), this gives 2`,
			`d.md:2: "memsys  lint --bogus": memsys lint has no flag --bogus`,
			`d.md:3: "memsys lint --x` + "`" + `y": memsys lint has no flag --x` + "`" + `y`,
			`d.md:6: "memsys log --limt|-n": memsys log has no flag --limt|-n`,
			`d.md:7: "memsys init --tire full": memsys init has no flag --tire`,
		},
	}, {
		name: "flags: values, switches, global flags and spelling",
		doc: "```sh\n" +
			"memsys lint --strict=maybe --fix=false\n" +
			"memsys lint --base\n" +
			"memsys lint -C dir --no-cache --base=main\n" +
			"memsys lint --version\n" +
			"memsys --version\n" +
			"memsys -no-cache --C dir log -limit 3 -n 3\n" +
			"memsys lint --base --output=x\n" +
			"memsys-mcp --agent a -C d extra\n" +
			"memsys-mcp --agentt a\n" +
			"```\n",
		want: []string{
			`d.md:2: "memsys lint --strict=maybe --fix=false": --strict is a switch and takes no value, got "maybe"`,
			`d.md:3: "memsys lint --base": --base takes a value and none is given`,
			`d.md:5: "memsys lint --version": memsys lint has no flag --version`,
			`d.md:7: "memsys -no-cache --C dir log -limit 3 -n 3": write -no-cache as --no-cache`,
			`d.md:7: "memsys -no-cache --C dir log -limit 3 -n 3": write --C as -C`,
			`d.md:7: "memsys -no-cache --C dir log -limit 3 -n 3": write -limit as --limit`,
			`d.md:9: "memsys-mcp --agent a -C d extra": memsys-mcp takes no positional arguments (its UsageText "memsys-mcp [-C DIR] [--agent NAME] [--no-cache] [--cpuprofile FILE]"), this gives 1`,
			`d.md:10: "memsys-mcp --agentt a": memsys-mcp has no flag --agentt`,
		},
	}, {
		name: "positional arguments and synopses",
		doc: "```sh\n" +
			"memsys regen now\n" +
			"memsys hook install|uninstall\n" +
			"memsys hook install|remove\n" +
			"memsys merge-driver %O %A %B %P %L\n" +
			"memsys merge-driver %O %A %B\n" +
			"memsys recall [ENTITY...] [--depth N]\n" +
			"memsys append --type T [--refs] [--tags] [--bogus]\n" +
			"memsys append --type decision ... --supersedes evt-006\n" +
			"memsys lint [PATTERN...] [--base REV [--head REV] | --staged]\n" +
			"memsys lint ${ARGS:+--base \"$ARGS\"} > out.sarif 2>&1 || test $? -eq 1\n" +
			"memsys status extra\n" +
			"memsys renumber --dry-run && memsys renumber --help\n" +
			"memsys lint 'a\n" +
			"```\n",
		want: []string{
			`d.md:2: "memsys regen now": memsys regen takes no positional arguments (its ArgsUsage " "), this gives 1`,
			`d.md:4: "memsys hook install|remove": memsys hook takes no positional arguments (its ArgsUsage "install|uninstall"), this gives 1`,
			`d.md:6: "memsys merge-driver %O %A %B": memsys merge-driver takes 4 to 5 positional arguments (its ArgsUsage "ANCESTOR OURS THEIRS PATH [MARKER-SIZE] | install | uninstall"), this gives 3`,
			`d.md:7: "memsys recall [ENTITY...] [--depth N]": memsys recall takes 1 or more positional arguments (its UsageText "memsys recall ENTITY... [--depth N] [--budget WORDS] [--format md|json]"), this gives 0 or more`,
			`d.md:8: "memsys append --type T [--refs] [--tags] [--bogus]": memsys append has no flag --bogus`,
			`d.md:12: "memsys status extra": memsys status takes no positional arguments (its help usage, which shows none), this gives 1`,
			`d.md:13: "memsys renumber --dry-run && memsys renumber --help": memsys renumber needs --onto`,
			`d.md:14: "memsys lint 'a": cannot read it as a shell line: a ' is not closed`,
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, d := range docInvocations("d.md", []byte(c.doc)) {
				problems, _ := checkDocLine(progs, d)
				for _, p := range problems {
					got = append(got, fmt.Sprintf("%s:%d: %s", d.file, d.line, p))
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
