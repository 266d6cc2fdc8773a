package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// schemaValidator checks a JSON document against a JSON Schema (draft
// 04), implementing the keywords the SARIF 2.1.0 schema uses: $ref to
// #/definitions, type, enum, properties, additionalProperties, required,
// items, minItems, uniqueItems, minimum, maximum, pattern, format (uri,
// uri-reference, date-time), anyOf and oneOf. Unknown keywords fail the
// validator's own check, so a schema update cannot silently weaken it.
type schemaValidator struct {
	root map[string]any
}

var knownKeywords = map[string]bool{
	"$schema": true, "id": true, "title": true, "description": true, "default": true,
	"$ref": true, "type": true, "enum": true, "properties": true, "additionalProperties": true,
	"required": true, "items": true, "minItems": true, "uniqueItems": true, "minimum": true,
	"maximum": true, "pattern": true, "format": true, "anyOf": true, "oneOf": true, "definitions": true,
}

func (v *schemaValidator) validate(schema map[string]any, doc any, path string) []string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, args...)) }
	for k := range schema {
		if !knownKeywords[k] {
			fail("validator does not implement keyword %q", k)
		}
	}
	if ref, ok := schema["$ref"].(string); ok {
		name, found := strings.CutPrefix(ref, "#/definitions/")
		def, ok := v.root["definitions"].(map[string]any)[name].(map[string]any)
		if !found || !ok {
			fail("unresolvable $ref %q", ref)
			return errs
		}
		errs = append(errs, v.validate(def, doc, path)...)
	}
	if t, ok := schema["type"]; ok {
		var types []string
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, x := range t {
				types = append(types, x.(string))
			}
		}
		okType := false
		for _, tt := range types {
			okType = okType || hasType(doc, tt)
		}
		if !okType {
			fail("is %s, want %s", jsonType(doc), strings.Join(types, " or "))
			return errs
		}
	}
	if enum, ok := schema["enum"].([]any); ok {
		in := false
		for _, e := range enum {
			in = in || jsonEqual(e, doc)
		}
		if !in {
			fail("%v is not one of %v", doc, enum)
		}
	}
	switch d := doc.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		for _, r := range asList(schema["required"]) {
			if _, ok := d[r.(string)]; !ok {
				fail("missing required property %q", r)
			}
		}
		keys := make([]string, 0, len(d))
		for k := range d {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, v.validate(ps, d[k], path+"."+k)...)
				continue
			}
			switch ap := schema["additionalProperties"].(type) {
			case bool:
				if !ap {
					fail("property %q is not allowed", k)
				}
			case map[string]any:
				errs = append(errs, v.validate(ap, d[k], path+"."+k)...)
			}
		}
	case []any:
		if n, ok := schema["minItems"].(float64); ok && float64(len(d)) < n {
			fail("has %d items, want at least %v", len(d), n)
		}
		if u, _ := schema["uniqueItems"].(bool); u {
			for i := range d {
				for j := i + 1; j < len(d); j++ {
					if jsonEqual(d[i], d[j]) {
						fail("items %d and %d are equal", i, j)
					}
				}
			}
		}
		if is, ok := schema["items"].(map[string]any); ok {
			for i, x := range d {
				errs = append(errs, v.validate(is, x, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	case float64:
		if m, ok := schema["minimum"].(float64); ok && d < m {
			fail("%v is less than %v", d, m)
		}
		if m, ok := schema["maximum"].(float64); ok && d > m {
			fail("%v is more than %v", d, m)
		}
	case string:
		if p, ok := schema["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(d) {
			fail("%q does not match %s", d, p)
		}
		switch schema["format"] {
		case "uri":
			if u, err := url.Parse(d); err != nil || !u.IsAbs() {
				fail("%q is not an absolute URI", d)
			}
		case "uri-reference":
			if _, err := url.Parse(d); err != nil {
				fail("%q is not a URI reference", d)
			}
		case "date-time":
			if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`).MatchString(d) {
				fail("%q is not a date-time", d)
			}
		}
	}
	if anyOf, ok := schema["anyOf"].([]any); ok {
		matched := false
		for _, s := range anyOf {
			matched = matched || len(v.validate(s.(map[string]any), doc, path)) == 0
		}
		if !matched {
			fail("matches none of anyOf")
		}
	}
	if one, ok := schema["oneOf"].([]any); ok {
		n := 0
		for _, s := range one {
			if len(v.validate(s.(map[string]any), doc, path)) == 0 {
				n++
			}
		}
		if n != 1 {
			fail("matches %d of oneOf, want exactly 1", n)
		}
	}
	return errs
}

func asList(x any) []any { l, _ := x.([]any); return l }

func hasType(doc any, t string) bool {
	switch t {
	case "integer":
		f, ok := doc.(float64)
		return ok && f == math.Trunc(f)
	case "number":
		_, ok := doc.(float64)
		return ok
	}
	return jsonType(doc) == t
}

func jsonType(doc any) string {
	switch doc.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "unknown"
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func loadSARIFSchema(t *testing.T) *schemaValidator {
	t.Helper()
	src, err := os.ReadFile("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(src, &root); err != nil {
		t.Fatal(err)
	}
	return &schemaValidator{root: root}
}

func sarifDoc(t *testing.T, r *Result) any {
	t.Helper()
	var out bytes.Buffer
	if err := (&SARIFPrinter{Version: "test"}).Print(&out, r); err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestSARIFSchema validates the sarif printer's output against the
// official SARIF 2.1.0 schema.
func TestSARIFSchema(t *testing.T) {
	v := loadSARIFSchema(t)
	for name, r := range map[string]*Result{"sample": sampleResult(), "clean": {Events: 1}} {
		if errs := v.validate(v.root, sarifDoc(t, r), "$"); len(errs) > 0 {
			t.Errorf("%s: SARIF output does not validate:\n%s", name, strings.Join(errs, "\n"))
		}
	}
}

// TestSARIFSchemaRejects proves the validator is not vacuous: documents
// broken in the ways a printer could break them must fail.
func TestSARIFSchemaRejects(t *testing.T) {
	v := loadSARIFSchema(t)
	breakers := map[string]func(m map[string]any){
		"no version":   func(m map[string]any) { delete(m, "version") },
		"bad version":  func(m map[string]any) { m["version"] = "2.0.0" },
		"extra field":  func(m map[string]any) { m["extra"] = true },
		"line zero":    func(m map[string]any) { region(m)["startLine"] = 0.0 },
		"bad level":    func(m map[string]any) { result(m)["level"] = "fatal" },
		"message type": func(m map[string]any) { result(m)["message"] = "text" },
		"no driver name": func(m map[string]any) {
			delete(m["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any), "name")
		},
		"negative index": func(m map[string]any) { result(m)["ruleIndex"] = -2.0 },
	}
	for name, breakIt := range breakers {
		doc := sarifDoc(t, sampleResult()).(map[string]any)
		breakIt(doc)
		if errs := v.validate(v.root, doc, "$"); len(errs) == 0 {
			t.Errorf("%s: validated, want a schema error", name)
		}
	}
}

func result(m map[string]any) map[string]any {
	return m["runs"].([]any)[0].(map[string]any)["results"].([]any)[1].(map[string]any)
}

func region(m map[string]any) map[string]any {
	return result(m)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
}
