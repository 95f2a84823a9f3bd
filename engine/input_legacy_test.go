package engine

import (
	"bytes"
	stdjson "encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/facts"
)

// The input document as the engine built it before it was built as an
// OPA value (the second and third passes): a map[string]any from the
// typed values' JSON forms, decoded with UseNumber, digests put in after.
// The tests hold buildInput to it.

// legacyInput is the raw input document the old buildInput made.
func legacyInput(call *action.Call, now time.Time) (map[string]any, error) {
	args, err := legacyArguments(call)
	if err != nil {
		return nil, err
	}
	paths := map[string]any{}
	for role, p := range call.Paths {
		paths[role] = legacyPathDoc(p)
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
			return nil, err
		}
	}
	return raw, nil
}

// legacyArguments returns the decoded arguments as a JSON object, with digests.
func legacyArguments(call *action.Call) (map[string]any, error) {
	if call.Args == nil {
		return map[string]any{}, nil
	}
	m, err := toMap(call.Args)
	if err != nil {
		return nil, err
	}
	spec, _ := action.Lookup(call.Request.Action)
	if spec == nil {
		return m, nil
	}
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

// legacyPathDoc is a path fact as its JSON object form.
func legacyPathDoc(p facts.Path) map[string]any {
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
	d := stdjson.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	return m, d.Decode(&m)
}
