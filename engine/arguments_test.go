package engine

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/argschema"
	"github.com/go-json-experiment/json"
	"github.com/invopop/jsonschema"
)

// validArguments returns arguments of every built action that pass the
// envelope, every optional member with a rule given, in a workspace that
// holds a.txt ("hello world") and an outside folder that holds logo.png.
// Nothing here reaches the network or opens a window: URLs are file: URLs,
// which the policy refuses.
func validArguments(th *testHost) map[string]map[string]any {
	ws := func(rel string) string { return filepath.Join(th.ws, rel) }
	return map[string]map[string]any{
		"get_status":                   {},
		"get_skill_profile":            {},
		"read_file":                    {"path": ws("a.txt"), "encoding": "utf-8", "offset": 0, "length": 5},
		"write_file":                   {"path": ws("a.txt"), "content": "hello world", "encoding": "utf-8"},
		"create_file":                  {"path": ws("new.txt"), "content": "eA==", "encoding": "base64"},
		"create_folder":                {"path": ws("sub")},
		"list_folder":                  {"path": th.ws, "max_depth": 2, "limit": 10},
		"patch_file":                   {"path": ws("a.txt"), "edits": []any{map[string]any{"old_text": "hello", "new_text": "bye"}}},
		"download_asset":               {"url": "file:///logo.png", "destination": ws("logo.png"), "max_bytes": 10, "timeout_ms": 10},
		"import_asset":                 {"source": filepath.Join(th.out, "logo.png"), "destination": ws("logo.png")},
		"run_command":                  {"command": "true", "cwd": th.ws, "timeout_ms": 1000},
		"open_in_browser":              {"url": "file:///etc/hostname"},
		"web_agent_start":              {"mode": "page-only"},
		"web_agent_context":            {"run_id": "R", "requests": []any{map[string]any{"type": "read_file", "path": "a.txt", "max_lines": 1}}},
		"web_agent_end":                {"run_id": "R"},
		"convert_document_to_markdown": {"path": ws("a.txt"), "destination": ws("a.md"), "pages": "1-2", "ocr": "auto", "full_page": true, "max_chars": 10},
		"preview_web":                  {"url": "file:///etc/hostname", "ttl_s": 10, "open": false},
		"open_deskbridge":              {"page": "overview", "open": false},
		"create_project":               {"name": "p", "workspace": "WS", "template": "empty", "git": false, "description": "d"},
		"list_projects":                {"workspace": "WS"},
		"list_checkpoints":             {"project": "p-0000000000000000", "limit": 5},
		"diff_checkpoint":              {"project": "p-0000000000000000", "checkpoint": "0123456789abcdef0123456789abcdef01234567"},
		"update_project": {"project": "p-0000000000000000", "message": "m", "rename": "q", "description": "d",
			"changes": []any{map[string]any{"path": "b.txt", "encoding": "utf-8", "patch": []any{map[string]any{"old_text": "a", "new_text": "b"}}}}},
		// The desktop actions are refused by the policy before they touch
		// the desktop: the reads stay closed by default, the rest name
		// paths outside the workspace or applications not allowed.
		"get_clipboard":     {"format": "image", "destination": ws("clip.png")},
		"set_clipboard":     {"image_path": filepath.Join(th.out, "logo.png")},
		"capture_screen":    {"display": "", "region": map[string]any{"x": 0, "y": 0, "width": 1, "height": 1}, "window": "active", "format": "png", "max_width": 10, "destination": ws("shot.png")},
		"get_active_window": {},
		"open_folder":       {"path": th.out},
		"open_app":          {"app": "not-allowed-app", "args": []any{"--x"}},
		"open_project":      {"path": th.out, "editor": "none"},
		"inspect_image":     {"path": ws("a.txt")},
		"resize_image":      {"path": ws("a.txt"), "width": 10, "height": 10, "fit": "cover", "gravity": "north", "extract": map[string]any{"left": 0, "top": 0, "width": 5, "height": 5}, "format": "png", "quality": 80, "destination": ws("r.png")},
		"compress_image":    {"path": ws("a.txt"), "quality": 80, "max_bytes": 1000, "destination": ws("c.png")},
		"convert_image":     {"path": ws("a.txt"), "destination": ws("c.gif"), "format": "gif", "quality": 80},
	}
}

// ruleMember is a member of an argument schema reached by a path of
// object member names and array indexes (the first element of an array).
type ruleMember struct {
	path   []any // string member names, int indexes
	schema *jsonschema.Schema
}

// String renders the path as messages name members: edits[0].new_text.
func (m ruleMember) String() string {
	var b strings.Builder
	for _, p := range m.path {
		switch p := p.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p)
		case int:
			b.WriteString("[" + strconv.Itoa(p) + "]")
		}
	}
	return b.String()
}

