package engine

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/deskbridge/deskbridge/engine/argschema"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/go-json-experiment/json"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaRequest is one generated request: an action and its arguments.
type schemaRequest struct {
	action string
	note   string
	args   map[string]any
}

// generatedRequests makes, from the valid arguments of each built action
// and the members of its published schema: the valid arguments; each
// top-level member dropped; each member the schema declares and the
// arguments do not give, added (from the values other actions' valid
// arguments give it); each string member empty, relative ("a.txt"), and
// "abc"; and the requests the extension authors reported (issue 43):
// set_clipboard {}, an env name 1BAD, an update_project change with
// nothing in it.
func generatedRequests(valid map[string]map[string]any) []schemaRequest {
	samples := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(valid)) {
		for k, v := range valid[name] {
			if _, ok := samples[k]; !ok {
				samples[k] = v
			}
		}
	}
	samples["argv"] = []any{"true"}
	var out []schemaRequest
	for name, s := range argschema.Build() {
		base := valid[name]
		add := func(note string, args map[string]any) {
			out = append(out, schemaRequest{name, note, args})
		}
		add("valid", base)
		if s.Properties == nil {
			continue
		}
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			m := p.Key
			if _, given := base[m]; given {
				dropped, _ := edited(base, []any{m}, nil, true)
				add("without "+m, dropped)
			} else if v, ok := samples[m]; ok {
				with, _ := edited(base, []any{m}, v, false)
				add("with "+m, with)
			}
			if p.Value.Type == "string" && len(p.Value.Enum) == 0 {
				for _, bad := range []string{"", "a.txt", "abc"} {
					with, _ := edited(base, []any{m}, bad, false)
					add(fmt.Sprintf("%s %q", m, bad), with)
				}
			}
		}
	}
	extra := func(name, note string, path []any, v any) {
		args, _ := edited(valid[name], path, v, false)
		out = append(out, schemaRequest{name, note, args})
	}
	out = append(out, schemaRequest{"set_clipboard", "{}", map[string]any{}})
	extra("run_command", "env 1BAD", []any{"env"}, map[string]any{"1BAD": "x"})
	extra("run_command", "env OK", []any{"env"}, map[string]any{"OK_1": "x"})
	extra("update_project", "an empty change", []any{"changes"}, []any{map[string]any{"path": "b.txt"}})
	extra("update_project", "a change with two", []any{"changes"}, []any{map[string]any{"path": "b.txt", "content": "x", "delete": true}})
	extra("update_project", "no changes", []any{"changes"}, []any{})
	extra("convert_document_to_markdown", "pages 1-3,7", []any{"pages"}, "1-3,7")
	extra("convert_document_to_markdown", "pages 10-", []any{"pages"}, "10-")
	extra("convert_document_to_markdown", "pages 0", []any{"pages"}, "0")
	extra("convert_document_to_markdown", "pages 1,,2", []any{"pages"}, "1,,2")
	extra("get_clipboard", "text with destination", []any{"format"}, "text")
	extra("web_agent_start", "workspace mode without workspace", []any{"mode"}, "workspace")
	extra("resize_image", "width 0", []any{"width"}, 0)
	extra("resize_image", "extract width 0", []any{"extract", "width"}, 0)
	extra("resize_image", "extract left -1", []any{"extract", "left"}, -1)
	extra("resize_image", "gravity middle", []any{"gravity"}, "middle")
	extra("set_clipboard", "text with image_path", []any{"image_path"}, valid["inspect_image"]["path"])
	return out
}

// hostOnly are the generated requests only the host refuses, by what it
// alone knows: no schema shared by every machine can say them.
var hostOnly = map[string]string{
	`capture_screen display "a.txt"`:   "the display must be the session's own ($DISPLAY)",
	`capture_screen display "abc"`:     "the display must be the session's own ($DISPLAY)",
	`create_project workspace "a.txt"`: "a workspace is named by the configuration",
	`create_project workspace "abc"`:   "a workspace is named by the configuration",
}

// TestSchemaRefusesWhatTheHostRefuses: on the generated requests, the
// published schema (extension/schemas.json, argschema.Build) refuses
// exactly the requests the host's validation refuses (INVALID_REQUEST
// before any decision: the envelope, the argument type's Validate, the
// path facts' form), so that an extension that checks first refuses what
// the host refuses and nothing else (docs/protocol.md).
func TestSchemaRefusesWhatTheHostRefuses(t *testing.T) {
	th := argumentsHost(t)
	valid := validArguments(th)
	for _, a := range []string{"download_asset", "open_in_browser", "preview_web"} {
		valid[a], _ = edited(valid[a], []any{"url"}, "http://127.0.0.1:9/logo.png", false)
	}
	id, _ := newProject(t, th, "schemas", "empty")
	valid["update_project"], _ = edited(valid["update_project"], []any{"project"}, id, false)
	valid["set_clipboard"] = map[string]any{"text": "x", "html": "<b>x</b>"}
	write(t, filepath.Join(th.ws, "logo.png"), "not an image")

	schemas := compiledSchemas(t)
	reqs := generatedRequests(valid)
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].action+reqs[i].note < reqs[j].action+reqs[j].note })
	refused := 0
	for _, r := range reqs {
		payload, _ := json.Marshal(map[string]any{"version": 1, "id": "s", "action": r.action, "arguments": r.args})
		_, perr := th.h.Input(context.Background(), payload)
		host := perr != nil && perr.Code == protocol.InvalidRequest
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustJSON(t, r.args)))
		if err != nil {
			t.Fatal(err)
		}
		schemaErr := schemas[r.action].Validate(doc)
		if host {
			refused++
		}
		if why, ok := hostOnly[r.action+" "+r.note]; ok {
			if !host || schemaErr != nil {
				t.Errorf("%s %s: host refuses %v, schema %v; want only the host to refuse (%s)", r.action, r.note, perr, schemaErr, why)
			}
			continue
		}
		switch {
		case host && schemaErr == nil:
			t.Errorf("%s %s: the host refuses (%s), the schema does not", r.action, r.note, perr.Message)
		case !host && schemaErr != nil:
			t.Errorf("%s %s: the schema refuses (%v), the host does not (%v)", r.action, r.note, schemaErr, perr)
		}
	}
	if refused < 50 || len(reqs)-refused < 50 {
		t.Fatalf("%d requests, %d refused by the host: the generated set lost its cases", len(reqs), refused)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// compiledSchemas compiles every built action's published schema.
func compiledSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for name, s := range argschema.Build() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustJSON(t, s)))
		if err != nil {
			t.Fatal(err)
		}
		url := "mem://" + name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		if out[name], err = c.Compile(url); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return out
}
