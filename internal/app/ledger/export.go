package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"

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
	r := Record{ID: e.ID, TS: e.Time.ISO(), Type: e.Type, Agent: e.Agent, Scope: e.Scope, Content: e.Summary,
		Details: details(e.Details), Related: nonNil(e.Refs), Tags: nonNil(e.Tags)}
	for _, f := range e.Fields {
		// SameKey, not NormKey: the fields are written "**Scope**",
		// and lowering each allocated twice per field of every event.
		if slices.ContainsFunc(carried, func(k string) bool { return parse.SameKey(f.Key, k) }) {
			continue
		}
		r.Fields = append(r.Fields, Field{f.Key, f.Value})
	}
	return r
}

// carried are the fields a Record has a member of its own for.
var carried = []string{"scope", "summary", "details", "refs", "tags"}

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
	var r Record
	for i := range events {
		if keep != nil && !keep(&events[i]) {
			continue
		}
		// One Record, encoded through its address: a Record passed by
		// value was copied to the heap for every event.
		r = ToRecord(&events[i])
		if err := enc.Encode(&r); err != nil {
			return fmt.Errorf("export %s: %w", events[i].ID, err)
		}
	}
	return nil
}
