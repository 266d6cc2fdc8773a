package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
)

// FileName is the configuration file memsys reads at a memory root.
const FileName = ".memsys.json"

// Defaults from the seed's Archival Protocol and Regeneration Algorithm.
const (
	DefaultArchiveThreshold = 50
	DefaultArchiveKeep      = 20
	DefaultWindowHours      = 48
	DefaultWindowEvents     = 20
	DefaultContextWords     = 3000
	// Seed 000's retention: P2 events leave context.md after 90 days,
	// P3 after 30; an open loop older than 30 days is a warning (MS128).
	DefaultDecayP2Days  = 90
	DefaultDecayP3Days  = 30
	DefaultLoopsMaxDays = 30
)

// Tiers a configuration may name; see the seed's Tiers table.
var Tiers = []string{"mvp", "core", "full"}

// Config is the resolved configuration of one memory root.
type Config struct {
	// File is the path read, or "" when the root has no configuration.
	File string
	// Tier is "mvp", "core" or "full" when the file sets it; "" means
	// detect it from the files present.
	Tier string
	// Rules are the severity settings in file order. Keys are rule IDs
	// or names; config does not know the registry, so lint checks them
	// (with the Line kept here for its error message).
	Rules []RuleSetting

	ArchiveThreshold int // archive is due above this many events in the log
	ArchiveKeep      int // events an archive keeps in the log
	WindowHours      int // context.md recent-changes window in hours
	WindowEvents     int // ... or at least this many recent events
	ContextWords     int // word budget of context.md
	DecayP2Days      int // P2 events leave context.md when older (days, at the horizon)
	DecayP3Days      int // P3 events likewise
	LoopsMaxDays     int // open loops older than this are a warning (MS128)
}

// RuleSetting is one entry of "rules": a rule ID or name and a severity.
type RuleSetting struct {
	Rule     string
	Severity diag.Severity
	Line     int
}

// Default returns the configuration of a root without a file.
func Default() Config {
	return Config{
		ArchiveThreshold: DefaultArchiveThreshold,
		ArchiveKeep:      DefaultArchiveKeep,
		WindowHours:      DefaultWindowHours,
		WindowEvents:     DefaultWindowEvents,
		ContextWords:     DefaultContextWords,
		DecayP2Days:      DefaultDecayP2Days,
		DecayP3Days:      DefaultDecayP3Days,
		LoopsMaxDays:     DefaultLoopsMaxDays,
	}
}

// Parse reads a configuration from src; file names it in errors.
func Parse(file string, src []byte) (Config, error) {
	c := Default()
	c.File = file
	// A UTF-8 byte order mark (Notepad writes one) is not JSON, but the
	// file is the user's text: read it as the log is read, without.
	if len(src) >= 3 && src[0] == 0xef && src[1] == 0xbb && src[2] == 0xbf {
		src = src[3:]
	}
	if len(src) >= 2 && (src[0] == 0xff && src[1] == 0xfe || src[0] == 0xfe && src[1] == 0xff) {
		// Windows PowerShell 5's "echo '{...}' > .memsys.json" writes
		// UTF-16 with its mark; JSON's "invalid character 'ÿ'" names no
		// fix. The words are the log's (parse's UTF-16 problem).
		return Config{}, &Error{File: file, Line: 1, Msg: fmt.Sprintf("the file is UTF-16 (byte-order mark 0x%02x 0x%02x), which memsys does not read: re-save it as UTF-8", src[0], src[1])}
	}
	root, err := decode(src)
	if err != nil {
		return Config{}, &Error{File: file, Line: lineAt(src, err.off), Msg: err.msg + `: write valid JSON such as {"rules": {"MS117": "off"}}`}
	}
	p := &parser{file: file, src: src}
	p.top(root, &c)
	if p.err != nil {
		return Config{}, p.err
	}
	return c, nil
}

// Error is a problem in a configuration file: "file:line: what is
// wrong: what to do". File is the path as the caller named it (the
// absolute path, from workspace.LoadConfig), so that a command can show
// it relative to where the user started memsys, as every other
// diagnostic is (workspace.DisplayError).
type Error struct {
	File string
	Line int
	Msg  string
	// MCP is Msg as the MCP server words it, when its advice names a
	// command the two front ends spell differently; "" when the same.
	MCP string
}

func (e *Error) Error() string { return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Msg }

// For is the error as front f words it (front.Speller).
func (e *Error) For(f front.Front) string {
	if f == front.MCP && e.MCP != "" {
		return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.MCP
	}
	return e.Error()
}

// value is a decoded JSON value that remembers where it starts, so every
// error can name its line. encoding/json's DisallowUnknownFields names
// the key but not the line, which is what a user needs.
type value struct {
	off     int64
	v       any // string, json.Number, bool, nil, or []member for objects, []*value for arrays
	isObj   bool
	members []member
}

type member struct {
	key string
	off int64
	val *value
}

