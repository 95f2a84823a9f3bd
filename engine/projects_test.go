package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// gitLog returns git log --format=%s of the repository dir, newest first;
// the test runs git, the host never does.
func gitLog(t *testing.T, dir string) []string {
	t.Helper()
	wine.Skip(t, wine.NoGit)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (CI installs it)")
	}
	out, err := exec.Command("git", "-C", dir, "-c", "safe.directory=*", "log", "--format=%s").CombinedOutput()
	if err != nil {
		t.Fatalf("git log: %v: %s", err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// newProject creates a project with git in the workspace and returns its
// id and folder.
func newProject(t *testing.T, th *testHost, name, tmpl string) (string, string) {
	t.Helper()
	r := th.call(t, "create_project", map[string]any{"name": name, "workspace": "WS", "template": tmpl})
	mustCode(t, r, "ok")
	return r.Data["project_id"].(string), r.Data["path"].(string)
}

// TestCreateProjectTemplates makes a project from every built-in template:
// its files and .gitignore are there, and git log shows the first commit.
func TestCreateProjectTemplates(t *testing.T) {
	th := newTestHost(t, nil)
	want := map[string]string{"empty": "README.md", "static-web": "index.html", "node": "package.json", "python": "main.py", "go": "go.mod"}
	for tmpl, file := range want {
		_, dir := newProject(t, th, "p-"+tmpl, tmpl)
		if !strings.Contains(read(t, filepath.Join(dir, file)), "p-"+tmpl) {
			t.Errorf("%s: %s does not carry the project's name", tmpl, file)
		}
		if read(t, filepath.Join(dir, ".gitignore")) == "" {
			t.Errorf("%s: no .gitignore", tmpl)
		}
		if log := gitLog(t, dir); len(log) != 1 || !strings.Contains(log[0], tmpl) {
			t.Errorf("%s: git log %q, want the first commit", tmpl, log)
		}
	}
	r := th.call(t, "create_project", map[string]any{"name": "n", "workspace": "WS", "git": false})
	mustCode(t, r, "ok")
	if _, err := os.Stat(filepath.Join(th.ws, "n", ".git")); err == nil || r.Data["commit"] != nil {
		t.Error("git: false made a repository")
	}
}

// TestCreateProjectConfiguredTemplate takes a template from the
// configured folder; a symlink in it that leads out is not copied.
func TestCreateProjectConfiguredTemplate(t *testing.T) {
	tdir := t.TempDir()
	write(t, filepath.Join(tdir, "team", "TEAM.md"), "team {{name}}")
	write(t, filepath.Join(tdir, "team", ".git", "hooks", "post-checkout"), "#!/bin/sh\ntouch /tmp/pwned\n")
	write(t, filepath.Join(tdir, "team", ".git", "config"), "[core]\n\thooksPath = /tmp\n")
	secret := filepath.Join(t.TempDir(), "secret")
	write(t, secret, "canary")
	if err := os.Symlink(secret, filepath.Join(tdir, "team", "leak")); err != nil {
		t.Fatal(err)
	}
	th := newTestHost(t, map[string]any{"projects": map[string]any{"templates": tdir}})
	_, dir := newProject(t, th, "t1", "team")
	if read(t, filepath.Join(dir, "TEAM.md")) != "team t1" {
		t.Error("the team template was not used")
	}
	if _, err := os.Lstat(filepath.Join(dir, "leak")); err == nil {
		t.Error("a symlink of the template folder was copied")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "hooks", "post-checkout")); err == nil {
		t.Error("the template's own .git was copied")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); strings.Contains(string(b), "hooksPath") {
		t.Error("the template's .git/config was copied")
	}
	mustCode(t, th.call(t, "create_project", map[string]any{"name": "t2", "workspace": "WS", "template": "../team"}), "INVALID_REQUEST")
	mustCode(t, th.call(t, "create_project", map[string]any{"name": "t3", "workspace": "WS", "template": "nope"}), "INVALID_REQUEST")
}

// TestCreateProjectPathInvalid: names with separators or reserved names,
// a workspace root, an existing non-empty folder or a file.
func TestCreateProjectPathInvalid(t *testing.T) {
	th := newTestHost(t, nil)
	write(t, filepath.Join(th.ws, "full", "x.txt"), "keep")
	write(t, filepath.Join(th.ws, "afile"), "keep")
	for _, name := range []string{"a/b", `a\b`, "..", ".", "CON", "nul.txt", "Com1", "LPT9.log", ".git", " x", "x.", "c:x", "a\x00b", "full", "afile", strings.Repeat("x", 101)} {
		r := th.call(t, "create_project", map[string]any{"name": name, "workspace": "WS"})
		if r.code() != "PROJECT_PATH_INVALID" && !(name == "a\x00b" && r.code() == "INVALID_REQUEST") {
			t.Errorf("name %q: %s, want PROJECT_PATH_INVALID", name, r.code())
		}
	}
	t.Run("a link to the workspace", func(t *testing.T) {
		wine.Skip(t, wine.NoSymlinks)
		if err := os.Symlink(th.ws, filepath.Join(th.ws, "self")); err != nil {
			t.Fatal(err)
		}
		mustCode(t, th.call(t, "create_project", map[string]any{"name": "self", "workspace": "WS"}), "PROJECT_PATH_INVALID")
	})
	if read(t, filepath.Join(th.ws, "full", "x.txt")) != "keep" {
		t.Error("the existing folder was changed")
	}
	mustCode(t, th.call(t, "create_project", map[string]any{"name": "x", "workspace": th.out}), "WORKSPACE_VIOLATION")
	mustCode(t, th.call(t, "create_project", map[string]any{"name": "x", "workspace": "relative"}), "INVALID_REQUEST")
	mustCode(t, th.call(t, "create_project", map[string]any{"name": ".env", "workspace": "WS"}), "PERMISSION_DENIED")
	os.Mkdir(filepath.Join(th.ws, "emptydir"), 0o755)
	mustCode(t, th.call(t, "create_project", map[string]any{"name": "emptydir", "workspace": "WS"}), "ok")
}

// TestUpdateProject writes, patches and deletes in one commit, renames and
// describes.
func TestUpdateProject(t *testing.T) {
	th := newTestHost(t, nil)
	id, dir := newProject(t, th, "site", "static-web")
	r := th.call(t, "update_project", map[string]any{"project": id, "message": "second", "changes": []map[string]any{
		{"path": "about.html", "content": "<p>about</p>"},
		{"path": filepath.Join(dir, "index.html"), "patch": []map[string]string{{"old_text": "A new static web project.", "new_text": "Changed."}}},
		{"path": "main.js", "delete": true},
		{"path": "pages/deep/x.html", "content": "x"},
	}})
	mustCode(t, r, "ok")
	if log := gitLog(t, dir); len(log) != 2 || log[0] != "second" {
		t.Fatalf("git log %q", log)
	}
	out, _ := exec.Command("git", "-C", dir, "-c", "safe.directory=*", "status", "--porcelain").CombinedOutput()
	if len(out) != 0 {
		t.Errorf("the work tree is not clean after the commit: %s", out)
	}
	if !strings.Contains(read(t, filepath.Join(dir, "index.html")), "Changed.") || read(t, filepath.Join(dir, "about.html")) != "<p>about</p>" {
		t.Error("content not written")
	}
	if _, err := os.Stat(filepath.Join(dir, "main.js")); err == nil {
		t.Error("main.js not deleted")
	}
	r = th.call(t, "update_project", map[string]any{"project": dir, "rename": "site2", "description": "d"})
	mustCode(t, r, "ok")
	if _, err := os.Stat(filepath.Join(th.ws, "site2", "about.html")); err != nil || r.Data["description"] != "d" {
		t.Errorf("rename: %v %v", err, r.Data)
	}
	mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{{"path": "a.txt", "content": "a"}}}), "ok")
	mustCode(t, th.call(t, "update_project", map[string]any{"project": "p-0000000000000000", "description": "x"}), "PROJECT_PATH_INVALID")
	mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "changes": []map[string]any{{"path": "a.txt", "content": "a"}}}), "INVALID_REQUEST")
	mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{{"path": "a.txt", "content": "a", "delete": true}}}), "INVALID_REQUEST")
}

