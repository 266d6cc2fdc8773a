package history

import (
	"bytes"

	"github.com/memsys/memsys/parse"
)

// PureAppend reports whether next is old with bytes added at the end,
// starting at a heading that ends the last event (after optional blank
// lines and "---"; "#tag" and "#### Notes" would extend it), so no
// committed byte changed and no committed event grew: a walk over
// thousands of commits can then skip parsing either version. A false
// result only means "compare properly".
func PureAppend(old, next []byte) bool {
	if len(old) == 0 || !bytes.HasPrefix(next, old) || old[len(old)-1] != '\n' {
		return len(old) == len(next) && bytes.Equal(old, next)
	}
	rest := next[len(old):]
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i]
			rest = rest[i+1:]
		} else {
			rest = nil
		}
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0, bytes.Equal(t, []byte("---")):
			continue
		case parse.ClosesEvent(bytes.TrimSuffix(line, []byte{'\r'})):
			return true
		}
		return false
	}
	return true
}
