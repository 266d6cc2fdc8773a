package words

import (
	"strings"
	"unicode/utf8"
)

// ClipLen is how much of a user's input a message quotes back: enough
// to recognise it, short enough that a 1 MB argument stays one line.
const ClipLen = 60

// Clip shortens text a user gave (an argument, a flag or JSON value, a
// line of a file) for quoting back in a message: at most ClipLen bytes
// (see ClipTo). Every message that echoes input clips it this one way.
func Clip(s string) string { return ClipTo(s, ClipLen) }

// ClipTo is Clip with its own limit n: at most n bytes of s, cut at a
// rune boundary so the excerpt stays UTF-8, and "…" marking the cut.
func ClipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ClipFields clips every run of non-space characters in msg longer
// than ClipLen (see Clip). It is for messages memsys does not word
// itself, such as its flag parser's "invalid value ... for flag", which
// quote the input whole; msg's own words are short and stay as they are.
func ClipFields(msg string) string {
	var b strings.Builder
	for len(msg) > 0 {
		i := strings.IndexByte(msg, ' ')
		if i < 0 {
			i = len(msg)
		}
		b.WriteString(Clip(msg[:i]))
		if i < len(msg) {
			b.WriteByte(' ')
			i++
		}
		msg = msg[i:]
	}
	return b.String()
}

// ClipPath is Clip for a file or folder name a user gave: paths are
// longer than a word, so the limit is PATH-sized, yet a 100 kB argument
// still gives one short line.
func ClipPath(p string) string { return ClipTo(p, 256) }
