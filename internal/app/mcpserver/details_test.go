package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/parse"
)

// TestAppendDetailsObject: memsys_append takes "details" in both
// shapes `memsys append --json` takes, the list of {key, value,
// children} and the object of key: value pairs an agent writes first,
// and an object gives the bullets the CLI writes for it: in the order
// sent (the SDK re-encodes the arguments with sorted keys before the
// handler sees them), nested objects as nested bullets, a number as
// written. The input schema once allowed only the list, so the SDK
// refused the object before memsys saw it.
func TestAppendDetailsObject(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	details := `{"entity": "payments_api", "changes": {"files": "refund.go", "tests": 12.50}, "breaking": false}`
	args := json.RawMessage(`{"type": "modify", "scope": "payments_api", "summary": "Refunds reuse the charge cache", "details": ` + details + `}`)
	res := call(t, cs, "memsys_append", args)
	if res.IsError {
		t.Fatalf("details as an object: %s", text(res))
	}
	var ap struct{ ID string }
	structured(t, res, &ap)

	var want memory.DraftDetails
	if err := json.Unmarshal([]byte(details), &want); err != nil {
		t.Fatal(err)
	}
	var got struct{ Details []memory.DraftDetail }
	structured(t, call(t, cs, "memsys_show", map[string]any{"id": ap.ID}), &got)
	if !slices.EqualFunc(got.Details, want, detailEqual) {
		t.Errorf("details written %+v, want %+v (append --json's)", got.Details, want)
	}
}

func detailEqual(a, b memory.DraftDetail) bool {
	return a.Key == b.Key && a.Value == b.Value && slices.EqualFunc(a.Children, b.Children, detailEqual)
}

// TestAppendSchemaNamesEveryType: the description of memsys_append's
// "type", all an agent knows of the types before its first error, names
// every type append takes (it once left out commitment, the promise
// that stays an open loop), and "details" says how an event closes one.
func TestAppendSchemaNamesEveryType(t *testing.T) {
	cs := connect(t, copyExample(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name != "memsys_append" {
			continue
		}
		props := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		desc := props["type"].(map[string]any)["description"].(string)
		for _, typ := range parse.EventTypes {
			if !regexp.MustCompile(`\b` + typ + `\b`).MatchString(desc) {
				t.Errorf("the description of type %q does not name %q", desc, typ)
			}
		}
		if d := props["details"].(map[string]any)["description"].(string); !strings.Contains(d, `"closes"`) {
			t.Errorf("the description of details %q does not say how to close a loop", d)
		}
		return
	}
	t.Fatal("no memsys_append")
}

// TestRecallAfterLogEditedInPlace: an event edited in place on disk
// between two calls (the horizon unchanged, graph.md as regen wrote it
// before) is in the next memsys_recall, as it is in memsys_show: recall
// once took the graph from graph.md on its horizon alone and served the
// old attribute while memsys_status called the file stale.
func TestRecallAfterLogEditedInPlace(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	recall := func() string {
		var p struct {
			Entities []struct {
				Attrs []struct{ Key, Value string }
			}
		}
		structured(t, call(t, cs, "memsys_recall", map[string]any{"entities": []string{"payments_api"}}), &p)
		for _, a := range p.Entities[0].Attrs {
			if a.Key == "path" {
				return a.Value
			}
		}
		return ""
	}
	if got := recall(); got != "services/payments/" {
		t.Fatalf("path %q before the edit", got)
	}
	log := filepath.Join(root, "CHANGELOG.md")
	src, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "- path: services/payments/\n", "- path: services/billing/\n", 1)
	if edited == string(src) {
		t.Fatal("the edit changed nothing")
	}
	if err := os.WriteFile(log, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := recall(); got != "services/billing/" {
		t.Errorf("path %q after the log was edited in place, want services/billing/", got)
	}
}

// TestEveryParameterDescribed: every parameter of every tool has a
// description, what an agent reads to fill it in (memsys_append's tags
// had none).
func TestEveryParameterDescribed(t *testing.T) {
	cs := connect(t, copyExample(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		props, _ := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		for name, p := range props {
			if d, _ := p.(map[string]any)["description"].(string); strings.TrimSpace(d) == "" {
				t.Errorf("%s: parameter %q has no description", tool.Name, name)
			}
		}
	}
}

// TestContextFreshCRLF: memsys_context's "fresh" is memsys_status's
// verdict on a CRLF checkout (git autocrlf) of the context.md regen
// wrote: fresh, as lint and regen --check call it; it compared bytes
// and said false while memsys_status said fresh. A hand edit is still
// not fresh.
func TestContextFreshCRLF(t *testing.T) {
	root := copyExample(t)
	p := filepath.Join(root, ".memory", "context.md")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(src), "\n", "\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, root)
	var st struct {
		Context struct{ State string }
	}
	structured(t, call(t, cs, "memsys_status", map[string]any{}), &st)
	var cx ContextOut
	structured(t, call(t, cs, "memsys_context", map[string]any{}), &cx)
	if st.Context.State != "fresh" || !cx.Fresh {
		t.Errorf("CRLF context.md: memsys_status says %q, memsys_context fresh %v; want both fresh", st.Context.State, cx.Fresh)
	}
	if err := os.WriteFile(p, append(src, "- a hand-kept line\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	structured(t, call(t, cs, "memsys_context", map[string]any{}), &cx)
	if cx.Fresh {
		t.Error("context.md edited by hand: memsys_context says fresh")
	}
}
