package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/config"
)

// policyHostWith starts a second host on th's configuration (its
// workspace, state and log) whose policy is the embedded one and module.
func policyHostWith(t *testing.T, th *testHost, module string) *testHost {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(read(t, th.cfgPath)), &doc); err != nil {
		t.Fatal(err)
	}
	dir := policyDir(t, map[string]string{"team.rego": module})
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.rego"))
	for _, f := range tests {
		os.Remove(f) // the default policy's tests are run elsewhere, and slowly under -race
	}
	doc["policy"] = map[string]any{"dir": dir}
	b, _ := json.Marshal(doc)
	cfgPath := filepath.Join(t.TempDir(), "config.json")
	write(t, cfgPath, string(b))
	cfg, _, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	th2 := *th
	th2.h, err = Start(context.Background(), Options{Config: cfg, Origin: testOrigin, Channel: ChannelNative, HostLog: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { th2.h.Close() })
	return &th2
}

// twoUpdates makes a static-web project and updates it twice (index.html
// changed, then a.txt added); it returns the id, the folder and the
// checkpoints listed, newest first.
func twoUpdates(t *testing.T, th *testHost) (string, string, []any) {
	t.Helper()
	id, dir := newProject(t, th, "site", "static-web")
	mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "message": "welcome", "changes": []map[string]any{
		{"path": "index.html", "patch": []map[string]string{{"old_text": "A new static web project.", "new_text": "Welcome."}}}}}), "ok")
	mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "message": "add a", "changes": []map[string]any{
		{"path": "locked/a.txt", "content": "a\n"}}}), "ok")
	r := th.call(t, "list_checkpoints", map[string]any{"project": id})
	mustCode(t, r, "ok")
	return id, dir, r.Data["checkpoints"].([]any)
}

// TestCheckpointsListDiffRestore lists the checkpoints with their files,
// diffs one, and restores the first as a new commit: the files are back,
// the history grew by one.
func TestCheckpointsListDiffRestore(t *testing.T) {
	th := newTestHost(t, nil)
	id, dir, cps := twoUpdates(t, th)
	if len(cps) != 3 {
		t.Fatalf("checkpoints %v", cps)
	}
	newest, first := cps[0].(map[string]any), cps[2].(map[string]any)
	if newest["message"] != "add a" || newest["files"].([]any)[0].(map[string]any)["path"] != "locked/a.txt" || newest["time"] == "" {
		t.Errorf("newest checkpoint %v", newest)
	}
	welcome := cps[1].(map[string]any)["id"].(string)
	r := th.call(t, "diff_checkpoint", map[string]any{"project": id, "checkpoint": welcome})
	mustCode(t, r, "ok")
	patch := r.Data["patches"].([]any)[0].(map[string]any)
	if patch["path"] != "index.html" || !strings.Contains(patch["patch"].(string), "+") || !strings.Contains(patch["patch"].(string), "Welcome.") {
		t.Errorf("diff %v", r.Data)
	}
	r = th.call(t, "update_project", map[string]any{"project": id, "restore": first["id"]})
	mustCode(t, r, "ok")
	if r.Data["commit"] == "" || r.Data["restored"] != first["id"] {
		t.Errorf("restore data %v", r.Data)
	}
	if strings.Contains(read(t, filepath.Join(dir, "index.html")), "Welcome.") {
		t.Error("index.html not restored")
	}
	if _, err := os.Stat(filepath.Join(dir, "locked", "a.txt")); err == nil {
		t.Error("a.txt, added after the checkpoint, is still there")
	}
	if log := gitLog(t, dir); len(log) != 4 || !strings.HasPrefix(log[0], "Restore checkpoint ") || log[1] != "add a" {
		t.Errorf("git log %q: want a new commit on top of the history", log)
	}
	ev := loggedEvents(t, th.logPath, "t-1")
	if len(ev) == 0 {
		t.Error("the restore was not logged")
	}
}

// TestCheckpointRefusals: ids that are no checkpoint, a restore with
// changes, an unknown project.
func TestCheckpointRefusals(t *testing.T) {
	th := newTestHost(t, nil)
	id, _, cps := twoUpdates(t, th)
	some := cps[1].(map[string]any)["id"].(string)
	for _, bad := range []string{"", "abc", strings.ToUpper(some), strings.Repeat("0", 40)} {
		if r := th.call(t, "diff_checkpoint", map[string]any{"project": id, "checkpoint": bad}); r.code() != "INVALID_REQUEST" {
			t.Errorf("checkpoint %q: %s", bad, r.code())
		}
		if r := th.call(t, "update_project", map[string]any{"project": id, "restore": bad}); r.code() != "INVALID_REQUEST" {
			t.Errorf("restore %q: %s", bad, r.code())
		}
	}
	mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "restore": some, "message": "m", "changes": []map[string]any{{"path": "x", "content": "x"}}}), "INVALID_REQUEST")
	mustCode(t, th.call(t, "list_checkpoints", map[string]any{"project": "p-0000000000000000"}), "PROJECT_PATH_INVALID")
}

// lockedPolicy forbids every write under a folder named locked, as a
// security team's module might.
const lockedPolicy = `package deskbridge.policies.team

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "team.locked", "message": "locked/ is read-only.", "priority": 40} if {
	input.request.action == "update_project"
	some role, p in input.paths
	startswith(role, "changes[")
	regex.match("[/\\\\]locked[/\\\\]", p.canonical) # either separator: Windows too
}
`