// TestUpdateProjectAllOrNothing: one change that fails (a patch whose text
// is missing, a folder in place of a file) leaves every file as it was and
// makes no commit.
func TestUpdateProjectAllOrNothing(t *testing.T) {
	th := newTestHost(t, nil)
	id, dir := newProject(t, th, "p", "empty")
	os.Mkdir(filepath.Join(dir, "adir"), 0o755)
	for _, bad := range []map[string]any{
		{"path": "README.md", "patch": []map[string]string{{"old_text": "not there", "new_text": "x"}}},
		{"path": "adir", "content": "x"},
		{"path": "missing.txt", "delete": true},
	} {
		r := th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{
			{"path": "README.md", "content": "replaced"},
			{"path": "new/new.txt", "content": "new"},
			bad,
		}})
		if r.Success {
			t.Fatalf("%v: succeeded", bad)
		}
		if strings.Contains(read(t, filepath.Join(dir, "README.md")), "replaced") {
			t.Errorf("%v: README.md was replaced", bad)
		}
		if _, err := os.Lstat(filepath.Join(dir, "new")); err == nil {
			t.Errorf("%v: new/ was left behind", bad)
		}
		if log := gitLog(t, dir); len(log) != 1 {
			t.Errorf("%v: commits %q", bad, log)
		}
	}
}

