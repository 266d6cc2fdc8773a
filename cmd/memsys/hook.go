package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/io/workspace"
)

// hookMarker is a line of every pre-commit hook memsys writes. uninstall
// removes only a file that holds it, so a hook someone else wrote (or
// replaced ours with) is never deleted.
const hookMarker = "# memsys:hook pre-commit"

// chainedSuffix names the place an existing pre-commit hook moves to when
// memsys installs its own; memsys's hook runs it first, and uninstall
// moves it back.
const chainedSuffix = ".memsys-chained"

func hookCommand() *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "install or remove a git pre-commit hook that runs memsys",
		ArgsUsage: "install|uninstall",
		Description: `For repositories without the pre-commit framework (see
.pre-commit-hooks.yaml for that): a git pre-commit hook that runs

  memsys lint --staged    the staged log only appends to HEAD
  memsys regen --check    the derived files are current

The hook goes where git looks for hooks (git rev-parse --git-path hooks),
so core.hooksPath is respected. An existing pre-commit hook is not
replaced: it moves to pre-commit.memsys-chained and memsys's hook runs it
first, stopping with its exit status if it fails. uninstall removes
memsys's hook and moves the chained hook back, unchanged.`,
		OnUsageError: usageOneLine,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usageErr("unknown hook command %q: use memsys hook install or memsys hook uninstall", cmd.Args().First())
			}
			return usageErr("hook needs a command: memsys hook install or memsys hook uninstall")
		},
		Commands: []*cli.Command{
			{
				Name:      "install",
				Usage:     "write the pre-commit hook (idempotent; chains an existing hook)",
				ArgsUsage: " ",
				Description: `Writes the pre-commit hook into the repository around the current folder
(or -C DIR). The hook checks the memory root around that folder; run
install from the folder that holds CHANGELOG.md, or pass -C, in a
repository with several memories. Running install again rewrites the hook
in place and changes nothing else.`,
				OnUsageError: hookUsage,
				Action:       runHookInstall,
			},
			{
				Name:      "uninstall",
				Usage:     "remove the pre-commit hook and restore a chained one",
				ArgsUsage: " ",
				Description: `Removes memsys's pre-commit hook and moves a hook it chained back to
pre-commit, byte for byte. Without memsys's hook it changes nothing and
exits 0; a pre-commit hook memsys did not write is never touched.`,
				OnUsageError: hookUsage,
				Action:       runHookUninstall,
			},
		},
	}
}

// hookUsage is usageOneLine with the subcommand's full name, so the
// pointer to help reads "memsys hook install --help".
func hookUsage(_ context.Context, cmd *cli.Command, err error, _ bool) error {
	name := strings.TrimPrefix(cmd.FullName(), "memsys ")
	return usageErr("%s: %v: see memsys %s --help", name, err, name)
}

// hookPlace is where the pre-commit hook of one repository lives.
type hookPlace struct {
	start   string // absolute folder memsys was started in (or -C)
	top     string // absolute top-level folder of the working tree
	path    string // absolute path of the pre-commit hook
	chained string // absolute path the existing hook moves to
}

