package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	deskrego "github.com/deskbridge/deskbridge/rego"
)

// lockedModule is a security team's rule: no update writes or removes a
// file under a folder named locked.
const lockedModule = `package deskbridge.policies.team

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "team.locked", "message": "locked/ is read-only.", "priority": 40} if {
	input.request.action == "update_project"
	some role, p in input.paths
	startswith(role, "changes[")
	regex.match("[/\\\\]locked[/\\\\]", p.canonical) # either separator: Windows too
}
`

// withTeamPolicy writes a copy of the configuration cfg whose policy is
// the default one and module, sharing cfg's workspace, state and log.
func withTeamPolicy(t *testing.T, cfg, module string) string {
	t.Helper()
	dir := t.TempDir()
	names, _ := fs.Glob(deskrego.FS, "*.rego")
	for _, n := range names {
		if !strings.HasSuffix(n, "_test.rego") {
			b, _ := fs.ReadFile(deskrego.FS, n)
			os.WriteFile(filepath.Join(dir, n), b, 0o600)
		}
	}
	os.WriteFile(filepath.Join(dir, "team.rego"), []byte(module), 0o600)
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimSuffix(strings.TrimSpace(string(b)), "}") + fmt.Sprintf(`,"policy":{"dir":%q}}`, dir)
	out := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(out, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkpointList is list_checkpoints' data.
type checkpointList struct {
	Checkpoints []struct {
		ID      string `json:"id"`
		Message string `json:"message"`
		Files   []struct {
			Path, Action string
		} `json:"files"`
	} `json:"checkpoints"`
}

// TestCheckpointsBinary lists, diffs and restores checkpoints through the
// binary, lists the project and the templates, and then, under a team
// policy that forbids writing locked/, refuses a restore that would
// remove a file there: nothing changes, no commit is made, and the
// refusal is in the decision log.
func TestCheckpointsBinary(t *testing.T) {
	cfg, _ := writeConfig(t, "")
	h := start(t, []string{"--config", cfg, origin})
	r := h.request("c1", "create_project", `{"name":"site","workspace":"Demo","template":"static-web"}`)
	mustCode(t, r, "c1", "ok")
	var created struct {
		ID   string `json:"project_id"`
		Path string `json:"path"`
	}
	json.Unmarshal(r.Data, &created)
	mustCode(t, h.request("u1", "update_project", `{"project":"`+created.ID+`","message":"lock a","changes":[{"path":"locked/a.txt","content":"a\n"},{"path":"index.html","content":"<p>new</p>"}]}`), "u1", "ok")
	r = h.request("l1", "list_checkpoints", `{"project":"`+created.ID+`"}`)
	mustCode(t, r, "l1", "ok")
	var cps checkpointList
	json.Unmarshal(r.Data, &cps)
	if len(cps.Checkpoints) != 2 || cps.Checkpoints[0].Message != "lock a" || len(cps.Checkpoints[0].Files) != 2 {
		t.Fatalf("checkpoints %s", r.Data)
	}
	first, second := cps.Checkpoints[1].ID, cps.Checkpoints[0].ID
	r = h.request("d1", "diff_checkpoint", `{"project":"`+created.ID+`","checkpoint":"`+second+`"}`)
	mustCode(t, r, "d1", "ok")
	if !strings.Contains(string(r.Data), `+\u003cp\u003enew\u003c/p\u003e`) && !strings.Contains(string(r.Data), `+<p>new</p>`) {
		t.Errorf("diff %s", r.Data)
	}
	r = h.request("lp", "list_projects", `{}`)
	mustCode(t, r, "lp", "ok")
	if !strings.Contains(string(r.Data), created.ID) || !strings.Contains(string(r.Data), second) {
		t.Errorf("list_projects %s", r.Data)
	}
	r = h.request("sp", "get_skill_profile", `{}`)
	mustCode(t, r, "sp", "ok")
	if !strings.Contains(string(r.Data), `"templates":[{"name":"empty","source":"builtin"},{"name":"go","source":"builtin"}`) {
		t.Errorf("get_skill_profile's templates: %s", r.Data)
	}
	h.closeAndWait()

	team := start(t, []string{"--config", withTeamPolicy(t, cfg, lockedModule), origin})
	r = team.request("r1", "update_project", `{"project":"`+created.ID+`","restore":"`+first+`"}`)
	if r.code() != "PERMISSION_DENIED" || r.Error.Rule != "team.locked" {
		t.Errorf("restore over locked/: %s %+v", r.code(), r.Error)
	}
	if b, err := os.ReadFile(filepath.Join(created.Path, "locked", "a.txt")); err != nil || string(b) != "a\n" {
		t.Errorf("the refused restore changed locked/a.txt: %v", err)
	}
	team.closeAndWait()
	logText, _ := os.ReadFile(filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl"))
	if !strings.Contains(string(logText), `"team.locked"`) {
		t.Error("the refused restore is not in the decision log")
	}

	h = start(t, []string{"--config", cfg, origin})
	r = h.request("r2", "update_project", `{"project":"`+created.ID+`","restore":"`+first+`"}`)
	mustCode(t, r, "r2", "ok")
	if _, err := os.Stat(filepath.Join(created.Path, "locked", "a.txt")); err == nil {
		t.Error("the restore left locked/a.txt")
	}
	r = h.request("l2", "list_checkpoints", `{"project":"`+created.ID+`"}`)
	json.Unmarshal(r.Data, &cps)
	if len(cps.Checkpoints) != 3 || cps.Checkpoints[1].ID != second || !strings.HasPrefix(cps.Checkpoints[0].Message, "Restore checkpoint") {
		t.Errorf("after the restore: %s", r.Data)
	}
	h.closeAndWait()
	if _, err := exec.LookPath("git"); err == nil {
		out, err := exec.Command("git", "-C", created.Path, "-c", "safe.directory=*", "status", "--porcelain").CombinedOutput()
		if err != nil || len(out) != 0 {
			t.Errorf("git status after the restore: %v %q", err, out)
		}
	}
}
