package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	stdjson "encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/protocol"
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
		paths[role] = pathDoc(p)
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
	value, err := inputValue(raw, call)
	return inputDoc{raw: raw, value: value}, err
}

// inputValue is raw as OPA's value, equal to ast.InterfaceToValue(raw)
// (TestInputValueMatchesRaw): the request and the path facts, whose
// members are fixed, are built from call with their keys made once; the
// arguments and the other facts are converted generically.
func inputValue(raw map[string]any, call *action.Call) (ast.Value, error) {
	items := make([][2]*ast.Term, 0, len(raw))
	for k, v := range raw {
		var val ast.Value
		var err error
		_, fact := call.Facts[k]
		switch {
		case k == "request" && !fact:
			val, err = requestValue(call, v.(map[string]any)["arguments"])
		case k == "paths" && !fact:
			val = pathsValue(call.Paths)
		default:
			val, err = ast.InterfaceToValue(v)
		}
		if err != nil {
			return nil, err
		}
		items = append(items, [2]*ast.Term{ast.InternedTerm(k), ast.NewTerm(val)})
	}
	return ast.NewObject(items...), nil
}

// Keys of the input's fixed members, made once.
var (
	keyID, keyAction, keySkill = ast.StringTerm("id"), ast.StringTerm("action"), ast.StringTerm("skill")
	keyOrigin, keyChannel      = ast.StringTerm("origin"), ast.StringTerm("channel")
	keyArguments               = ast.StringTerm("arguments")
	pathKeys                   = func() (k [11]*ast.Term) {
		for i, name := range []string{"input", "canonical", "workspace", "workspace_root", "relative",
			"inside", "exists", "type", "sensitivity", "protected", "links"} {
			k[i] = ast.StringTerm(name)
		}
		return k
	}()
)

func requestValue(call *action.Call, args any) (ast.Value, error) {
	a, err := ast.InterfaceToValue(args)
	if err != nil {
		return nil, err
	}
	return ast.NewObject(
		[2]*ast.Term{keyID, ast.InternedTerm(call.Request.ID)},
		[2]*ast.Term{keyAction, ast.InternedTerm(call.Request.Action)},
		[2]*ast.Term{keySkill, ast.InternedTerm(string(call.Skill))},
		[2]*ast.Term{keyOrigin, ast.InternedTerm(call.Origin)},
		[2]*ast.Term{keyChannel, ast.InternedTerm(call.Channel)},
		[2]*ast.Term{keyArguments, ast.NewTerm(a)},
	), nil
}

func pathsValue(paths map[string]facts.Path) ast.Value {
	items := make([][2]*ast.Term, 0, len(paths))
	for role, p := range paths {
		items = append(items, [2]*ast.Term{ast.InternedTerm(role), ast.NewTerm(pathValue(p))})
	}
	return ast.NewObject(items...)
}

// pathValue is pathDoc(p) as OPA's value.
func pathValue(p facts.Path) ast.Value {
	k := &pathKeys
	return ast.NewObject(
		[2]*ast.Term{k[0], ast.InternedTerm(p.Input)},
		[2]*ast.Term{k[1], ast.InternedTerm(p.Canonical)},
		[2]*ast.Term{k[2], ast.InternedTerm(p.Workspace)},
		[2]*ast.Term{k[3], ast.InternedTerm(p.WorkspaceRoot)},
		[2]*ast.Term{k[4], ast.InternedTerm(p.Relative)},
		[2]*ast.Term{k[5], ast.InternedTerm(p.Inside)},
		[2]*ast.Term{k[6], ast.InternedTerm(p.Exists)},
		[2]*ast.Term{k[7], ast.InternedTerm(p.Type)},
		[2]*ast.Term{k[8], ast.InternedTerm(p.Sensitivity)},
		[2]*ast.Term{k[9], ast.InternedTerm(p.Protected)},
		[2]*ast.Term{k[10], ast.InternedTerm(p.Links)},
	)
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
		digestAt(m, strings.Split(name, "."))
	}
	return m, nil
}

// digestAt replaces the string at path in obj by its Digest. A path
// element "name[]" descends into every object of the array obj[name].
func digestAt(obj map[string]any, path []string) {
	name, each := strings.CutSuffix(path[0], "[]")
	if len(path) == 1 {
		if s, ok := obj[name].(string); ok {
			obj[name] = Digest(s)
		}
		return
	}
	if !each {
		if child, ok := obj[name].(map[string]any); ok {
			digestAt(child, path[1:])
		}
		return
	}
	list, _ := obj[name].([]any)
	for _, el := range list {
		if child, ok := el.(map[string]any); ok {
			digestAt(child, path[1:])
		}
	}
}

// Digest is how a large payload enters the input and the log: its length
// in bytes and its SHA-256, never itself.
func Digest(s string) map[string]any {
	sum := sha256.Sum256([]byte(s))
	return map[string]any{"length": len(s), "sha256": hex.EncodeToString(sum[:])}
}

// pathDoc is a path fact as its JSON object form (the members and number
// type toMap would give), built without a JSON round trip.
func pathDoc(p facts.Path) map[string]any {
	return map[string]any{
		"input": p.Input, "canonical": p.Canonical, "workspace": p.Workspace,
		"workspace_root": p.WorkspaceRoot, "relative": p.Relative, "inside": p.Inside,
		"exists": p.Exists, "type": p.Type, "sensitivity": p.Sensitivity,
		"protected": p.Protected, "links": stdjson.Number(strconv.Itoa(p.Links)),
	}
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

// Input returns the policy input document the host would build for the
// request payload, without deciding and without any effect: the envelope
// is decoded, the arguments checked and the facts gathered as Handle does.
func (h *Host) Input(ctx context.Context, payload []byte) (map[string]any, *protocol.Error) {
	req, perr := envelope.Decode(payload)
	if perr != nil {
		return nil, perr
	}
	call, perr := h.prepare(ctx, req)
	if perr != nil {
		return nil, perr
	}
	doc, err := buildInput(call, h.now())
	if err != nil {
		return nil, protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input.")
	}
	return doc.raw, nil
}