// TestRestoreJudgedByPolicy: a restore that would remove a file the
// policy forbids writing is refused by that rule, changes nothing and is
// logged as denied.
func TestRestoreJudgedByPolicy(t *testing.T) {
	th := newTestHost(t, nil)
	_, dir := newProject(t, th, "site", "static-web")
	// The file is added before the team's rule is in force.
	id := th.call(t, "list_projects", nil).Data["workspaces"].([]any)[0].(map[string]any)["projects"].([]any)[0].(map[string]any)["project_id"].(string)
	mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "message": "add a", "changes": []map[string]any{{"path": "locked/a.txt", "content": "a\n"}}}), "ok")
	cps := th.call(t, "list_checkpoints", map[string]any{"project": id}).Data["checkpoints"].([]any)
	first := cps[len(cps)-1].(map[string]any)["id"].(string)

	th2 := policyHostWith(t, th, lockedPolicy)
	r := th2.callID(t, "restore-1", "update_project", map[string]any{"project": id, "restore": first})
	mustCode(t, r, "PERMISSION_DENIED")
	if r.Error.Rule != "team.locked" {
		t.Errorf("rule %q", r.Error.Rule)
	}
	if read(t, filepath.Join(dir, "locked", "a.txt")) != "a\n" {
		t.Error("the refused restore removed the file")
	}
	if log := gitLog(t, dir); len(log) != 2 {
		t.Errorf("the refused restore committed: %q", log)
	}
	if ev := loggedEvents(t, th.logPath, "restore-1"); len(ev) == 0 {
		t.Error("the refused restore was not logged")
	}
}

// TestListProjects lists the registered projects of each workspace with
// their last checkpoint; a project whose folder is gone is left out.
func TestListProjects(t *testing.T) {
	th := newTestHost(t, nil)
	id, _ := newProject(t, th, "b-site", "static-web")
	_, gone := newProject(t, th, "a-gone", "empty")
	os.RemoveAll(gone)
	r := th.call(t, "list_projects", map[string]any{})
	mustCode(t, r, "ok")
	ws := r.Data["workspaces"].([]any)[0].(map[string]any)
	ps := ws["projects"].([]any)
	if ws["name"] != "WS" || len(ps) != 1 {
		t.Fatalf("workspaces %v", r.Data)
	}
	p := ps[0].(map[string]any)
	last, _ := p["last_checkpoint"].(map[string]any)
	if p["project_id"] != id || p["template"] != "static-web" || last == nil || last["id"] == "" {
		t.Errorf("project %v", p)
	}
	mustCode(t, th.call(t, "list_projects", map[string]any{"workspace": "nope"}), "INVALID_REQUEST")
}

// TestSkillProfileTemplates: the projects skill lists the built-in
// templates and the configured folder's (one replacing a built-in of its
// name); a link in that folder is not a template.
func TestSkillProfileTemplates(t *testing.T) {
	tdir := t.TempDir()
	write(t, filepath.Join(tdir, "team", "README.md"), "team")
	write(t, filepath.Join(tdir, "node", "package.json"), "{}")
	if err := os.Symlink(t.TempDir(), filepath.Join(tdir, "linked")); err != nil {
		t.Logf("no link checked: %v", err) // Wine makes none
	}
	th := newTestHost(t, map[string]any{"projects": map[string]any{"templates": tdir}})
	r := th.call(t, "get_skill_profile", map[string]any{})
	mustCode(t, r, "ok")
	got := map[string]string{}
	for _, s := range r.Data["skills"].([]any) {
		if s := s.(map[string]any); s["name"] == "projects" {
			for _, tm := range s["templates"].([]any) {
				tm := tm.(map[string]any)
				got[tm["name"].(string)] = tm["source"].(string)
			}
		}
	}
	want := map[string]string{"empty": "builtin", "go": "builtin", "node": "configured", "python": "builtin", "static-web": "builtin", "team": "configured"}
	if len(got) != len(want) {
		t.Fatalf("templates %v, want %v", got, want)
	}
	for n, src := range want {
		if got[n] != src {
			t.Errorf("template %s: %q, want %q", n, got[n], src)
		}
	}
}

// TestDiffOmitsSecrets: the first checkpoint of a node project adds
// .npmrc, a secret-class name: the diff lists it without its content.
func TestDiffOmitsSecrets(t *testing.T) {
	th := newTestHost(t, nil)
	id, _ := newProject(t, th, "app", "node")
	cps := th.call(t, "list_checkpoints", map[string]any{"project": id}).Data["checkpoints"].([]any)
	r := th.call(t, "diff_checkpoint", map[string]any{"project": id, "checkpoint": cps[0].(map[string]any)["id"]})
	mustCode(t, r, "ok")
	seen := 0
	for _, p := range r.Data["patches"].([]any) {
		p := p.(map[string]any)
		switch p["path"] {
		case ".npmrc":
			seen++
			if p["omitted"] != "secret" || p["patch"] != nil {
				t.Errorf(".npmrc: %v", p)
			}
		case "package.json":
			seen++
			if p["patch"] == nil {
				t.Errorf("package.json: %v", p)
			}
		}
	}
	if seen != 2 {
		t.Errorf("patches %v", r.Data["patches"])
	}
}
