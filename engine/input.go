package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	stdjson "encoding/json"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/go-json-experiment/json"
	"github.com/open-policy-agent/opa/v1/ast"
)

// inputDoc is the policy input document (docs/policy-input.md) as the
// decision log records it (raw) and as OPA evaluates it (value).
type inputDoc struct {
	raw   map[string]any
	value ast.Value
}

// InputVersion is the version of the input document's shape.
const InputVersion = 1

// buildInput builds the input document from the call's decoded arguments
// and facts. Members the action names in Digest enter as {length, sha256}.
func buildInput(call *action.Call, now time.Time) (inputDoc, error) {
	args, err := arguments(call)
	if err != nil {
		return inputDoc{}, err
	}
	paths := map[string]any{}
	for role, p := range call.Paths {
		if paths[role], err = toMap(p); err != nil {
			return inputDoc{}, err
		}
	}
	raw := map[string]any{
		"version": InputVersion,
		"time_ns": now.UnixNano(),
		"request": map[string]any{
			"id": call.Request.ID, "action": call.Request.Action, "skill": string(call.Skill),
			"origin": call.Origin, "channel": call.Channel, "arguments": args,
		},
		"paths": paths,
	}
	for k, v := range call.Facts {
		if raw[k], err = toMap(v); err != nil {
			return inputDoc{}, err
		}
	}
	value, err := ast.InterfaceToValue(raw)
	return inputDoc{raw: raw, value: value}, err
}

// arguments returns the decoded arguments as a JSON object, with digests.
func arguments(call *action.Call) (map[string]any, error) {
	if call.Args == nil {
		return map[string]any{}, nil
	}
	m, err := toMap(call.Args)
	if err != nil {
		return nil, err
	}
	spec, _ := action.Lookup(call.Request.Action)
	for _, name := range spec.Digest {
		if s, ok := m[name].(string); ok {
			m[name] = Digest(s)
		}
	}
	return m, nil
}

// Digest is how a large payload enters the input and the log: its length
// in bytes and its SHA-256, never itself.
func Digest(s string) map[string]any {
	sum := sha256.Sum256([]byte(s))
	return map[string]any{"length": len(s), "sha256": hex.EncodeToString(sum[:])}
}

// toMap converts a Go value to its JSON object form with exact numbers.
func toMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeExact(b)
}

// decodeExact decodes a JSON object keeping numbers as json.Number.
func decodeExact(b []byte) (map[string]any, error) {
	d := stdjson.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	return m, d.Decode(&m)
}
