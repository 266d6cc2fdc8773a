package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/memsys/memsys/internal/base/diag"
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

// Fingerprint identifies a finding across runs: its rule, file, event
// and message with line numbers taken out, so it survives the lines
// shifting above it (an event appended, a paragraph added to the
// changelog above the log) but not a change to what it says.
func Fingerprint(d diag.Diagnostic) string {
	msg := numbers().ReplaceAllString(d.Message, "${1}N")
	h := sha256.Sum256([]byte(d.Rule + "\x00" + d.Range.File + "\x00" + d.Event + "\x00" + msg))
	return hex.EncodeToString(h[:8])
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

// ReadBaseline reads BaselineFile's content.
func ReadBaseline(data []byte) (Baseline, error) {
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return b, fmt.Errorf("%s: %v: rewrite it with memsys lint --write-baseline", BaselineFile, err)
	}
	if b.Version != 1 {
		return b, fmt.Errorf("%s: version %d, want 1: rewrite it with memsys lint --write-baseline", BaselineFile, b.Version)
	}
	return b, nil
}

// Apply drops the findings of ds the baseline holds (each entry
// matches one finding) and returns the rest, how many it dropped, and
// an MS208 warning for each entry that matched nothing: the finding
// was fixed, so the entry should go and the file shrink.
func (b Baseline) Apply(ds diag.Diagnostics) (kept diag.Diagnostics, suppressed int, stale diag.Diagnostics) {
	left := map[string]int{}
	for _, e := range b.Findings {
		left[e.Fingerprint]++
	}
	kept = diag.Diagnostics{}
	for _, d := range ds {
		fp := Fingerprint(d)
		if left[fp] > 0 && !strings.HasPrefix(d.Rule, "MS3") {
			left[fp]--
			suppressed++
			continue
		}
		kept = append(kept, d)
	}
	for _, e := range b.Findings {
		if left[e.Fingerprint] == 0 {
			continue
		}
		left[e.Fingerprint]--
		stale = append(stale, diag.Diagnostic{
			Rule: "MS208", Severity: diag.Warning, Range: diag.Range{File: BaselineFile}, Event: e.Event,
			Message: fmt.Sprintf("baseline entry %s (%s on %s) matches no finding any more: run memsys lint --write-baseline to drop it", e.Fingerprint, e.Rule, where2(e)),
		})
	}
	return kept, suppressed, stale
}

func where2(e BaselineEntry) string {
	if e.Event != "" {
		return e.Event
	}
	return e.File
}
