package lint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

// BaselineFile is the baseline memsys lint --write-baseline writes at
// the memory root and every later run reads: the findings a team
// accepted when it adopted memsys on a log that already had them, so CI
// fails only on new ones. Commit it.
const BaselineFile = ".memsys-baseline.json"

// MarkBaseline marks the findings on events the base revision already
// has (base reports whether it has the event ID), so lint --base and
// --staged judge only what the change added: a committed event cannot
// be edited (MS301), so a finding on it could never be fixed by the
// change. The append-only rules (MS3xx) judge the change itself and
// are never marked.
func MarkBaseline(ds diag.Diagnostics, base func(event string) bool) {
	for i := range ds {
		d := &ds[i]
		if d.Event != "" && !strings.HasPrefix(d.Rule, "MS3") && d.Rule != "MS208" && base(d.Event) {
			d.Baseline = true
		}
	}
}

// BaselineEntry is one accepted finding.
type BaselineEntry struct {
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Event       string `json:"event,omitempty"`
	Message     string `json:"message"`
	Fingerprint string `json:"fingerprint"`
}

// Baseline is the content of BaselineFile.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// numbers are the positions a message may quote ("line 12", ":12:3"),
// which change when lines are added above the finding. Compiled on first
// use, not at package init, which every command pays.
var numbers = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\bline |:)\d+(:\d+)?`) })

// memoryPositions are positions in the log or an archive file that a
// message quotes, their numbers already taken out ("CHANGELOG.md:N").
var memoryPositions = sync.OnceValue(func() *regexp.Regexp {
	names := []string{regexp.QuoteMeta(parse.LogFile)}
	for _, n := range parse.ArchiveFiles {
		names = append(names, regexp.QuoteMeta(n))
	}
	return regexp.MustCompile(`(?:[\w.-]+/)*\b(?:` + strings.Join(names, "|") + `):N\b`)
})

// digits are every number in a counting rule's message (Rule.Counts).
var digits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+`) })

// Fingerprint identifies a finding across runs: its rule, file, event
// and message with line numbers taken out, so it survives the lines
// shifting above it (an event appended, a paragraph added to the
// changelog above the log) but not a change to what it says.
//
// A finding on an event is fingerprinted as if the event were in the
// log even when it is in the archive: memsys archive moves events
// there, and the findings the team accepted on them must stay accepted
// (the README's adoption steps are baseline, then archive).
//
// For the same reason a position in the log or the archive that the
// message quotes ("evt-005 is already used at changelog-archive.md:63",
// "at line 61" while both copies were in the log) counts as a line
// alone, whichever file holds it.
//
// The number a counting rule quotes (Rule.Counts) is left out too.
func Fingerprint(d diag.Diagnostic) string { return fingerprint(d, true) }

// fingerprint is Fingerprint; without positions it is the fingerprint
// before positions in the memory files counted as lines, which a
// baseline written then holds (Baseline.match accepts both).
func fingerprint(d diag.Diagnostic, positions bool) string {
	msg := numbers().ReplaceAllString(legacyWording(d.Rule, d.Message), "${1}N")
	if r := registry[d.Rule]; r != nil && r.Counts {
		msg = digits().ReplaceAllString(msg, "N")
	}
	file := d.Range.File
	if d.Event != "" {
		dir, name := path.Split(file)
		if slices.Contains(parse.ArchiveFiles, name) {
			file = dir + parse.LogFile
		}
		if positions {
			msg = memoryPositions().ReplaceAllString(msg, "line N")
		}
	}
	h := sha256.Sum256([]byte(d.Rule + "\x00" + file + "\x00" + d.Event + "\x00" + msg))
	return hex.EncodeToString(h[:8])
}

// legacyWording is msg as rule worded it when baselines began to key
// on messages: a message corrected since (MS132 once read "a
// escalation event") keeps the fingerprint the old wording had, so a
// committed baseline and GitHub code scanning still match the finding.
func legacyWording(rule, msg string) string {
	if rule == "MS132" {
		return strings.Replace(msg, "is not a key an ", "is not a key a ", 1)
	}
	return msg
}

// SetFingerprints sets the Fingerprint of each of ds that has none.
// Call it while the paths are relative to the memory root, as the
// baseline's are, before any Relocate.
func SetFingerprints(ds diag.Diagnostics) {
	for i := range ds {
		if ds[i].Fingerprint == "" {
			ds[i].Fingerprint = Fingerprint(ds[i])
		}
	}
}

