// Package hook installs and removes the git pre-commit hook that runs
// memsys lint --staged and memsys regen --check --staged, for repositories
// without the pre-commit framework.
//
// The hook goes where git says hooks live (core.hooksPath and worktrees
// resolved by git, through gitx); an existing hook someone else wrote is
// never replaced but chained, and uninstall moves it back byte for byte.
// Every file change goes through workspace: temporary file, fsync,
// rename.
package hook
