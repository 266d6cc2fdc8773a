package hook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
)

// marker is a line of every pre-commit hook memsys writes. Uninstall
// removes only a file that holds it, so a hook someone else wrote (or
// replaced ours with) is never deleted.
const marker = "# memsys:hook pre-commit"

// chainedSuffix names the place an existing pre-commit hook moves to when
// memsys installs its own; memsys's hook runs it first, and uninstall
// moves it back.
const chainedSuffix = ".memsys-chained"

// Place is where the pre-commit hook of one repository lives.
type Place struct {
	start   string // absolute folder memsys was started in (or -C)
	top     string // absolute top-level folder of the working tree
	path    string // absolute path of the pre-commit hook
	chained string // absolute path the existing hook moves to
}

// show gives p relative to the start folder, with slashes, so messages
// read the same on every platform and in tests.
func (h Place) show(p string) string {
	if rel, err := filepath.Rel(h.start, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// Start is the absolute folder the Place was found from.
func (h Place) Start() string { return h.start }

// Find asks git where the hooks of the repository around start live.
// git resolves core.hooksPath (relative to the top level, where hooks
// run) and worktrees itself; memsys never guesses .git/hooks.
func Find(ctx context.Context, start string) (Place, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return Place{}, err
	}
	if !workspace.IsDir(abs) {
		return Place{}, fmt.Errorf("hook: %q is not a folder", words.Clip(start))
	}
	g := &gitx.Git{Dir: abs}
	top, err := g.Line(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return Place{}, gitError(err, start)
	}
	hooks, err := g.Line(ctx, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return Place{}, gitError(err, start)
	}
	if !filepath.IsAbs(hooks) {
		hooks = filepath.Join(abs, hooks)
	}
	p := filepath.Join(hooks, "pre-commit")
	return Place{start: abs, top: filepath.Clean(top), path: p, chained: p + chainedSuffix}, nil
}

// gitError turns a failed rev-parse into one line naming the folder as
// the user gave it (shown).
func gitError(err error, shown string) error {
	var ge *gitx.Error
	if !errors.As(err, &ge) || !ge.Ran() {
		return fmt.Errorf("hook: cannot run git: %v: install git and put it on PATH", errors.Unwrap(err))
	}
	msg := strings.TrimSpace(ge.Stderr)
	switch {
	case strings.Contains(msg, "not a git repository"):
		return fmt.Errorf("hook: %q is not inside a git repository: run memsys hook in the repository whose commits memsys should check (or git init first)", shown)
	case strings.Contains(msg, "must be run in a work tree"):
		return fmt.Errorf("hook: %q is not inside a git working tree: a pre-commit hook needs one; run memsys hook in the checkout", shown)
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return fmt.Errorf("hook: git %s failed: %s", strings.Join(ge.Args, " "), msg)
}

// Script is the pre-commit hook for the memory at root (relative to
// the top level, slash-separated). It is POSIX sh because git runs hooks
// with sh everywhere, Git for Windows included.
func Script(root string) []byte {
	return []byte(`#!/bin/sh
` + marker + `
# Written by "memsys hook install"; "memsys hook uninstall" removes it and
# restores the hook it chained. Edits are lost on the next install.
hooks=$(dirname "$0")
if [ -x "$hooks/pre-commit` + chainedSuffix + `" ]; then
	"$hooks/pre-commit` + chainedSuffix + `" "$@" || exit $?
fi
root=` + shellQuote(root) + `
# A repository without this memory (a core.hooksPath shared by several
# repositories) has nothing to check.
[ -f "$root/CHANGELOG.md" ] || git cat-file -e "HEAD:$root/CHANGELOG.md" 2>/dev/null || exit 0
memsys=${MEMSYS:-memsys}
if ! command -v "$memsys" >/dev/null 2>&1; then
	echo "memsys pre-commit hook: $memsys is not on PATH: install it (go install github.com/memsys/memsys/cmd/memsys@latest) or run memsys hook uninstall" >&2
	exit 1
fi
"$memsys" -C "$root" lint --staged || exit $?
"$memsys" -C "$root" regen --check --staged || exit $?
`)
}

// shellQuote quotes s for sh: inside single quotes nothing is special
// but the single quote itself, which closes, is escaped, and reopens.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isOurs reports whether the file at p is a hook memsys wrote. A
// missing or unreadable file is not.
func isOurs(p string) bool {
	data, ok := workspace.ReadSmall(p, 1<<20)
	if !ok {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSuffix(line, "\r") == marker {
			return true
		}
	}
	return false
}

// Install writes the hook for the memory at memRoot (an absolute folder
// inside the repository) and returns the line to print. It is
// idempotent and chains a hook someone else wrote.
func Install(h Place, memRoot string) (string, error) {
	root, err := filepath.Rel(h.top, memRoot)
	if err != nil || root == ".." || strings.HasPrefix(root, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("hook install: the memory at %q is outside the git repository at %q: run install inside it", memRoot, h.top)
	}
	script := Script(filepath.ToSlash(root))
	if workspace.IsDirNoFollow(h.path) {
		return "", fmt.Errorf("hook install: %s is a folder: move it away, then run install again", h.show(h.path))
	}
	if isOurs(h.path) {
		if cur, ok := workspace.ReadSmall(h.path, 1<<20); ok && bytes.Equal(cur, script) && workspace.IsExecutable(h.path) {
			return fmt.Sprintf("nothing to do: %s is memsys's hook already", h.show(h.path)), nil
		}
		if err := h.write(script); err != nil {
			return "", err
		}
		return fmt.Sprintf("updated %s", h.show(h.path)), nil
	}
	if !workspace.Exists(h.path) {
		if err := h.write(script); err != nil {
			return "", err
		}
		return fmt.Sprintf("installed %s: it runs memsys lint --staged and memsys regen --check --staged", h.show(h.path)), nil
	}
	return h.chain(script)
}

// chain installs script in front of someone else's hook, which moves to
// the chained name and runs first.
func (h Place) chain(script []byte) (string, error) {
	if workspace.Exists(h.chained) {
		return "", fmt.Errorf("hook install: %s is not memsys's hook and %s exists already: move one of them away, then run install again", h.show(h.path), h.show(h.chained))
	}
	// Write ours beside it first, so the only moment without a
	// pre-commit hook is between two renames.
	tmp, err := h.writeTemp(script)
	if err != nil {
		return "", err
	}
	if err := workspace.Rename(h.path, h.chained); err != nil {
		workspace.Discard(tmp)
		return "", fmt.Errorf("hook install: cannot move %s to %s: %v", h.show(h.path), h.show(h.chained), errors.Unwrap(err))
	}
	if err := workspace.Rename(tmp, h.path); err != nil {
		workspace.Discard(tmp)
		if err2 := workspace.Rename(h.chained, h.path); err2 != nil {
			return "", fmt.Errorf("hook install: cannot write %s (%v) and cannot move %s back: move it back by hand", h.show(h.path), errors.Unwrap(err), h.show(h.chained))
		}
		return "", fmt.Errorf("hook install: cannot write %s: %v", h.show(h.path), errors.Unwrap(err))
	}
	return fmt.Sprintf("installed %s: it runs %s first, then memsys lint --staged and memsys regen --check --staged", h.show(h.path), h.show(h.chained)), nil
}

// Uninstall removes memsys's hook, moving a chained hook back, and
// returns the line to print. A hook memsys did not write is never
// touched.
func Uninstall(h Place) (string, error) {
	if !isOurs(h.path) {
		if workspace.Exists(h.chained) {
			return "", fmt.Errorf("hook uninstall: %s is not memsys's hook, yet %s is there: decide by hand which one to keep", h.show(h.path), h.show(h.chained))
		}
		return fmt.Sprintf("nothing to do: memsys's hook is not installed in %s", h.show(filepath.Dir(h.path))), nil
	}
	if workspace.Exists(h.chained) {
		// One rename replaces ours with the original, bytes and mode
		// untouched.
		if err := workspace.Rename(h.chained, h.path); err != nil {
			return "", fmt.Errorf("hook uninstall: cannot move %s back to %s: %v", h.show(h.chained), h.show(h.path), errors.Unwrap(err))
		}
		return fmt.Sprintf("removed memsys's hook; restored %s from %s", h.show(h.path), h.show(h.chained)), nil
	}
	if err := workspace.Remove(h.path); err != nil {
		return "", fmt.Errorf("hook uninstall: cannot remove %s: %v", h.show(h.path), errors.Unwrap(err))
	}
	return fmt.Sprintf("removed %s", h.show(h.path)), nil
}

// write replaces the hook with an executable script atomically.
func (h Place) write(data []byte) error {
	tmp, err := h.writeTemp(data)
	if err != nil {
		return err
	}
	if err := workspace.Rename(tmp, h.path); err != nil {
		workspace.Discard(tmp)
		return fmt.Errorf("hook install: cannot write %s: %v", h.show(h.path), errors.Unwrap(err))
	}
	return nil
}

// writeTemp writes data to an executable temporary file beside the hook
// and returns its name. The hooks folder is created if needed (a fresh
// core.hooksPath).
func (h Place) writeTemp(data []byte) (string, error) {
	dir := filepath.Dir(h.path)
	tmp, err := workspace.WriteTempExecutable(dir, data)
	var te *workspace.TempError
	if errors.As(err, &te) {
		switch te.Step {
		case "mkdir":
			return "", fmt.Errorf("hook install: cannot create %s: %v", h.show(dir), errors.Unwrap(te.Err))
		case "create":
			return "", fmt.Errorf("hook install: cannot write in %s: %v", h.show(dir), errors.Unwrap(te.Err))
		}
		return "", fmt.Errorf("hook install: cannot write %s: %v", h.show(h.path), te.Err)
	}
	return tmp, err
}
