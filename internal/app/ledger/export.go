package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/parse"
)

// Record is one ledger line as memsys writes it. Field order is the
// order in the JSON. Time is seed 000's ISO 8601 "ts" at the minute the
// log records, without a zone: the log has none.
type Record struct {
	ID      string               `json:"id"`
	TS      string               `json:"ts"`
	Type    string               `json:"type"`
	Agent   string               `json:"agent"`
	Scope   string               `json:"scope"`
	Content string               `json:"content"`
	Details []memory.DraftDetail `json:"details"`
	Related []string             `json:"related"`
	Tags    []string             `json:"tags"`
	// Fields are "**Key**: value" lines other than the five the format
	// defines; import turns them into details.
	Fields []Field `json:"fields,omitempty"`
}

// Field is one extra "**Key**: value" line of an event.
type Field struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ToRecord converts a parsed event.
func ToRecord(e *parse.Event) Record {
	r := Record{ID: e.ID, TS: isoTime(e.Time), Type: e.Type, Agent: e.Agent, Scope: e.Scope, Content: e.Summary,
		Details: details(e.Details), Related: nonNil(e.Refs), Tags: nonNil(e.Tags)}
	for _, f := range e.Fields {
		switch parse.NormKey(f.Key) {
		case "scope", "summary", "details", "refs", "tags":
			continue
		}
		r.Fields = append(r.Fields, Field{f.Key, f.Value})
	}
	return r
}

// isoTime writes "2026-03-01T10:00" (or the date alone for a date-only
// stamp, or the raw text of an unreadable one).
func isoTime(t parse.Time) string {
	s := t.String()
	if !t.IsZero() && !t.DateOnly {
		s = s[:10] + "T" + s[11:]
	}
	return s
}

func details(ds []parse.Detail) []memory.DraftDetail {
	out := make([]memory.DraftDetail, 0, len(ds))
	for _, d := range ds {
		dd := memory.DraftDetail{Key: d.Key, Value: d.Value}
		if len(d.Children) > 0 {
			dd.Children = details(d.Children)
		}
		out = append(out, dd)
	}
	return out
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// Export returns events as JSONL (see Write).
func Export(events []parse.Event) ([]byte, error) {
	var b bytes.Buffer
	if err := Write(&b, events); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write writes events to w as JSONL, one object a line, '<', '>' and
// '&' as written (the file is read by programs and agents, not
// embedded in HTML).
func Write(w io.Writer, events []parse.Event) error { return writeIf(w, events, nil) }

// writeIf is Write of the events keep accepts (all when keep is nil).
func writeIf(w io.Writer, events []parse.Event, keep func(*parse.Event) bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range events {
		if keep != nil && !keep(&events[i]) {
			continue
		}
		if err := enc.Encode(ToRecord(&events[i])); err != nil {
			return fmt.Errorf("export %s: %w", events[i].ID, err)
		}
	}
	return nil
}
