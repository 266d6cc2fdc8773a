package materialize

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"
	"strings"

	"github.com/memsys/memsys/parse"
)

// A derived file ends with a seal: a comment holding a digest of the
// events it was made from and of its own content,
//
//	<!-- memsys digest: 0123...cdef -->
//
// so `memsys status` can tell, without replaying anything, that a file
// is exactly what regen would write now: it hashes the events as it
// reads their headings and the file's content, and compares. A hand
// edit, an event edited in place, or a change of the context options
// all break the seal, exactly when lint's drift rules (MS204, MS205)
// find the file differs from what regen writes. That is issue 10's
// "one freshness verdict": status and lint agree in every case
// (TestStatusAndLintAgreeOnFreshness).

// sealPrefix starts the seal line.
const sealPrefix = "<!-- memsys digest: "

// RenderVersion names what RenderGraph and RenderContext write for given
// events, and goes into every seal: a memsys whose renderer writes
// other bytes for the same events ("1 day" where an older one wrote "1
// days") must not take an older file's seal for its own, or status would
// call fresh what lint finds differs from what regen writes.
// TestRenderVersion fails when the rendered output of its corpus changes
// and this number does not.
const RenderVersion = 3

// A SourceHasher digests a history as regen reads it: the text of each
// event (line endings already LF), in order, and the options that
// shape context.md. Feed it the archive's events, then the log's.
type SourceHasher struct {
	h hash.Hash
	// buf gathers one event's digested bytes, so the hash is written
	// once per event rather than twice per line.
	buf []byte
}

// NewSourceHasher starts a digest for options opt.
func NewSourceHasher(opt Options) *SourceHasher {
	s := &SourceHasher{h: sha256.New()}
	s.h.Write([]byte("memsys-source-v1 render-" + strconv.Itoa(RenderVersion) + " " + OptionsKey(opt) + "\n"))
	return s
}

// OptionsKey names the options that shape context.md, as the seal and
// the history cache's key take them (after the defaults and the decay
// floor). The decay days are named only when they are not the
// defaults: they came after the seal, and with the defaults the key,
// so every file sealed before, is what it was. Without them a change
// of context.decayP3Days left status calling fresh, and regen keeping,
// a context.md lint found differs from what regen writes.
func OptionsKey(opt Options) string {
	opt = opt.withDefaults()
	k := strconv.Itoa(opt.ContextWords) + " " + strconv.Itoa(opt.WindowHours) + " " + strconv.Itoa(opt.WindowEvents)
	if d := DefaultOptions(); opt.DecayP2Days != d.DecayP2Days || opt.DecayP3Days != d.DecayP3Days {
		k += " decay " + strconv.Itoa(opt.DecayP2Days) + " " + strconv.Itoa(opt.DecayP3Days)
	}
	return k
}

// Add digests the next event. Headers-only events carry the same Text
// as fully parsed ones, so status can hash what regen replays. Blank
// lines and trailing blanks are left out: the parser ignores them, so
// the derived files do not depend on them (TestRegenLineEndings).
func (s *SourceHasher) Add(e *parse.Event) {
	b := s.buf[:0]
	text := e.Text
	for text != "" {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		// By hand rather than strings.TrimRight: with a two-byte
		// cutset that builds its byte set for every line.
		j := len(line)
		for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
			j--
		}
		if j > 0 {
			b = append(append(b, line[:j]...), '\n')
		}
	}
	s.buf = append(b, 0)
	s.h.Write(s.buf)
}

// Sum returns the digest of the events so far.
func (s *SourceHasher) Sum() []byte { return s.h.Sum(nil) }

// Seal returns file with its seal line appended, for the events whose
// digest is source.
func Seal(file, source []byte) []byte {
	out := make([]byte, 0, len(file)+len(sealPrefix)+40)
	out = append(out, file...)
	out = append(out, sealPrefix...)
	out = append(out, sealOf(file, source)...)
	return append(out, " -->\n"...)
}

// sealOwned is Seal for a file the caller has just rendered and
// shares with nobody: the seal goes in the file's spare capacity
// (RenderGraph leaves room for it) instead of a copy of the whole file.
func sealOwned(file, source []byte) []byte {
	file = append(file, sealPrefix...)
	file = append(file, sealOf(file[:len(file)-len(sealPrefix)], source)...)
	return append(file, " -->\n"...)
}

func sealOf(body, source []byte) string {
	h := sealHash(source)
	h.Write(body)
	return sealHex(h)
}

// sealHash starts the hash of a seal: the body follows the source.
func sealHash(source []byte) hash.Hash {
	h := sha256.New()
	h.Write(source)
	return h
}

// sealHex is the seal's digest once h has the body.
func sealHex(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)[:16]) }

// Sealed reports whether file (as read, CRLF allowed) carries a seal
// that matches its content and the events whose digest is source: the
// file is what regen writes from those events. A file without a seal
// (kept by hand, or written by an older memsys) is not.
func Sealed(file, source []byte) bool {
	file = bytes.ReplaceAll(file, []byte("\r\n"), []byte("\n"))
	i := bytes.LastIndex(file, []byte("\n"+sealPrefix))
	if i < 0 {
		return false
	}
	body, line := file[:i+1], file[i+1:]
	want := sealPrefix + sealOf(body, source) + " -->\n"
	return string(line) == want || string(line) == want[:len(want)-1]
}

// SourceDigest is the SourceHasher's digest of events.
func SourceDigest(events []parse.Event, opt Options) []byte {
	s := NewSourceHasher(opt)
	for i := range events {
		s.Add(&events[i])
	}
	return s.Sum()
}

// SealOnlyDiffers reports whether a and b, two sealed files, hold the
// same text and differ only in their seal lines: what a memsys with
// another renderer version (RenderVersion) wrote for the same events,
// as opposed to a hand edit, which changes the text or follows the
// seal.
func SealOnlyDiffers(a, b []byte) bool {
	ab, aok := splitSeal(a)
	bb, bok := splitSeal(b)
	return aok && bok && bytes.Equal(ab, bb) && !bytes.Equal(a, b)
}

// splitSeal returns the text above file's seal line, and whether the
// file ends with a well-formed one.
func splitSeal(file []byte) ([]byte, bool) {
	i := bytes.LastIndex(file, []byte("\n"+sealPrefix))
	if i < 0 {
		return nil, false
	}
	line := strings.TrimSuffix(string(file[i+1:]), "\n")
	hexPart, ok := strings.CutPrefix(line, sealPrefix)
	if !ok || !strings.HasSuffix(hexPart, " -->") {
		return nil, false
	}
	hexPart = strings.TrimSuffix(hexPart, " -->")
	if _, err := hex.DecodeString(hexPart); err != nil || len(hexPart) != 32 {
		return nil, false
	}
	return file[:i+1], true
}

// HasSeal reports whether file ends with a seal line of the form regen
// writes, whatever events it was computed from: the file is one memsys
// wrote (and perhaps someone edited since), not one kept by hand from
// before memsys.
func HasSeal(file []byte) bool {
	_, ok := splitSeal(bytes.ReplaceAll(file, []byte("\r\n"), []byte("\n")))
	return ok
}

// Unseal returns file without its seal line: the rendered content, as
// RenderGraph and RenderContext write it.
func Unseal(file []byte) []byte {
	if i := bytes.LastIndex(file, []byte("\n"+sealPrefix)); i >= 0 {
		return file[:i+1]
	}
	return file
}