// NewBaseline records ds (the append-only rules and MS208 aside, which
// judge a change or the baseline itself) in a stable order.
func NewBaseline(ds diag.Diagnostics) Baseline {
	b := Baseline{Version: 1, Findings: []BaselineEntry{}}
	for _, d := range ds {
		if strings.HasPrefix(d.Rule, "MS3") || d.Rule == "MS208" {
			continue
		}
		b.Findings = append(b.Findings, BaselineEntry{Rule: d.Rule, File: d.Range.File, Event: d.Event, Message: d.Message, Fingerprint: Fingerprint(d)})
	}
	slices.SortStableFunc(b.Findings, func(x, y BaselineEntry) int {
		return strings.Compare(x.File+"\x00"+x.Rule+"\x00"+x.Fingerprint, y.File+"\x00"+y.Rule+"\x00"+y.Fingerprint)
	})
	return b
}

// Marshal writes the baseline as indented JSON with a final newline.
func (b Baseline) Marshal() []byte {
	out, _ := json.MarshalIndent(b, "", "  ")
	return append(out, '\n')
}

// ReadBaseline reads BaselineFile's content; file is its path, which
// errors name (a *config.Error, so a command shows it relative to where
// the user started memsys). A damaged or hand-edited file is one line
// naming the line and what is wrong, never a Go type name; keys it does
// not know are left alone, but every entry needs the rule and the
// fingerprint it is matched by.
func ReadBaseline(file string, data []byte) (Baseline, error) {
	r := baselineReader{file: file, src: data, dec: json.NewDecoder(bytes.NewReader(data))}
	b, err := r.read()
	if err != nil {
		return Baseline{}, err
	}
	return b, nil
}

// baselineFix ends every message about a damaged baseline file.
var baselineFix = front.Sprintf(": rewrite it with %s", front.WriteBaseline.Word())

type baselineReader struct {
	file string
	src  []byte
	dec  *json.Decoder
}

func (r *baselineReader) fail(off int64, format string, args ...any) error {
	if off > int64(len(r.src)) {
		off = int64(len(r.src))
	}
	line := bytes.Count(r.src[:max(off, 0)], []byte{'\n'}) + 1
	msg := fmt.Sprintf(format, args...)
	return &config.Error{File: r.file, Line: line, Msg: msg + baselineFix.String(), MCP: msg + baselineFix.For(front.MCP)}
}

// syntax turns a decoding error into one line at its offset.
func (r *baselineReader) syntax(err error, at int64) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return r.fail(se.Offset, "%s", strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &te):
		return r.fail(at, "%q is %s, not %s", te.Field, jsonKind(te.Value), jsonKind(te.Type.Kind().String()))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return r.fail(int64(len(r.src)), "unexpected end of file")
	}
	return r.fail(at, "%s", strings.TrimPrefix(err.Error(), "json: "))
}

