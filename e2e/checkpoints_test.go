//go:build e2e && linux

package e2e

import (
	"strings"
	"testing"
)

// TestProjectRestoreRoundTrip runs checkpoints from the extension in a
// real browser: a project is made and changed, its checkpoints listed and
// diffed, and the first restored as a new commit on top of the history
// (git log shows all three and the restore), the file back as it was.
func TestProjectRestoreRoundTrip(t *testing.T) {
	h, _ := projectHost(t)
	b := startBrowser(t, h, nil)
	var got struct {
		Path     string   `json:"path"`
		Messages []string `json:"messages"`
		Diff     string   `json:"diff"`
		Restored string   `json:"restored"`
		Listed   []string `json:"listed"`
	}
	b.mustEval(`
		const c = new deskbridge.Client();
		const p = await c.call("create_project", {name: "site", workspace: "Demo", template: "static-web"});
		await c.call("update_project", {project: p.project_id, message: "Say hello", changes: [
			{path: "index.html", patch: [{old_text: "A new static web project.", new_text: "Hello."}]}]});
		const l = await c.call("list_checkpoints", {project: p.project_id});
		const d = await c.call("diff_checkpoint", {project: p.project_id, checkpoint: l.checkpoints[0].id});
		const r = await c.call("update_project", {project: p.project_id, restore: l.checkpoints[1].id});
		const all = await c.call("list_projects", {});
		c.close();
		return {path: p.path, messages: l.checkpoints.map((x) => x.message), diff: d.patches[0].patch,
			restored: r.restored, listed: all.workspaces[0].projects.map((x) => x.last_checkpoint.message)};`, &got)
	if len(got.Messages) != 2 || got.Messages[0] != "Say hello" || !strings.Contains(got.Diff, "+    <p>Hello.</p>") {
		t.Fatalf("checkpoints %q, diff:\n%s", got.Messages, got.Diff)
	}
	log := gitOut(t, got.Path, "log", "--format=%s")
	if !strings.HasPrefix(log, "Restore checkpoint ") || !strings.Contains(log, "\nSay hello\nCreate site") {
		t.Errorf("git log after the restore:\n%s", log)
	}
	if status := gitOut(t, got.Path, "status", "--porcelain"); status != "" {
		t.Errorf("git status after the restore: %q", status)
	}
	if show := gitOut(t, got.Path, "show", "HEAD:index.html"); !strings.Contains(show, "A new static web project.") || got.Restored == "" {
		t.Errorf("index.html after the restore:\n%s", show)
	}
	if len(got.Listed) != 1 || !strings.HasPrefix(got.Listed[0], "Restore checkpoint") {
		t.Errorf("list_projects' last checkpoint: %q", got.Listed)
	}
}