// TestUpdateProjectEachChangeJudged: a secret or a file that runs later
// among harmless changes refuses the request, and nothing is written.
func TestUpdateProjectEachChangeJudged(t *testing.T) {
	th := newTestHost(t, nil)
	id, dir := newProject(t, th, "p", "node")
	for path, rule := range map[string]string{
		".env":                  "sensitivity.secret",
		".git/config":           "sensitivity.secret",
		".git/hooks/pre-commit": "sensitivity.executes",
		"package.json":          "sensitivity.executes",
		".vscode/tasks.json":    "sensitivity.executes",
	} {
		r := th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{
			{"path": "ok.txt", "content": "fine"}, {"path": path, "content": "evil"},
		}})
		mustCode(t, r, "PERMISSION_DENIED")
		if r.Error.Rule != rule {
			t.Errorf("%s: rule %s, want %s", path, r.Error.Rule, rule)
		}
		if _, err := os.Stat(filepath.Join(dir, "ok.txt")); err == nil {
			t.Fatalf("%s: ok.txt written though the request was refused", path)
		}
	}
	outside := filepath.Join(th.out, "x.txt")
	mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{{"path": outside, "content": "x"}}}), "WORKSPACE_VIOLATION")
	mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{{"path": "../x.txt", "content": "x"}}}), "PROJECT_PATH_INVALID")
}

// TestUpdateProjectHostileGit: a repository whose .git/config names hooks,
// a hooks path and a work tree outside, and whose objects/info/alternates
// points outside, is committed to without any hook running and without a
// byte changing outside; a .git that is a symlink to a repository
// outside is refused.
func TestUpdateProjectHostileGit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("hooks are shell scripts")
	}
	th := newTestHost(t, nil)
	id, dir := newProject(t, th, "p", "empty")
	canary := filepath.Join(th.out, "hook-ran")
	hook := "#!/bin/sh\ntouch " + canary + "\n"
	os.MkdirAll(filepath.Join(th.out, "hooks"), 0o755)
	for _, h := range []string{filepath.Join(dir, ".git", "hooks", "pre-commit"), filepath.Join(dir, ".git", "hooks", "post-commit"), filepath.Join(th.out, "hooks", "pre-commit")} {
		write(t, h, hook)
		os.Chmod(h, 0o755)
	}
	cfg := filepath.Join(dir, ".git", "config")
	b, _ := os.ReadFile(cfg)
	write(t, cfg, string(b)+"[core]\n\thooksPath = "+filepath.Join(th.out, "hooks")+"\n\tworktree = "+th.out+"\n\tfsmonitor = touch "+canary+"\n")
	write(t, filepath.Join(dir, ".git", "objects", "info", "alternates"), th.out+"\n")
	before := th.snapshotOutside(t)
	r := th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{{"path": "a.txt", "content": "a"}}})
	mustCode(t, r, "ok")
	if _, err := os.Stat(canary); err == nil {
		t.Error("a hook ran")
	}
	checkOutside(t, before, th.snapshotOutside(t))
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err != nil {
		t.Error("a.txt not written in the project")
	}

	// HEAD naming a branch whose ref file would lie outside the
	// repository: go-git writes refs through the bound .git file system.
	id3, dir3 := newProject(t, th, "r", "empty")
	rel, _ := filepath.Rel(filepath.Join(dir3, ".git"), filepath.Join(th.out, "pwned-ref"))
	write(t, filepath.Join(dir3, ".git", "HEAD"), "ref: refs/heads/"+filepath.ToSlash(filepath.Join("..", "..", rel))+"\n")
	before = th.snapshotOutside(t)
	th.call(t, "update_project", map[string]any{"project": id3, "message": "m", "changes": []map[string]any{{"path": "c.txt", "content": "c"}}})
	checkOutside(t, before, th.snapshotOutside(t))

	// .git as a symlink to a repository outside.
	id2, dir2 := newProject(t, th, "q", "empty")
	if err := os.Rename(filepath.Join(dir2, ".git"), filepath.Join(th.out, "q.git")); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(th.out, "q.git"), filepath.Join(dir2, ".git"))
	before = th.snapshotOutside(t)
	r = th.call(t, "update_project", map[string]any{"project": id2, "message": "m", "changes": []map[string]any{{"path": "b.txt", "content": "b"}}})
	if r.Success && r.Data["commit"] != nil {
		t.Error("committed through a .git symlink to outside")
	}
	checkOutside(t, before, th.snapshotOutside(t))
}
