// Package integrations holds no code of its own. Its tests check the
// files other tools run memsys from: .pre-commit-hooks.yaml, run the way
// the pre-commit framework runs hooks, and the GitHub composite action
// and workflows under .github, checked with actionlint. They live apart
// from cmd/memsys because they test repository files, not a command, and
// build the memsys binary once for themselves.
package integrations
