//go:build unix

package workspace

import (
	"io/fs"
	"syscall"
)

// newFileMode is the mode of a file WriteFile creates: 0666 less the
// umask, as open(2) and git give a new file. WriteFile writes through a
// temporary file (0600) and sets the mode with chmod, which the umask
// does not limit, so it takes the umask once here, before any other
// goroutine could create a file while it is briefly 0: reading it means
// setting it. Before, every new file was 0644 whatever the umask: world
// readable under umask 077, and not writable by the group under a
// shared repository's 002, so another member's append failed.
var newFileMode = func() fs.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return 0o666 &^ fs.FileMode(m)
}()
