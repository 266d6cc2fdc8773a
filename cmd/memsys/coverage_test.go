package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// TestEveryCommandAndFlagHasScript holds memsys to "a testscript for
// every command and flag": each command of the real tree (newApp),
// and each of its flags, must appear on some testscript line that runs
// memsys with that command. A flag of the root counts on any memsys
// line; an environment variable a flag reads from counts as the flag.
func TestEveryCommandAndFlagHasScript(t *testing.T) {
	files, err := filepath.Glob("../../testscripts/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testscripts: %v", err)
	}
	// The lines that run memsys, as their words after "memsys".
	var runs [][]string
	var all strings.Builder
	run := regexp.MustCompile(`(?:^|[\s'"(])(?:\$WORK/\S*/)?memsys\s+(.*)$`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(src)
		for line := range strings.SplitSeq(string(src), "\n") {
			if m := run.FindStringSubmatch(line); m != nil {
				runs = append(runs, strings.Fields(m[1]))
			}
		}
	}
	used := func(path []string, flag cli.Flag, global bool) bool {
		for _, words := range runs {
			if !global && !runsCommand(words, path) {
				continue
			}
			if flag == nil {
				return true
			}
			for _, name := range flag.Names() {
				dash := "--" + name
				if len(name) == 1 {
					dash = "-" + name
				}
				if slices.ContainsFunc(words, func(w string) bool {
					return w == dash || strings.HasPrefix(w, dash+"=") || len(name) > 1 && (w == "-"+name || strings.HasPrefix(w, "-"+name+"="))
				}) {
					return true
				}
			}
		}
		return false
	}
	app := newApp(io.Discard, io.Discard)
	commands, flags := 0, 0
	var walk func(path []string, c *cli.Command)
	walk = func(path []string, c *cli.Command) {
		if len(path) > 0 && c.Name != "help" {
			commands++
			if !used(path, nil, false) {
				t.Errorf("memsys %s: no testscript runs it", strings.Join(path, " "))
			}
		}
		for _, f := range c.Flags {
			if slices.Contains(f.Names(), "help") {
				continue
			}
			flags++
			if used(path, f, len(path) == 0) {
				continue
			}
			if env := envOf(f); env != "" && strings.Contains(all.String(), env) {
				continue
			}
			t.Errorf("memsys %s --%s: no testscript passes it", strings.Join(path, " "), f.Names()[0])
		}
		for _, sub := range c.Commands {
			walk(append(slices.Clip(path), sub.Name), sub)
		}
	}
	walk(nil, app)
	t.Logf("%d testscript lines run memsys; %d commands and %d flags checked", len(runs), commands, flags)
}

// runsCommand reports whether the words after "memsys" run the command
// path: global flags (with their values) may come first.
func runsCommand(words, path []string) bool {
	i := 0
	for i < len(words) && strings.HasPrefix(words[i], "-") {
		if (words[i] == "-C" || words[i] == "--cpuprofile") && i+1 < len(words) {
			i++
		}
		i++
	}
	for _, p := range path {
		if i >= len(words) || words[i] != p {
			return false
		}
		i++
	}
	return true
}

// envOf is the first environment variable a flag reads, if any.
func envOf(f cli.Flag) string {
	type sourced interface{ GetEnvVars() []string }
	if s, ok := f.(sourced); ok {
		if vs := s.GetEnvVars(); len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}
