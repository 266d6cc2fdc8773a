package memory

import (
	"bytes"
	"strings"

	"github.com/memsys/memsys/internal/io/workspace"
)

// IgnoreLock returns .gitignore's content with a line for the lock file
// (workspace.LockName) added, and whether it had to be added: the lock
// is memsys's, never the project's, and an untracked file in every
// `git status` is noise. An existing line naming it (with or without a
// leading "/") is kept as it is.
func IgnoreLock(gitignore []byte) ([]byte, bool) {
	for _, l := range strings.Split(string(gitignore), "\n") {
		l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
		if l == workspace.LockName || l == "/"+workspace.LockName {
			return gitignore, false
		}
	}
	nl := Newline(gitignore) // a CRLF file stays CRLF
	out := append([]byte(nil), gitignore...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, nl...)
	}
	out = append(out, "# memsys's lock file (memsys init)"+nl+"/"+workspace.LockName+nl...)
	return out, true
}