type syntaxErr struct {
	off int64
	msg string
}

func decode(src []byte) (*value, *syntaxErr) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	v, err := decodeValue(dec, src, 0)
	if err != nil {
		return nil, err
	}
	if _, e := dec.Token(); e != io.EOF {
		return nil, &syntaxErr{dec.InputOffset(), "unexpected data after the top-level object"}
	}
	return v, nil
}

// maxDepth bounds how deep decodeValue nests. No key takes more than
// two levels; without a bound, a 1 MiB file of "[[[[..." cost a
// command some 430 MB (a frame and a value per bracket) before the
// error.
const maxDepth = 32

func decodeValue(dec *json.Decoder, src []byte, depth int) (*value, *syntaxErr) {
	off := skipSpace(src, dec.InputOffset())
	if depth > maxDepth {
		return nil, &syntaxErr{off, fmt.Sprintf("objects or arrays nested over %d deep, deeper than any key takes", maxDepth)}
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonErr(dec, err)
	}
	v := &value{off: off}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v.isObj = true
			for dec.More() {
				koff := skipSpace(src, dec.InputOffset())
				if koff < int64(len(src)) && src[koff] == ',' {
					koff = skipSpace(src, koff+1)
				}
				kt, err := dec.Token()
				if err != nil {
					return nil, jsonErr(dec, err)
				}
				key, _ := kt.(string)
				mv, serr := decodeValue(dec, src, depth+1)
				if serr != nil {
					return nil, serr
				}
				v.members = append(v.members, member{key: key, off: koff, val: mv})
			}
		case '[':
			var items []*value
			for dec.More() {
				iv, serr := decodeValue(dec, src, depth+1)
				if serr != nil {
					return nil, serr
				}
				items = append(items, iv)
			}
			v.v = items
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, jsonErr(dec, err)
		}
	default:
		v.v = t
	}
	return v, nil
}

func jsonErr(dec *json.Decoder, err error) *syntaxErr {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &syntaxErr{se.Offset, strings.TrimPrefix(se.Error(), "json: ")}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		return &syntaxErr{dec.InputOffset(), "unexpected end of file"}
	}
	return &syntaxErr{dec.InputOffset(), strings.TrimPrefix(err.Error(), "json: ")}
}

