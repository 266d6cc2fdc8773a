package integrations

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// hookDef is one entry of .pre-commit-hooks.yaml: each value a string
// or, for a flow sequence such as args, a []string.
type hookDef map[string]any

func (h hookDef) str(key string) string {
	s, _ := h[key].(string)
	return s
}

func (h hookDef) list(key string) []string {
	l, _ := h[key].([]string)
	return l
}

// parseManifest reads the small YAML subset .pre-commit-hooks.yaml needs:
// a block sequence of mappings ("- key: value", then "  key: value"),
// whose values are plain, single- or double-quoted scalars or flow
// sequences of them, and full-line comments. Anything else is an error
// naming the line, so a manifest that grows past the subset fails the test
// rather than being read wrongly. pre-commit itself uses a real YAML
// parser (PyYAML), which cannot be installed here.
func parseManifest(src string) ([]hookDef, error) {
	var hooks []hookDef
	for n, line := range strings.Split(src, "\n") {
		n++
		line = strings.TrimRight(line, " \t\r")
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		var kv string
		switch {
		case strings.HasPrefix(line, "- "):
			hooks = append(hooks, hookDef{})
			kv = line[2:]
		case strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") && len(hooks) > 0:
			kv = line[2:]
		default:
			return nil, fmt.Errorf("line %d: expected \"- key: value\" or \"  key: value\", got %q", n, line)
		}
		key, raw, ok := strings.Cut(kv, ": ")
		if !ok || key == "" || strings.ContainsAny(key, " '\"#") {
			return nil, fmt.Errorf("line %d: expected \"key: value\", got %q", n, kv)
		}
		cur := hooks[len(hooks)-1]
		if _, dup := cur[key]; dup {
			return nil, fmt.Errorf("line %d: key %q twice in one hook", n, key)
		}
		raw = strings.TrimSpace(raw)
		if strings.HasPrefix(raw, "[") {
			if !strings.HasSuffix(raw, "]") {
				return nil, fmt.Errorf("line %d: unclosed flow sequence %q", n, raw)
			}
			items := []string{}
			if inner := strings.TrimSpace(raw[1 : len(raw)-1]); inner != "" {
				for _, it := range strings.Split(inner, ",") {
					s, err := parseScalar(strings.TrimSpace(it))
					if err != nil {
						return nil, fmt.Errorf("line %d: %v", n, err)
					}
					items = append(items, s)
				}
			}
			cur[key] = items
			continue
		}
		s, err := parseScalar(raw)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		cur[key] = s
	}
	return hooks, nil
}

// parseScalar reads one scalar of the subset.
func parseScalar(raw string) (string, error) {
	switch {
	case raw == "":
		return "", fmt.Errorf("empty value (block values are not in the subset)")
	case strings.HasPrefix(raw, "'"):
		if len(raw) < 2 || !strings.HasSuffix(raw, "'") {
			return "", fmt.Errorf("unclosed single-quoted scalar %s", raw)
		}
		inner := raw[1 : len(raw)-1]
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return "", fmt.Errorf("lone quote inside %s", raw)
		}
		return strings.ReplaceAll(inner, "''", "'"), nil
	case strings.HasPrefix(raw, `"`):
		s, err := strconv.Unquote(raw)
		if err != nil {
			return "", fmt.Errorf("double-quoted scalar %s: %v", raw, err)
		}
		return s, nil
	case strings.ContainsAny(raw[:1], "{}[]&*!|>%@`,#") || strings.ContainsAny(raw[:1], "-?:") && (len(raw) == 1 || raw[1] == ' '):
		return "", fmt.Errorf("plain scalar %q starts with a YAML indicator: quote it", raw)
	case strings.Contains(raw, " #") || strings.Contains(raw, ": "):
		return "", fmt.Errorf("plain scalar %q holds a comment or a colon: quote it", raw)
	}
	return raw, nil
}

func TestParseManifest(t *testing.T) {
	good := `# comment
- id: a
  entry: memsys lint --staged
  files: '(^|/)x\.md$'
  args: [-C, 'sub dir', "q"]
  empty: []

- id: b
  name: "it''s"
`
	want := []hookDef{
		{"id": "a", "entry": "memsys lint --staged", "files": `(^|/)x\.md$`, "args": []string{"-C", "sub dir", "q"}, "empty": []string{}},
		{"id": "b", "name": "it''s"},
	}
	got, err := parseManifest(good)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseManifest:\n got %#v\nwant %#v", got, want)
	}
	for _, tc := range []struct{ src, err string }{
		{"id: a", `line 1: expected "- key: value" or "  key: value", got "id: a"`},
		{"- id: a\n  id: b", `line 2: key "id" twice in one hook`},
		{"- id: a\n    x: y", `line 2: expected "- key: value" or "  key: value", got "    x: y"`},
		{"- args:\n  - a", `line 1: expected "key: value", got "args:"`},
		{"- a: 'x", `line 1: unclosed single-quoted scalar 'x`},
		{"- a: [x", `line 1: unclosed flow sequence "[x"`},
		{"- a: x # note", `line 1: plain scalar "x # note" holds a comment or a colon: quote it`},
		{"- a: |", `line 1: plain scalar "|" starts with a YAML indicator: quote it`},
		{"- a: - b", `line 1: plain scalar "- b" starts with a YAML indicator: quote it`},
	} {
		_, err := parseManifest(tc.src)
		if err == nil || err.Error() != tc.err {
			t.Errorf("parseManifest(%q) = %v, want %s", tc.src, err, tc.err)
		}
	}
}
