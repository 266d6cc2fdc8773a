//go:build !unix

package workspace

import "io/fs"

// newFileMode is the mode of a file WriteFile creates (umask_unix.go);
// without a umask, what a new file gets under the usual 022.
const newFileMode fs.FileMode = 0o644
