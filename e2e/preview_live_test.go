//go:build e2e && linux

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cdnHost is the real host with two workspaces: Demo, whose preview
// allows its own origin only, and Cdn, whose configuration names cdn
// (a loopback "CDN") in preview_origins.
func cdnHost(t *testing.T, cdn string) host {
	bin := build(t, "deskbridge", "./cmd/deskbridge")
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	var wss []map[string]any
	for _, ws := range []map[string]any{{"name": "Demo"}, {"name": "Cdn", "preview_origins": []string{cdn}}} {
		ws["path"] = filepath.Join(dir, ws["name"].(string))
		os.Mkdir(ws["path"].(string), 0o755)
		wss = append(wss, ws)
	}
	cfg := map[string]any{
		"workspaces":      wss,
		"allowed_origins": []string{origin},
		"decision_log":    map[string]string{"path": filepath.Join(dir, "decisions.jsonl")},
		"state_dir":       state,
	}
	data, _ := json.Marshal(cfg)
	p := filepath.Join(dir, "config.json")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killServers(state) })
	return host{name: "deskbridge", path: bin, env: []string{"DESKBRIDGE_CONFIG=" + p}}
}

// cdnPage is a starter page that takes its style from the CDN.
const cdnPage = `<!doctype html><html><head><link rel="stylesheet" href="%s/cdn.css"></head><body><p id="greet">%s</p></body></html>`

// previewProject makes a static-web project in workspace ws whose
// index.html is cdnPage, and returns its id and preview URL.
func previewProject(t *testing.T, b *browser, ws, cdn string) (string, string) {
	t.Helper()
	var r struct{ ID, URL string }
	b.mustEval(fmt.Sprintf(`
		const c = new deskbridge.Client();
		const p = await c.call("create_project", {name: "site", workspace: %q, template: "static-web"});
		await c.call("update_project", {project: p.project_id, message: "use the CDN", changes: [{path: "index.html", content: %q}]});
		const v = await c.call("preview_web", {path: p.path, open: false, ttl_s: 300});
		c.close();
		return {id: p.project_id, url: v.url};`, ws, fmt.Sprintf(cdnPage, cdn, "one")), &r)
	return r.ID, r.URL
}

// background is the page's body background colour.
func background(t *testing.T, page *tab) string {
	t.Helper()
	var bg string
	if err := page.eval(`getComputedStyle(document.body).backgroundColor`, &bg); err != nil {
		t.Fatal(err)
	}
	return bg
}

// TestPreviewLiveReloadAndCDN: in headless Chromium, a preview page
// reloads by itself after update_project changes it (the event stream of
// the preview's own origin, no other port), and a CDN stylesheet applies
// only in the workspace whose configuration names the CDN's origin.
func TestPreviewLiveReloadAndCDN(t *testing.T) {
	cdn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, "body { background-color: rgb(1, 2, 3); }")
	}))
	defer cdn.Close()
	b := startBrowser(t, cdnHost(t, cdn.URL), nil)

	_, plainURL := previewProject(t, b, "Demo", cdn.URL)
	if bg := background(t, b.openTab(plainURL)); bg == "rgb(1, 2, 3)" {
		t.Errorf("the CDN stylesheet applied in a workspace that does not allow it")
	}
	id, url := previewProject(t, b, "Cdn", cdn.URL)
	page := b.openTab(url)
	if bg := background(t, page); bg != "rgb(1, 2, 3)" {
		t.Errorf("background %q: the CDN stylesheet did not apply where preview_origins names it", bg)
	}
	var marked bool
	if err := page.eval(`(window.beforeChange = true)`, &marked); err != nil {
		t.Fatal(err)
	}
	b.mustEval(fmt.Sprintf(`
		const c = new deskbridge.Client();
		await c.call("update_project", {project: %q, message: "say two", changes: [{path: "index.html", content: %q}]});
		c.close();
		return true;`, id, fmt.Sprintf(cdnPage, cdn.URL, "two")), &marked)
	var state struct {
		Greet  string `json:"greet"`
		Marked bool   `json:"marked"`
	}
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if page.eval(`document.readyState === "complete" ? {greet: document.getElementById("greet").textContent, marked: !!window.beforeChange} : {marked: true}`, &state) == nil && state.Greet == "two" {
			break
		}
	}
	if state.Greet != "two" || state.Marked {
		t.Errorf("after the change the page shows %+v, want it reloaded by itself with the new text", state)
	}
	if bg := background(t, page); bg != "rgb(1, 2, 3)" || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("after the reload: background %q, url %s", bg, url)
	}
}
