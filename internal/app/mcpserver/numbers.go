package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memsys/memsys/internal/base/words"
)

// checkArguments refuses a tool call whose arguments the SDK cannot
// decode, with an error in the agent's words where the SDK's names Go
// types: arguments that are no object ("cannot unmarshal ... into Go
// value of type map[string]interface {}"), or a number out of range
// (numberOutOfRange): one a float64 does not hold (1e400) or, at the
// top level where the integer parameters are, a whole number an int
// does not hold ("overflows into Go struct field mcpserver.LogIn.limit
// of type int"). The error names the parameter.
func checkArguments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
			msg := notObject(r.Params.Arguments)
			if msg == "" {
				msg = numberOutOfRange(r.Params.Arguments)
			}
			if msg != "" {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}, nil
			}
		}
		return next(ctx, method, req)
	}
}

// maxWhole is 2^63: the SDK's float64 holds no whole number between
// MaxInt64 and it, so any at or above it overflows an int.
const maxWhole = 1 << 63

// numberOutOfRange returns the error for the first number of args out
// of range, "" when there is none (or args is no JSON object: the SDK
// says what is wrong with it).
func numberOutOfRange(args json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var top map[string]any
	if dec.Decode(&top) != nil {
		return ""
	}
	var walk func(path string, v any, top bool) string
	walk = func(path string, v any, top bool) string {
		switch v := v.(type) {
		case json.Number:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil || top && f == math.Trunc(f) && (f >= maxWhole || f < -maxWhole) {
				return fmt.Sprintf("memsys: %s %s is out of range: use a number of at most 18 digits", words.Clip(path), words.Clip(string(v)))
			}
		case map[string]any:
			for _, k := range sortedKeys(v) {
				if msg := walk(path+"."+k, v[k], false); msg != "" {
					return msg
				}
			}
		case []any:
			for i, x := range v {
				if msg := walk(path+"["+strconv.Itoa(i)+"]", x, false); msg != "" {
					return msg
				}
			}
		}
		return ""
	}
	for _, k := range sortedKeys(top) {
		if msg := walk(k, top[k], true); msg != "" {
			return msg
		}
	}
	return ""
}

// sortedKeys gives m's keys in order, so that of several numbers out of
// range the same one is named every time.
func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}

// notObject returns the error for arguments that are a JSON value other
// than an object, "" for an object, null or none (the SDK takes those
// two as {}).
func notObject(args json.RawMessage) string {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || args[0] == '{' || string(args) == "null" {
		return ""
	}
	kind := "number"
	switch args[0] {
	case '"':
		kind = "string"
	case '[':
		kind = "list"
	case 't', 'f':
		kind = "boolean"
	}
	return `memsys: "arguments" is a JSON ` + kind + `, not an object: send the tool's parameters as an object, e.g. {}`
}