// schemaMembers walks s and returns every member it declares, at every
// depth, with whether it is required.
func schemaMembers(s *jsonschema.Schema, at []any) (all []ruleMember, required []ruleMember) {
	if s.Items != nil {
		return schemaMembers(s.Items, append(slices.Clip(at), 0))
	}
	if s.Properties == nil {
		return nil, nil
	}
	for p := s.Properties.Oldest(); p != nil; p = p.Next() {
		m := ruleMember{path: append(slices.Clip(at), p.Key), schema: p.Value}
		all = append(all, m)
		if slices.Contains(s.Required, p.Key) {
			required = append(required, m)
		}
		a, r := schemaMembers(p.Value, m.path)
		all, required = append(all, a...), append(required, r...)
	}
	return all, required
}

// edited returns a deep copy of args with the member at path set to v, or
// removed when drop is set. It reports false when args do not reach path.
func edited(args map[string]any, path []any, v any, drop bool) (map[string]any, bool) {
	var cp map[string]any
	b, _ := json.Marshal(args)
	json.Unmarshal(b, &cp)
	var cur any = cp
	for i, p := range path {
		last := i == len(path)-1
		switch p := p.(type) {
		case string:
			obj, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if last {
				if _, present := obj[p]; !present && drop {
					return nil, false
				}
				if drop {
					delete(obj, p)
				} else {
					obj[p] = v
				}
				return cp, true
			}
			cur = obj[p]
		case int:
			arr, ok := cur.([]any)
			if !ok || p >= len(arr) {
				return nil, false
			}
			cur = arr[p]
		}
	}
	return nil, false
}

// snapshot records every file, folder and link under root with its content.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			out[p] = "<dir>"
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[p] = "<link> " + target
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// argumentsHost is a test host with the file validArguments name. Its
// skills are the defaults: what the valid arguments would do is refused or
// harmless; only the envelope is under test.
func argumentsHost(t *testing.T) *testHost {
	th := newTestHost(t, nil)
	write(t, filepath.Join(th.ws, "a.txt"), "hello world")
	return th
}

// refusedUnchanged sends args for name and asserts INVALID_REQUEST whose
// message contains every one of want, with nothing changed on disk.
func refusedUnchanged(t *testing.T, th *testHost, name string, args map[string]any, want ...string) {
	t.Helper()
	before := snapshot(t, th.base)
	r := th.call(t, name, args)
	mustCode(t, r, "INVALID_REQUEST")
	for _, w := range want {
		if !strings.Contains(r.Error.Message, w) {
			t.Errorf("message %q does not contain %q", r.Error.Message, w)
		}
	}
	if after := snapshot(t, th.base); !maps.Equal(before, after) {
		t.Errorf("an invalid request changed the disk:\nbefore %v\nafter  %v", before, after)
	}
}

// TestArgumentRequiredMembers walks every built action's published schema,
// drops each required member in turn, at every depth, and sends the
// request through the pipeline: INVALID_REQUEST naming the member, and
// nothing changed on disk.
func TestArgumentRequiredMembers(t *testing.T) {
	th := argumentsHost(t)
	valid := validArguments(th)
	for name, s := range argschema.Build() {
		args, ok := valid[name]
		if !ok {
			t.Errorf("%s: no valid arguments in validArguments; add them", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			if r := th.call(t, name, args); r.code() == "INVALID_REQUEST" {
				t.Fatalf("the valid arguments are refused: %s", r.Error.Message)
			}
			_, required := schemaMembers(s, nil)
			for _, m := range required {
				t.Run(m.String(), func(t *testing.T) {
					dropped, ok := edited(args, m.path, nil, true)
					if !ok {
						t.Fatalf("validArguments[%s] does not give the required member %s", name, m)
					}
					refusedUnchanged(t, th, name, dropped, m.String(), "required")
				})
			}
		})
	}
}

// TestArgumentEnumMembers sends every enum member of every built action,
// at every depth, as "" and as a value outside the enum: INVALID_REQUEST
// naming the member and every allowed value, nothing changed on disk.
func TestArgumentEnumMembers(t *testing.T) {
	th := argumentsHost(t)
	valid := validArguments(th)
	enums := 0
	for name, s := range argschema.Build() {
		all, _ := schemaMembers(s, nil)
		for _, m := range all {
			if len(m.schema.Enum) == 0 {
				continue
			}
			enums++
			want := []string{m.String()}
			for _, v := range m.schema.Enum {
				want = append(want, strconv.Quote(v.(string)))
			}
			for _, bad := range []string{"", "not-a-value", strings.ToUpper(m.schema.Enum[0].(string))} {
				t.Run(name+"/"+m.String()+"="+bad, func(t *testing.T) {
					args, ok := edited(valid[name], m.path, bad, false)
					if !ok {
						t.Fatalf("validArguments[%s] does not reach %s", name, m)
					}
					refusedUnchanged(t, th, name, args, want...)
				})
			}
		}
	}
	if enums < 5 {
		t.Fatalf("found %d enum members; the schema walk lost some", enums)
	}
}
