package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

// marker is planted in everything an action can read from the workspace
// or the desktop: a string no argument names, so that where an answer
// holds it, the answer carries content.
const marker = "MARKER7Q"

// noRun are the built actions the registry test does not run, with why
// their answer can hold no content; each must declare none (what they
// would send is still scanned by the wall).
var noRun = map[string]string{
	"open_app":        "starts a program; answers the app's name the caller gave and opened",
	"open_folder":     "starts the file manager; answers the caller's path and opened",
	"open_project":    "starts an editor; answers the project's path and editor",
	"open_in_browser": "starts a browser; answers the caller's URL and opened",
	"open_deskbridge": "starts the panel server; answers its URL",
	"preview_web":     "starts a preview server; answers its URL (what it serves is item 2 of issue 34)",
	"download_asset":  "writes what it downloads to a file; answers path, size, type and hash",
	"import_asset":    "copies a file into the workspace; answers path, size and hash",
}

// unplanted are the actions that declare content the fixture cannot plant
// the marker in: a screenshot's pixels, a template's file names, a
// project's own name and changes.
var unplanted = []string{"capture_screen", "create_project", "update_project"}

// registryCase is how the registry test runs one action: its arguments,
// made from the fixture (a run or project id made by an earlier case).
type registryCase func(f *registryFixture) map[string]any

type registryFixture struct {
	th      *testHost
	run     string
	project string
	commit  string
}

var registryCases = map[string]registryCase{
	"get_status":        func(*registryFixture) map[string]any { return map[string]any{} },
	"get_skill_profile": func(*registryFixture) map[string]any { return map[string]any{} },
	"read_file":         func(f *registryFixture) map[string]any { return map[string]any{"path": f.ws("notes.txt")} },
	"convert_document_to_markdown": func(f *registryFixture) map[string]any {
		return map[string]any{"path": f.ws("doc.md")}
	},
	"list_folder": func(f *registryFixture) map[string]any { return map[string]any{"path": f.ws("names")} },
	"run_command": func(f *registryFixture) map[string]any {
		argv := []string{"cat", "notes.txt"}
		if runtime.GOOS == "windows" { // no cat: find.exe, a default program, prints the matching line
			argv = []string{"find", "first", "notes.txt"}
		}
		return map[string]any{"argv": argv, "cwd": f.th.ws}
	},
	"patch_file": func(f *registryFixture) map[string]any {
		return map[string]any{"path": f.ws("notes.txt"), "dry_run": true, "edits": []any{map[string]any{"old_text": "second", "new_text": "2nd"}}}
	},
	"write_file":        func(f *registryFixture) map[string]any { return map[string]any{"path": f.ws("w.txt"), "content": "w"} },
	"create_file":       func(f *registryFixture) map[string]any { return map[string]any{"path": f.ws("c.txt"), "content": "c"} },
	"create_folder":     func(f *registryFixture) map[string]any { return map[string]any{"path": f.ws("made")} },
	"get_clipboard":     func(*registryFixture) map[string]any { return map[string]any{} },
	"set_clipboard":     func(*registryFixture) map[string]any { return map[string]any{"text": "set"} },
	"get_active_window": func(*registryFixture) map[string]any { return map[string]any{} },
	"capture_screen":    func(*registryFixture) map[string]any { return map[string]any{} },
	"inspect_image":     func(f *registryFixture) map[string]any { return map[string]any{"path": f.ws("pic.png")} },
	"resize_image": func(f *registryFixture) map[string]any {
		return map[string]any{"path": f.ws("pic.png"), "destination": f.ws("small.png"), "width": 4}
	},
	"convert_image": func(f *registryFixture) map[string]any {
		return map[string]any{"path": f.ws("pic.png"), "destination": f.ws("pic.jpg"), "format": "jpeg"}
	},
	"compress_image": func(f *registryFixture) map[string]any {
		return map[string]any{"path": f.ws("pic.png"), "destination": f.ws("packed.png")}
	},
	"web_agent_start": func(*registryFixture) map[string]any {
		return map[string]any{"mode": "workspace-context", "workspace": "WS"}
	},
	"web_agent_context": func(f *registryFixture) map[string]any {
		return map[string]any{"run_id": f.run, "requests": []map[string]any{
			{"type": "workspace_info"}, {"type": "list_directory", "path": "names"},
			{"type": "read_file", "path": "notes.txt"}, {"type": "search_workspace", "query": marker},
		}}
	},
	"web_agent_end": func(f *registryFixture) map[string]any { return map[string]any{"run_id": f.run} },
	"create_project": func(f *registryFixture) map[string]any {
		return map[string]any{"name": "p", "workspace": f.th.ws}
	},
	"update_project": func(f *registryFixture) map[string]any {
		return map[string]any{"project": f.project, "message": "m " + marker, "changes": []map[string]any{{"path": "n.txt", "content": "n " + marker + "\n"}}}
	},
	"list_projects":    func(*registryFixture) map[string]any { return map[string]any{} },
	"list_checkpoints": func(f *registryFixture) map[string]any { return map[string]any{"project": f.project} },
	"diff_checkpoint": func(f *registryFixture) map[string]any {
		return map[string]any{"project": f.project, "checkpoint": f.commit}
	},
}

