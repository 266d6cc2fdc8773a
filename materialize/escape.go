package materialize

import (
	"strings"
)

// Escaping. Event text lands in table cells and list items of the
// derived files, which lint, regen --check and agents read back by
// structure. esc turns everything that could change that structure into
// HTML character references, which a markdown renderer shows as the
// original text but no line-oriented reader can mistake for structure:
//
//	&  (only where it starts a reference such as &lt;)  &amp;
//	<  >  (so <!--, -->, <script> are inert)            &lt;  &gt;
//	|                                                   &#124;
//	newline                                             <br> in graph cells, a space in context
//	the blank in "event horizon" / "last generated"     &#32; (&#9; for a tab), any case
//	a block marker first in a context list item:
//	  # > - + * = ~ `                                   &#35; &gt; &#45; &#43; &#42; &#61; &#126; &#96;
//	  "1." / "1)"                                       1&#46; / 1&#41;
//
// Table cells are inline text, so there a leading "3.11" or "#" stays as
// written. unesc inverts esc exactly (ParseGraph relies on it), so
// graph.md round-trips. Attribute cells also escape a ';' before a
// blank or at the end (&#59;) and, in keys, '=' (&#61;): the attribute
// separators are "; " and the first "=".

// entities are the references esc writes and unesc reads, nothing more.
var entities = []struct{ ref, text string }{
	{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&#124;", "|"},
	{"&#32;", " "}, {"&#9;", "\t"}, {"&#35;", "#"}, {"&#45;", "-"},
	{"&#43;", "+"}, {"&#42;", "*"}, {"&#61;", "="}, {"&#126;", "~"},
	{"&#96;", "`"}, {"&#46;", "."}, {"&#41;", ")"}, {"&#59;", ";"},
}

const brTag = "<br>"

// cleanText normalises event text for the model: CRLF and lone CR are
// line feeds, surrounding white space is dropped.
func cleanText(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return strings.TrimSpace(s)
}

// cleanName normalises an entity name: white space runs become one
// space, so a name always fits on one line.
func cleanName(s string) string {
	if !needsFields(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

func needsFields(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return true
	}
	// One comparison for the usual byte, a printable ASCII one: every
	// entity name replay reads goes through here (cleanName).
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c > ' ' && c < 0x80 {
			continue
		}
		if c >= 0x80 || c >= '\t' && c <= '\r' || c == ' ' && s[i-1] == ' ' {
			return true
		}
	}
	return false
}

// escOpts selects the variant of esc.
type escOpts struct {
	newline string // what a newline becomes
	lead    bool   // escape a block marker first in the text (list items)
	semi    bool   // escape ';' (attribute values and keys)
	equals  bool   // escape '=' (attribute keys)
}

var (
	cellEsc = escOpts{newline: brTag}
	lineEsc = escOpts{newline: " ", lead: true}
	inlEsc  = escOpts{newline: " "}
	valEsc  = escOpts{newline: brTag, semi: true}
	keyEsc  = escOpts{newline: brTag, semi: true, equals: true}
)

// escCell escapes text for a graph.md table cell.
func escCell(s string) string { return esc(s, cellEsc) }

// escLine escapes text that starts a context.md list item.
func escLine(s string) string { return esc(s, lineEsc) }

// escInline escapes text inside a context.md line, after its start.
func escInline(s string) string { return esc(s, inlEsc) }

func esc(s string, o escOpts) string {
	if s == "" || !needsEsc(s, o) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	switch m := lead(s, o); m {
	case 0:
	case '1':
		n := leadingDigits(s)
		b.WriteString(s[:n])
		if s[n] == '.' {
			b.WriteString("&#46;")
		} else {
			b.WriteString("&#41;")
		}
		s = s[n+1:]
	default:
		for _, e := range entities {
			if e.text == string(m) {
				b.WriteString(e.ref)
			}
		}
		s = s[1:]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '&':
			if entityAt(s[i:], o.semi) {
				b.WriteString("&amp;")
			} else {
				b.WriteByte('&')
			}
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '|':
			b.WriteString("&#124;")
		case '\n':
			b.WriteString(o.newline)
		case ';':
			if o.semi && (i+1 == len(s) || s[i+1] == ' ') {
				b.WriteString("&#59;")
			} else {
				b.WriteByte(c)
			}
		case '=':
			if o.equals {
				b.WriteString("&#61;")
			} else {
				b.WriteByte(c)
			}
		case 'e', 'E', 'l', 'L':
			w, n := markerGap(s[i:])
			if n == 0 {
				b.WriteByte(c)
				continue
			}
			// The first word as written, then the blanks as references.
			b.WriteString(s[i : i+w])
			for _, g := range []byte(s[i+w : i+w+n]) {
				if g == '\t' {
					b.WriteString("&#9;")
				} else {
					b.WriteString("&#32;")
				}
			}
			i += w + n - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// lead returns the block marker s starts with, '1' for an ordered list
// marker, 0 for none or when o does not escape markers.
func lead(s string, o escOpts) byte {
	if !o.lead {
		return 0
	}
	switch s[0] {
	case '#', '>', '-', '+', '*', '=', '~', '`':
		return s[0]
	}
	if n := leadingDigits(s); n > 0 && n < len(s) && (s[n] == '.' || s[n] == ')') {
		return '1'
	}
	return 0
}

// escFirst marks the bytes at which needsEsc must look closer; every
// other byte is plain text in every variant.
var escFirst = func() (t [256]bool) {
	for _, c := range []byte("&<>|\n;=eElL") {
		t[c] = true
	}
	return t
}()

func needsEsc(s string, o escOpts) bool {
	if lead(s, o) != 0 {
		return true
	}
	for i := 0; i < len(s); i++ {
		if !escFirst[s[i]] {
			continue
		}
		switch s[i] {
		case '&', '<', '>', '|', '\n':
			return true
		case ';':
			if o.semi && (i+1 == len(s) || s[i+1] == ' ') {
				return true
			}
		case '=':
			if o.equals {
				return true
			}
		case 'e', 'E', 'l', 'L':
			if mayMark(s, i) {
				if _, n := markerGap(s[i:]); n > 0 {
					return true
				}
			}
		}
	}
	return false
}

// mayMark reports whether s[i:] can start one of markerGap's phrases:
// "ev..." or "la..." in any case. Those letters are everywhere in
// names, and markerGap's folding comparison is not free. (No non-ASCII
// letter folds to 'v' or 'a', so the second byte decides.)
func mayMark(s string, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	c, d := s[i]|0x20, s[i+1]|0x20
	return c == 'e' && d == 'v' || c == 'l' && d == 'a'
}

func leadingDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// markerGap looks for "event horizon" or "last generated" (any case,
// blanks between) at the start of s, the words lint and agents search
// derived files for. It returns the length of the first word and of the
// blanks, n == 0 when neither is there.
func markerGap(s string) (w, n int) {
	for _, m := range [...][2]string{{"event", "horizon"}, {"last", "generated"}} {
		if len(s) <= len(m[0]) || !strings.EqualFold(s[:len(m[0])], m[0]) {
			continue
		}
		rest := s[len(m[0]):]
		n := 0
		for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t') {
			n++
		}
		if n > 0 && len(rest)-n >= len(m[1]) && strings.EqualFold(rest[n:n+len(m[1])], m[1]) {
			return len(m[0]), n
		}
	}
	return 0, 0
}

// entityAt reports whether s starts with something a markdown renderer
// would read as a character reference: '&', a name or '#' and digits,
// then ';'. With atEnd, a name that runs to the end of s counts too: in
// an attribute value the "; " separator would complete it.
func entityAt(s string, atEnd bool) bool {
	i := 1
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ';':
			return i > 1
		case isNameByte(c), c == '#' && i == 1:
		default:
			return false
		}
	}
	return atEnd && i > 1
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// splitAttrs splits an attributes cell on its "; " separators: a ';'
// that ends a character reference (&#124;) is not one.
func splitAttrs(cell string) []string { return splitSemis(cell, true) }

// splitSemis splits cell at each ';' that does not end a character
// reference, and with blank only at those followed by a blank (memsys's
// "; " separator; a hand-kept graph may write "k=v;k=v").
func splitSemis(cell string, blank bool) []string {
	var parts []string
	start := 0
	for i := 0; i < len(cell); i++ {
		if cell[i] != ';' || blank && (i+1 == len(cell) || cell[i+1] != ' ') {
			continue
		}
		j := i - 1
		for j >= start && (isNameByte(cell[j]) || cell[j] == '#') {
			j--
		}
		if j >= start && cell[j] == '&' && j < i-1 {
			continue
		}
		parts = append(parts, cell[start:i])
		start = i + 1
		if blank {
			start, i = i+2, i+1
		}
	}
	return append(parts, cell[start:])
}

// unesc inverts esc for graph.md cells.
func unesc(s string) string {
	if strings.IndexByte(s, '&') < 0 && !strings.Contains(s, brTag) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		switch {
		case s[i] == '&':
			ok := false
			for _, e := range entities {
				if strings.HasPrefix(s[i:], e.ref) {
					b.WriteString(e.text)
					i += len(e.ref)
					ok = true
					break
				}
			}
			if !ok {
				b.WriteByte('&')
				i++
			}
		case s[i] == '<' && strings.HasPrefix(s[i:], brTag):
			b.WriteByte('\n')
			i += len(brTag)
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}
