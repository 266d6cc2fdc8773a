package words

import "strconv"

// Plural is a count and its noun, "1 event" or "2 events": every message
// that counts things spells them this one way, so none reads "1 events".
// noun is the singular; the plural adds an "s", as every noun memsys
// counts does.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