// registryOrder runs the cases that make ids first and the one that ends
// the run last.
var registryOrder = []string{"web_agent_start", "web_agent_context", "web_agent_end", "create_project", "update_project", "list_projects", "list_checkpoints", "diff_checkpoint"}

func (f *registryFixture) ws(rel string) string { return filepath.Join(f.th.ws, rel) }

// TestEveryActionDeclaresItsContent walks the action registry: every
// built action is either run here, with a marker planted in every file,
// file name, the clipboard and the window title it could read, or named
// in noRun with why its answer holds no content (and then declares
// none). Each answer's strings that hold the marker must be members its
// action declares (its card's Content, protocol/actions.go); an action added without a case
// here, or one that sends content it does not declare, fails.
func TestEveryActionDeclaresItsContent(t *testing.T) {
	th, fd := desktopHost(t)
	write(t, filepath.Join(th.ws, "notes.txt"), "first "+marker+"\nsecond\n")
	write(t, filepath.Join(th.ws, "doc.md"), "# Title "+marker+"\n\nbody "+marker+"\n")
	write(t, filepath.Join(th.ws, "names", marker+".txt"), "x\n")
	if err := os.WriteFile(filepath.Join(th.ws, "pic.png"), imagetest.PNG(imagetest.Photo(8, 8)), 0o644); err != nil {
		t.Fatal(err)
	}
	fd.clip[desktop.Text] = []byte("clip " + marker)
	fd.title = "vim " + marker
	fd.screen = noise(8, 8)
	f := &registryFixture{th: th}

	built := action.Built()
	order := slices.Clone(registryOrder)
	for _, name := range built {
		if !slices.Contains(order, name) {
			order = append(order, name)
		}
	}
	for _, name := range order {
		spec, _ := action.Lookup(name)
		if why, skip := noRun[name]; skip {
			if len(spec.Content) > 0 {
				t.Errorf("%s is not run here (%s) but declares content %v: give it a case", name, why, spec.Content)
			}
			continue
		}
		c, ok := registryCases[name]
		if !ok {
			t.Errorf("%s has no case in registryCases: add one that makes it read the marker where it can", name)
			continue
		}
		out := th.encoded(t, name, c(f))
		var r struct {
			Success bool `json:"success"`
			Data    any  `json:"data"`
		}
		if err := json.Unmarshal(out, &r); err != nil || !r.Success {
			t.Errorf("%s: %.400s", name, out)
			continue
		}
		members := membersHolding(r.Data, marker)
		t.Logf("%s: the marker in %v", name, members)
		if len(spec.Content) > 0 && len(members) == 0 && !slices.Contains(unplanted, name) {
			t.Errorf("%s declares content %v but its case shows no marker: make the case read it", name, spec.Content)
		}
		for _, member := range members {
			if !spec.Declares(member) {
				t.Errorf("%s answers content in %s, which its card's Content %v does not declare", name, member, spec.Content)
			}
		}
		f.remember(name, r.Data)
	}
}

// remember keeps the ids later cases need.
func (f *registryFixture) remember(name string, data any) {
	m, _ := data.(map[string]any)
	switch name {
	case "web_agent_start":
		f.run, _ = m["run_id"].(string)
	case "create_project":
		f.project, _ = m["project_id"].(string)
	case "update_project":
		f.commit, _ = m["commit"].(string)
	}
}

// membersHolding returns the members (indices as "[]") of a decoded JSON
// value whose string, or object key, contains s, sorted.
func membersHolding(v any, s string) []string {
	set := map[string]bool{}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case string:
			if strings.Contains(x, s) {
				set[path] = true
			}
		case []any:
			for _, e := range x {
				walk(e, path+"[]")
			}
		case map[string]any:
			for k, e := range x {
				p := k
				if path != "" {
					p = path + "." + k
				}
				if strings.Contains(k, s) {
					set[path+".*"] = true
				}
				walk(e, p)
			}
		}
	}
	walk(v, "")
	out := make([]string, 0, len(set))
	for m := range set {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}