// skipSpace moves off past JSON whitespace (and a separating ':' is
// never there: Token consumes it), so a value's offset is its first byte.
func skipSpace(src []byte, off int64) int64 {
	for off < int64(len(src)) {
		switch src[off] {
		case ' ', '\t', '\r', '\n', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func lineAt(src []byte, off int64) int {
	if off > int64(len(src)) {
		off = int64(len(src))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}

type parser struct {
	file string
	src  []byte
	err  error
}

func (p *parser) fail(off int64, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{File: p.file, Line: lineAt(p.src, off), Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *parser) object(v *value, where string) []member {
	if !v.isObj {
		p.fail(v.off, "%s must be an object: write {...}", where)
		return nil
	}
	return v.members
}

func (p *parser) unknown(m member, where string, known ...string) {
	p.fail(m.off, "unknown key %q in %s: use one of %s (see docs/lint.md)", m.key, where, strings.Join(quoteAll(known), ", "))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func (p *parser) top(v *value, c *Config) {
	seen := map[string]bool{}
	for _, m := range p.object(v, "the configuration") {
		if seen[m.key] {
			p.fail(m.off, "key %q appears twice: keep one", m.key)
		}
		seen[m.key] = true
		switch m.key {
		case "tier":
			s, ok := m.val.v.(string)
			if !ok || !slices.Contains(Tiers, s) {
				// Name what was written: "FULL" or "Core" look right
				// at a glance, and tiers are lower case.
				got := "not a string"
				if ok {
					got = "not " + strconv.Quote(words.Clip(s))
				}
				p.fail(m.val.off, "\"tier\" must be one of \"mvp\", \"core\" or \"full\" (lower case), %s", got)
				continue
			}
			c.Tier = s
		case "rules":
			p.rules(m.val, c)
		case "archive":
			p.counts(m.val, "archive", []countKey{{"threshold", &c.ArchiveThreshold, MinArchiveThreshold}, {"keep", &c.ArchiveKeep, MinArchiveKeep}})
		case "context":
			// The window's least is 1, not 0: the renderer reads a zero
			// option as its default (48 hours, 20 events), so a 0 here
			// silently meant the default window.
			p.counts(m.val, "context", []countKey{{"windowHours", &c.WindowHours, 1}, {"windowEvents", &c.WindowEvents, 1}, {"words", &c.ContextWords, 1},
				{"decayP2Days", &c.DecayP2Days, 1}, {"decayP3Days", &c.DecayP3Days, 1}})
		case "loops":
			p.counts(m.val, "loops", []countKey{{"maxAgeDays", &c.LoopsMaxDays, 1}})
		case "$schema":
			// allowed so editors can validate the file
		default:
			p.unknown(m, "the configuration", "tier", "rules", "archive", "context", "loops")
		}
	}
	if p.err == nil {
		if err := CheckKeep("archive.keep", int64(c.ArchiveKeep), "archive.threshold", int64(c.ArchiveThreshold)); err != nil {
			p.fail(0, "%v", err)
		}
	}
}

// maxCount is the largest count a key takes: far above any sensible
// setting, and small enough that no arithmetic on it overflows.
const maxCount = 1 << 30

// The least archive.threshold and archive.keep. memsys archive's and
// status's --threshold and --keep stand for the same settings and are
// judged by CheckCount against the same bounds: a 0 the file refuses
// was taken from the command line. The threshold is above keep
// (CheckKeep), so at least 2: a threshold of 1 left no keep below it,
// and was refused by a rule whose advice (lower keep) led to another
// refusal.
const (
	MinArchiveThreshold = MinArchiveKeep + 1
	MinArchiveKeep      = 1
)

// CheckCount reports a count n of the setting name (as the user wrote
// it: "archive.threshold" in the file, "--threshold" on the command
// line) below min or above the largest count a key takes, in the words
// the file's errors use; nil when n is fine.
func CheckCount(name string, n, min int64) error {
	switch {
	case n > maxCount:
		return errors.New(tooBig(name, strconv.FormatInt(n, 10)))
	case n < min:
		return errors.New(tooSmall(name, min, strconv.FormatInt(n, 10)))
	}
	return nil
}

// CheckKeep reports a keep count not below the archive threshold, in
// one wording for the file and the command line: each is named as the
// user set it ("archive.keep" in the file, "--keep" on the command
// line; a setting the file does not hold keeps its key's name, as its
// default stands for it). Archive would keep every event it was told to
// archive above: the file refused that, memsys archive's flags took it.
func CheckKeep(keepName string, keep int64, thresholdName string, threshold int64) error {
	if keep < threshold {
		return nil
	}
	return fmt.Errorf("%s (%d) must be less than %s (%d): lower %s or raise %s", keepName, keep, thresholdName, threshold, keepName, thresholdName)
}

// tooBig and tooSmall are the two words of a count out of bounds, got
// as written.
func tooBig(name, got string) string {
	return fmt.Sprintf("%s must be a whole number of at most %d, not %s", name, maxCount, words.Clip(got))
}

func tooSmall(name string, min int64, got string) string {
	return fmt.Sprintf("%s must be a whole number of at least %d, not %s", name, min, words.Clip(got))
}

// countKey is one whole-number key of an object such as "archive": its
// name, where its value goes, and its least value.
type countKey struct {
	key string
	to  *int
	min int64
}

// counts reads the object v, named section, whose keys are all counts.
func (p *parser) counts(v *value, section string, keys []countKey) {
	seen := map[string]bool{}
	for _, a := range p.object(v, strconv.Quote(section)) {
		// As at the top level: with two, encoding/json keeps the last,
		// and which one the user meant is a guess.
		if seen[a.key] {
			p.fail(a.off, "key %q appears twice in %q: keep one", a.key, section)
		}
		seen[a.key] = true
		i := slices.IndexFunc(keys, func(k countKey) bool { return k.key == a.key })
		if i < 0 {
			names := make([]string, len(keys))
			for j, k := range keys {
				names[j] = k.key
			}
			p.unknown(a, strconv.Quote(section), names...)
			continue
		}
		*keys[i].to = p.count(a, section+"."+a.key, keys[i].min)
	}
}

func (p *parser) rules(v *value, c *Config) {
	seen := map[string]bool{}
	for _, m := range p.object(v, "\"rules\"") {
		s, ok := m.val.v.(string)
		if !ok {
			p.fail(m.val.off, "rule %q must be set to \"error\", \"warning\" or \"off\"", m.key)
			continue
		}
		sev, err := diag.ParseSeverity(s)
		if err != nil {
			p.fail(m.val.off, "rule %q: %v", m.key, err)
			continue
		}
		if seen[m.key] {
			p.fail(m.off, "rule %q is set twice: keep one", m.key)
		}
		seen[m.key] = true
		c.Rules = append(c.Rules, RuleSetting{Rule: m.key, Severity: sev, Line: lineAt(p.src, m.off)})
	}
}

func (p *parser) count(m member, name string, min int64) int {
	n, ok := m.val.v.(json.Number)
	if !ok {
		p.fail(m.val.off, "%s must be a whole number", name)
		return 0
	}
	i, err := n.Int64()
	switch {
	case err == nil && i > maxCount, err != nil && !strings.ContainsAny(string(n), ".eE-"):
		// Saying "at least" of a number far above it names no fix.
		p.fail(m.val.off, "%s", tooBig(name, string(n)))
		return 0
	case err != nil || i < min:
		p.fail(m.val.off, "%s", tooSmall(name, min, string(n)))
		return 0
	}
	return int(i)
}
