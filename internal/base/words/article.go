package words

// Article is the indefinite article for noun, "an" before a vowel
// letter and "a" otherwise: "an escalation", "a decision". memsys's
// nouns are its event types and words like them, lower-case ASCII,
// where the first letter decides.
func Article(noun string) string {
	if noun != "" {
		switch noun[0] | 0x20 {
		case 'a', 'e', 'i', 'o', 'u':
			return "an"
		}
	}
	return "a"
}
