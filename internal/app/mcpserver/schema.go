package mcpserver

import (
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// detailSchema describes a detail bullet, which nests: the schema
// refers to itself through $defs, which schema inference from Go types
// cannot do for a recursive type.
func detailSchema() *jsonschema.Schema {
	ref := &jsonschema.Schema{Ref: "#/$defs/detail"}
	return &jsonschema.Schema{
		Type:        "object",
		Description: "one detail bullet, \"- key: value\", with nested bullets in children",
		Properties: map[string]*jsonschema.Schema{
			"key":      {Type: "string"},
			"value":    {Type: "string"},
			"children": {Type: "array", Items: ref},
		},
		Required:             []string{"key", "value"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
}

// detailsSchema describes memory.DraftDetails, the two shapes
// `memsys append --json` takes: a list of detail bullets, or an object
// of key: value pairs (a nested object gives nested bullets). One
// schema with both types rather than an anyOf: the SDK's message for a
// value that fails an anyOf prints every branch as a Go value, and
// DraftDetails' own errors say which shapes it takes.
func detailsSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Types:                []string{"null", "array", "object"},
		Description:          `detail bullets: a list [{"key": "from", "value": "a", "children": [...]}], or an object {"from": "a", "to": "b"} read in order (a nested object gives nested bullets); a "closes" detail naming earlier event IDs closes the open loops they opened`,
		Items:                &jsonschema.Schema{Ref: "#/$defs/detail"},
		AdditionalProperties: &jsonschema.Schema{Ref: "#/$defs/detail_value"},
	}
}

// detailValueSchema is a value of the object shape: a string, number
// or boolean, written as sent, or an object of nested bullets.
func detailValueSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Types:                []string{"string", "number", "boolean", "object"},
		AdditionalProperties: &jsonschema.Schema{Ref: "#/$defs/detail_value"},
	}
}

// schemaFor infers T's schema, with detail bullets described by a
// reference to detailSchema.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[memory.DraftDetail]():  {Ref: "#/$defs/detail"},
		reflect.TypeFor[memory.DetailJSON]():   {Ref: "#/$defs/detail"},
		reflect.TypeFor[memory.DraftDetails](): detailsSchema(),
	}})
	if err != nil {
		panic(err) // a programming error in a type below, caught by every test
	}
	s.Defs = map[string]*jsonschema.Schema{"detail": detailSchema(), "detail_value": detailValueSchema()}
	return s
}

// appendSchema is memsys_append's input schema. The description of
// "type" is built from the types append takes (parse.EventTypes), so
// that a type added there is offered here: it once named the seed's
// eleven and left out commitment.
func appendSchema() *jsonschema.Schema {
	s := schemaFor[AppendIn]()
	s.Properties["type"].Description = "event type: one of " + strings.Join(parse.EventTypes, ", ") +
		" (leave archive to memsys_archive; " + materialize.LoopTypesText() + ` stays an open loop until a later event's "closes" detail names it)`
	return s
}