// show gives p relative to the start folder, with slashes, so messages
// read the same on every platform and in tests.
func (h hookPlace) show(p string) string {
	if rel, err := filepath.Rel(h.start, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// findHookPlace asks git where hooks live. git resolves core.hooksPath
// (relative to the top level, where hooks run) and worktrees itself;
// memsys never guesses .git/hooks.
func findHookPlace(ctx context.Context, cmd *cli.Command) (hookPlace, error) {
	start := cmd.String("C")
	if start == "" {
		start = "."
	}
	abs, err := filepath.Abs(start)
	if err != nil {
		return hookPlace{}, cannotRun{err}
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return hookPlace{}, usageErr("hook: %q is not a folder", start)
	}
	top, err := gitOut(ctx, abs, start, "rev-parse", "--show-toplevel")
	if err != nil {
		return hookPlace{}, err
	}
	hooks, err := gitOut(ctx, abs, start, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return hookPlace{}, err
	}
	if !filepath.IsAbs(hooks) {
		hooks = filepath.Join(abs, hooks)
	}
	p := filepath.Join(hooks, "pre-commit")
	return hookPlace{start: abs, top: filepath.Clean(top), path: p, chained: p + chainedSuffix}, nil
}

// gitOut runs git with a fixed argument list in dir and returns its
// first line of output. Its failures become one exit-2 line naming the
// folder as the user gave it (shown).
func gitOut(ctx context.Context, dir, shown string, args ...string) (string, error) {
	c := exec.CommandContext(ctx, "git", args...)
	c.Dir = dir
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return "", usageErr("hook: cannot run git: %v: install git and put it on PATH", err)
		}
		msg := strings.TrimSpace(stderr.String())
		switch {
		case strings.Contains(msg, "not a git repository"):
			return "", usageErr("hook: %q is not inside a git repository: run memsys hook in the repository whose commits memsys should check (or git init first)", shown)
		case strings.Contains(msg, "must be run in a work tree"):
			return "", usageErr("hook: %q is not inside a git working tree: a pre-commit hook needs one; run memsys hook in the checkout", shown)
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return "", usageErr("hook: git %s failed: %s", strings.Join(args, " "), msg)
	}
	out, _, _ := strings.Cut(stdout.String(), "\n")
	return strings.TrimSuffix(out, "\r"), nil
}

// hookScript is the pre-commit hook for the memory at root (relative to
// the top level, slash-separated). It is POSIX sh because git runs hooks
// with sh everywhere, Git for Windows included.
func hookScript(root string) []byte {
	return []byte(`#!/bin/sh
` + hookMarker + `
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
"$memsys" -C "$root" regen --check || exit $?
`)
}

// shellQuote quotes s for sh: inside single quotes nothing is special
// but the single quote itself, which closes, is escaped, and reopens.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isMemsysHook reports whether the file at p is a hook memsys wrote. A
// missing or unreadable file is not.
func isMemsysHook(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSuffix(line, "\r") == hookMarker {
			return true
		}
	}
	return false
}

// pathExists reports whether something (a file, a link, even a broken one)
// is at p.
func pathExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func runHookInstall(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("hook install takes no arguments, got %q", cmd.Args().First())
	}
	h, err := findHookPlace(ctx, cmd)
	if err != nil {
		return err
	}
	memRoot, err := workspace.FindRoot(h.start, cmd.IsSet("C"))
	if err != nil {
		return cannotRun{err}
	}
	root, err := filepath.Rel(h.top, memRoot)
	if err != nil || root == ".." || strings.HasPrefix(root, ".."+string(filepath.Separator)) {
		return usageErr("hook install: the memory at %q is outside the git repository at %q: run install inside it", memRoot, h.top)
	}
	script := hookScript(filepath.ToSlash(root))
	out := cmd.Root().Writer

	if fi, err := os.Lstat(h.path); err == nil && fi.IsDir() {
		return usageErr("hook install: %s is a folder: move it away, then run install again", h.show(h.path))
	}
	ours := isMemsysHook(h.path)
	if ours {
		if cur, err := os.ReadFile(h.path); err == nil && bytes.Equal(cur, script) {
			if fi, err := os.Stat(h.path); err == nil && fi.Mode().Perm()&0o100 != 0 {
				fmt.Fprintf(out, "nothing to do: %s is memsys's hook already\n", h.show(h.path))
				return nil
			}
		}
		if err := h.write(script); err != nil {
			return err
		}
		fmt.Fprintf(out, "updated %s\n", h.show(h.path))
		return nil
	}
	if !pathExists(h.path) {
		if err := h.write(script); err != nil {
			return err
		}
		fmt.Fprintf(out, "installed %s: it runs memsys lint --staged and memsys regen --check\n", h.show(h.path))
		return nil
	}
	// Someone else's hook: keep it, run it first.
	if pathExists(h.chained) {
		return usageErr("hook install: %s is not memsys's hook and %s exists already: move one of them away, then run install again", h.show(h.path), h.show(h.chained))
	}
	// Write ours beside it first, so the only moment without a
	// pre-commit hook is between two renames.
	tmp, err := h.writeTemp(script)
	if err != nil {
		return err
	}
	if err := os.Rename(h.path, h.chained); err != nil {
		os.Remove(tmp)
		return usageErr("hook install: cannot move %s to %s: %v", h.show(h.path), h.show(h.chained), errors.Unwrap(err))
	}
	if err := os.Rename(tmp, h.path); err != nil {
		os.Remove(tmp)
		if err2 := os.Rename(h.chained, h.path); err2 != nil {
			return usageErr("hook install: cannot write %s (%v) and cannot move %s back: move it back by hand", h.show(h.path), errors.Unwrap(err), h.show(h.chained))
		}
		return usageErr("hook install: cannot write %s: %v", h.show(h.path), errors.Unwrap(err))
	}
	syncDir(filepath.Dir(h.path))
	fmt.Fprintf(out, "installed %s: it runs %s first, then memsys lint --staged and memsys regen --check\n", h.show(h.path), h.show(h.chained))
	return nil
}

