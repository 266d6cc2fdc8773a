package lint

import (
	"regexp"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
)

// commandWord finds a memsys command a message advises ("run memsys
// regen", "memsys renumber --onto REV"); "written by memsys" and
// "another version of memsys" are not commands.
var commandWord = regexp.MustCompile(`\bmemsys (adopt|append|archive|audit|collisions|graph|hook|init|lint|log|loops|merge-driver|recall|regen|renumber|show|status)\b`)

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
		ds[i].Message = commandWord.ReplaceAllString(ds[i].Message, arg)
	}
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