// jsonKind names a JSON value kind (from UnmarshalTypeError.Value) or
// the Go kind it was decoded into, as a user who reads JSON says it.
func jsonKind(k string) string {
	switch k {
	case "number", "int", "int64", "float64":
		return "a number"
	case "string":
		return "a string"
	case "array", "slice":
		return "an array"
	case "object", "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	}
	return k
}

// next skips JSON white space (and the separators Token consumes) so
// an offset names the line a value starts on.
func (r *baselineReader) next() int64 {
	off := r.dec.InputOffset()
	for off < int64(len(r.src)) && strings.IndexByte(" \t\r\n,:", r.src[off]) >= 0 {
		off++
	}
	return off
}

func (r *baselineReader) read() (Baseline, error) {
	var b Baseline
	if len(bytes.TrimSpace(r.src)) == 0 {
		return b, r.fail(0, "empty file, not a JSON object with \"version\" and \"findings\"")
	}
	start := r.next()
	if tok, err := r.dec.Token(); err != nil {
		return b, r.syntax(err, start)
	} else if tok != json.Delim('{') {
		return b, r.fail(start, "not a JSON object with \"version\" and \"findings\"")
	}
	version, findings := false, false
	for r.dec.More() {
		at := r.next()
		tok, err := r.dec.Token()
		if err != nil {
			return b, r.syntax(err, at)
		}
		key, _ := tok.(string)
		at = r.next()
		switch key {
		case "version":
			if err := r.dec.Decode(&b.Version); err != nil {
				return b, r.syntax(err, at)
			}
			version = true
		case "findings":
			if err := r.findings(&b); err != nil {
				return b, err
			}
			findings = true
		default:
			var skip json.RawMessage
			if err := r.dec.Decode(&skip); err != nil {
				return b, r.syntax(err, at)
			}
		}
	}
	end := r.next()
	if _, err := r.dec.Token(); err != nil {
		return b, r.syntax(err, end)
	}
	if _, err := r.dec.Token(); err != io.EOF {
		return b, r.fail(r.next(), "unexpected data after the top-level object")
	}
	switch {
	case !version:
		return b, r.fail(start, "no \"version\"")
	case b.Version != 1:
		return b, r.fail(start, "version %d, want 1", b.Version)
	case !findings:
		return b, r.fail(start, "no \"findings\"")
	}
	return b, nil
}

func (r *baselineReader) findings(b *Baseline) error {
	at := r.next()
	if tok, err := r.dec.Token(); err != nil {
		return r.syntax(err, at)
	} else if tok != json.Delim('[') {
		return r.fail(at, "\"findings\" is not an array")
	}
	b.Findings = []BaselineEntry{}
	for n := 1; r.dec.More(); n++ {
		at := r.next()
		var e BaselineEntry
		if err := r.dec.Decode(&e); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field == "" {
				return r.fail(at, "finding %d is %s, not an object", n, jsonKind(te.Value))
			}
			if errors.As(err, &te) {
				return r.fail(at, "finding %d: %q is %s, not %s", n, te.Field, jsonKind(te.Value), jsonKind(te.Type.Kind().String()))
			}
			return r.syntax(err, at)
		}
		switch {
		case e.Rule == "":
			return r.fail(at, "finding %d has no \"rule\"", n)
		case e.Fingerprint == "":
			return r.fail(at, "finding %d has no \"fingerprint\"", n)
		}
		b.Findings = append(b.Findings, e)
	}
	end := r.next()
	if _, err := r.dec.Token(); err != nil {
		return r.syntax(err, end)
	}
	return nil
}

// Apply drops the findings of ds the baseline holds (each entry
// matches one finding) and returns the rest, how many it dropped, and
// an MS208 warning for each entry that matched nothing: the finding
// was fixed, so the entry should go and the file shrink.
func (b Baseline) Apply(ds diag.Diagnostics) (kept diag.Diagnostics, suppressed int, stale diag.Diagnostics) {
	kept, suppressed, left := b.match(ds)
	for _, e := range b.Findings {
		if left[e.Fingerprint] == 0 {
			continue
		}
		left[e.Fingerprint]--
		stale = append(stale, diag.Diagnostic{
			Rule: "MS208", Severity: diag.Warning, Range: diag.Range{File: BaselineFile}, Event: e.Event,
			Message: fmt.Sprintf("baseline entry %s (%s on %s) matches no finding any more: run %s to drop it", e.Fingerprint, e.Rule, where2(e), front.WriteBaseline.Word()),
			MCP:     fmt.Sprintf("baseline entry %s (%s on %s) matches no finding any more: run %s to drop it", e.Fingerprint, e.Rule, where2(e), front.WriteBaseline.Word().MCP),
		})
	}
	return kept, suppressed, stale
}

// Filter drops the findings of ds the baseline holds, as Apply does,
// for a command that prints some of lint's findings itself (regen's
// warnings, ParseFindings): it judges no entry stale, since the
// findings it was not handed may match the rest.
func (b Baseline) Filter(ds diag.Diagnostics) (kept diag.Diagnostics, suppressed int) {
	kept, suppressed, _ = b.match(ds)
	return kept, suppressed
}

// match pairs the baseline's entries with ds by fingerprint, each entry
// with one finding, and returns the findings no entry matched, how many
// did, and the count of each fingerprint's entries left unmatched. The
// append-only rules' findings judge a change and are never matched.
func (b Baseline) match(ds diag.Diagnostics) (kept diag.Diagnostics, suppressed int, left map[string]int) {
	left = map[string]int{}
	for _, e := range b.Findings {
		left[e.Fingerprint]++
	}
	kept = diag.Diagnostics{}
	for _, d := range ds {
		fp := Fingerprint(d)
		if old := fingerprint(d, false); left[fp] == 0 && left[old] > 0 {
			fp = old // an entry written before positions counted as lines
		}
		if left[fp] > 0 && !strings.HasPrefix(d.Rule, "MS3") {
			left[fp]--
			suppressed++
			continue
		}
		kept = append(kept, d)
	}
	return kept, suppressed, left
}

func where2(e BaselineEntry) string {
	if e.Event != "" {
		return e.Event
	}
	return e.File
}
