package mcpserver

import (
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/memsys/memsys/internal/app/memory"
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

// schemaFor infers T's schema, with detail bullets described by a
// reference to detailSchema.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[memory.DraftDetail](): {Ref: "#/$defs/detail"},
		reflect.TypeFor[memory.DetailJSON]():  {Ref: "#/$defs/detail"},
	}})
	if err != nil {
		panic(err) // a programming error in a type below, caught by every test
	}
	s.Defs = map[string]*jsonschema.Schema{"detail": detailSchema()}
	return s
}