func runHookUninstall(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("hook uninstall takes no arguments, got %q", cmd.Args().First())
	}
	h, err := findHookPlace(ctx, cmd)
	if err != nil {
		return err
	}
	out := cmd.Root().Writer
	if !isMemsysHook(h.path) {
		if pathExists(h.chained) {
			return usageErr("hook uninstall: %s is not memsys's hook, yet %s is there: decide by hand which one to keep", h.show(h.path), h.show(h.chained))
		}
		fmt.Fprintf(out, "nothing to do: memsys's hook is not installed in %s\n", h.show(filepath.Dir(h.path)))
		return nil
	}
	if pathExists(h.chained) {
		// One rename replaces ours with the original, bytes and mode
		// untouched.
		if err := os.Rename(h.chained, h.path); err != nil {
			return usageErr("hook uninstall: cannot move %s back to %s: %v", h.show(h.chained), h.show(h.path), errors.Unwrap(err))
		}
		syncDir(filepath.Dir(h.path))
		fmt.Fprintf(out, "removed memsys's hook; restored %s from %s\n", h.show(h.path), h.show(h.chained))
		return nil
	}
	if err := os.Remove(h.path); err != nil {
		return usageErr("hook uninstall: cannot remove %s: %v", h.show(h.path), errors.Unwrap(err))
	}
	syncDir(filepath.Dir(h.path))
	fmt.Fprintf(out, "removed %s\n", h.show(h.path))
	return nil
}

// write replaces the hook with an executable script atomically.
func (h hookPlace) write(data []byte) error {
	tmp, err := h.writeTemp(data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, h.path); err != nil {
		os.Remove(tmp)
		return usageErr("hook install: cannot write %s: %v", h.show(h.path), errors.Unwrap(err))
	}
	syncDir(filepath.Dir(h.path))
	return nil
}

// writeTemp writes data to an executable temporary file beside the hook,
// synced, and returns its name. The hooks folder is created if needed (a
// fresh core.hooksPath).
func (h hookPlace) writeTemp(data []byte) (string, error) {
	dir := filepath.Dir(h.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", usageErr("hook install: cannot create %s: %v", h.show(dir), errors.Unwrap(err))
	}
	f, err := os.CreateTemp(dir, ".memsys-tmp-pre-commit-*")
	if err != nil {
		return "", usageErr("hook install: cannot write in %s: %v", h.show(dir), errors.Unwrap(err))
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(fs.FileMode(0o755))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return "", usageErr("hook install: cannot write %s: %v", h.show(h.path), err)
	}
	return tmp, nil
}

// syncDir makes a rename in dir durable; failure only loses durability,
// so it is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
