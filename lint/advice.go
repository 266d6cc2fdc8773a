package lint

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/memsys/memsys/internal/base/diag"
)

// commandWord finds a memsys command a message advises ("run memsys
// regen", "memsys renumber --onto REV"); "written by memsys" and
// "another version of memsys" are not commands. Compiled on first use:
// only a lint of a root below the start folder needs it, and every
// command, --version included, would pay for it at start-up.
var commandWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bmemsys (adopt|append|archive|audit|collisions|graph|hook|init|lint|log|loops|merge-driver|recall|regen|renumber|show|status)\b`)
})

// RootAdvice makes the advice of ds, the findings of one memory root,
// runnable from the folder lint started in when the root lies below it
// (lint 'services/**' in a monorepo, or the GitHub Action's args): there
// "run memsys regen" finds no memory, so it becomes "run memsys -C
// services/b regen". dir is the root as display shows it; a root that is
// the start folder or above it ("." or "../..") is found from there, and
// its advice stays as it is. Like StagedAdvice it runs after the
// baseline and the fingerprints, which know only the root's wording.
func RootAdvice(ds diag.Diagnostics, dir string) {
	if dir == "" || dir == "." || dir == ".." || strings.HasPrefix(dir, "../") {
		return
	}
	arg := "memsys -C " + shellWord(dir) + " $1"
	for i := range ds {
		if strings.Contains(ds[i].Message, "memsys ") { // as in Chdir
			ds[i].Message = commandWord().ReplaceAllString(ds[i].Message, arg)
		}
	}
}

// gitWord finds a git command a message advises that reads paths from
// the folder git runs in ("git add .memory", "git show SHA:./FILE").
var gitWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bgit (add|show)\b`)
})

// ChdirAdvice makes the advice of ds runnable from the folder memsys
// was started in when -C dir moved it elsewhere: "run memsys regen,
// then git add .memory/graph.md" becomes "run memsys -C svc regen, then
// git -C svc add .memory/graph.md". The paths stay relative to dir, as
// -C shows every path; the commands now say so. A hook runs memsys with
// -C from the top of the repository (memsys's own, and pre-commit's
// args: [-C, svc]), where the plain advice finds no memory and stages
// nothing, and never named the memory it was about.
func ChdirAdvice(ds diag.Diagnostics, dir string) {
	for i := range ds {
		ds[i].Message = Chdir(ds[i].Message, dir)
	}
}

// Chdir is ChdirAdvice for one message.
func Chdir(msg, dir string) string {
	if dir == "" || dir == "." {
		return msg
	}
	w := shellWord(dir)
	// The regexps only where they can match: with no literal prefix
	// they scan every byte, and over a long history's thousands of
	// findings, most advising no command, they were half of a warm
	// lint run with -C.
	if strings.Contains(msg, "memsys ") {
		msg = commandWord().ReplaceAllString(msg, "memsys -C "+w+" $1")
	}
	if strings.Contains(msg, "git ") {
		msg = gitWord().ReplaceAllString(msg, "git -C "+w+" $1")
	}
	return msg
}

// shellWord is s as one shell word: as it is when it needs no quoting,
// else in single quotes.
func shellWord(s string) string {
	plain := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-+", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// sealedFor starts the message of a derived file whose text is what
// regen writes but whose seal is not this log's (checkDrift).
const sealedFor = " was sealed for other events "

// EditedAdvice rewrites the advice of ds's seal-only drift findings
// (MS204, MS205) when ds also holds an edited committed event (MS301):
// the edit is why the seals differ, and "run memsys regen" would seal
// the edited log, so that once the event is restored the files are
// stale again. Restoring the event is the whole fix. It runs before
// StagedAdvice, which then leaves these messages alone.
func EditedAdvice(ds diag.Diagnostics) {
	if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Rule == "MS301" }) {
		return
	}
	for i := range ds {
		d := &ds[i]
		if (d.Rule == "MS204" || d.Rule == "MS205") && strings.HasPrefix(d.Message, d.Range.File+sealedFor) {
			d.Message = d.Range.File + " was sealed for the log before a committed event was edited (MS301): restore the event and the file is current again"
			d.MCP = ""
		}
	}
}
