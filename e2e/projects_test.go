//go:build e2e && linux

package e2e

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// projectHost is the real host with a configuration of its own: one
// workspace and a state folder (where the project registry and the
// detached servers' state live), both temporary.
func projectHost(t *testing.T) (host, string) {
	bin := build(t, "deskbridge", "./cmd/deskbridge")
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	state := filepath.Join(dir, "state")
	os.Mkdir(ws, 0o755)
	cfg := map[string]any{
		"workspaces":      []map[string]string{{"name": "Demo", "path": ws}},
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
	return host{name: "deskbridge", path: bin, env: []string{"DESKBRIDGE_CONFIG=" + p}, workspace: ws}, state
}

// panelLink is the one-time link `deskbridge panel` prints for the host's
// configuration, as the person at the computer gets it.
func panelLink(t *testing.T, h host) string {
	t.Helper()
	cmd := exec.Command(h.path, "panel")
	cmd.Env = append(os.Environ(), h.env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("deskbridge panel: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// killServers ends the detached preview and panel servers recorded in the
// state folder.
func killServers(state string) {
	entries, _ := os.ReadDir(filepath.Join(state, "servers"))
	for _, e := range entries {
		var in struct {
			PID int `json:"pid"`
		}
		if b, err := os.ReadFile(filepath.Join(state, "servers", e.Name())); err == nil && json.Unmarshal(b, &in) == nil && in.PID > 0 {
			syscall.Kill(in.PID, syscall.SIGKILL)
		}
	}
}

// gitOut runs git in dir (the test does; the host never runs git).
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir, "-c", "safe.directory=*"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// tab is a page of the browser with a DevTools session.
type tab struct {
	b       *browser
	session string
}

// openTab opens url in a new page, 1280×900, and waits until it has
// loaded.
func (b *browser) openTab(url string) *tab {
	b.t.Helper()
	var created struct {
		TargetID string `json:"targetId"`
	}
	if err := b.cdp.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &created, callTimeout); err != nil {
		b.t.Fatal(err)
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.cdp.call("", "Target.attachToTarget", map[string]any{"targetId": created.TargetID, "flatten": true}, &att, callTimeout); err != nil {
		b.t.Fatal(err)
	}
	tb := &tab{b: b, session: att.SessionID}
	tb.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil)
	tb.call("Page.navigate", map[string]any{"url": url}, nil)
	var ready string
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if tb.eval(`document.readyState + " " + location.href`, &ready) == nil && strings.HasPrefix(ready, "complete http") {
			return tb
		}
	}
	b.t.Fatalf("the page %s did not load: %q", url, ready)
	return nil
}

func (tb *tab) call(method string, params, out any) {
	tb.b.t.Helper()
	if err := tb.b.cdp.call(tb.session, method, params, out, callTimeout); err != nil {
		tb.b.t.Fatal(err)
	}
}

// eval evaluates a JS expression (awaited) in the page.
func (tb *tab) eval(expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := tb.b.cdp.call(tb.session, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &res, callTimeout); err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("%s", res.ExceptionDetails.Text)
	}
	return json.Unmarshal(res.Result.Value, out)
}

// screenshot saves the page as a PNG at path.
func (tb *tab) screenshot(path string) {
	tb.b.t.Helper()
	var shot struct {
		Data string `json:"data"`
	}
	tb.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		tb.b.t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.b.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.b.t.Fatal(err)
	}
	tb.b.t.Logf("screenshot: %s", path)
}

// artefact returns where a screenshot goes: $DESKBRIDGE_E2E_ARTIFACTS
// (CI keeps that folder), else a temporary folder of the test.
func artefact(t *testing.T, name string) string {
	dir := os.Getenv("DESKBRIDGE_E2E_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	return filepath.Join(dir, name)
}

// TestProjectsPreviewPanel runs the four actions from the extension in a
// real browser: a project is made (git log shows its first commit) and
// updated (a second commit with the diff), its preview renders in a tab
// while a .env beside it is 404 and a wrong token is refused, and the
// control panel shows the decision just made with verification intact.
func TestProjectsPreviewPanel(t *testing.T) {
	h, _ := projectHost(t)
	b := startBrowser(t, h, nil)
	var made struct {
		ID, Path, Commit string
	}
	b.mustEval(`
		const c = new deskbridge.Client();
		const r = await c.call("create_project", {name: "site", workspace: "Demo", template: "static-web", description: "e2e"});
		c.close();
		return {id: r.project_id, path: r.path, commit: r.commit};`, &made)
	if log := gitOut(t, made.Path, "log", "--format=%H %s"); !strings.HasPrefix(log, made.Commit+" Create site") || strings.Count(log, "\n") != 1 {
		t.Fatalf("git log after create_project:\n%s", log)
	}
	var updated struct{ Commit string }
	b.mustEval(fmt.Sprintf(`
		const c = new deskbridge.Client();
		const r = await c.call("update_project", {project: %q, message: "Say hello", changes: [
			{path: "index.html", patch: [{old_text: "A new static web project.", new_text: "<span id=\"greet\">Hello from DeskBridge</span>"}]},
			{path: "main.js", delete: true}]});
		c.close();
		return {commit: r.commit};`, made.ID), &updated)
	log := gitOut(t, made.Path, "log", "--format=%s")
	diff := gitOut(t, made.Path, "show", "--stat", "--format=%s", "HEAD")
	if log != "Say hello\nCreate site from the static-web template\n" || !strings.Contains(diff, "index.html") || !strings.Contains(diff, "main.js") {
		t.Fatalf("after update_project: log\n%s\nshow\n%s", log, diff)
	}
	if full := gitOut(t, made.Path, "diff", "HEAD~1", "HEAD"); !strings.Contains(full, "+    <p><span id=\"greet\">Hello from DeskBridge</span></p>") {
		t.Errorf("diff:\n%s", full)
	}

	os.WriteFile(filepath.Join(made.Path, ".env"), []byte("SECRET=canary"), 0o600)
	var pv struct{ URL string }
	b.mustEval(fmt.Sprintf(`
		const c = new deskbridge.Client();
		const r = await c.call("preview_web", {path: %q, open: false, ttl_s: 300});
		c.close();
		return {url: r.url};`, made.Path), &pv)
	page := b.openTab(pv.URL)
	var checks struct {
		Greet   string `json:"greet"`
		Env     int    `json:"env"`
		Wrong   int    `json:"wrong"`
		NoToken int    `json:"notoken"`
	}
	if err := page.eval(`(async () => {
		const st = async (u) => (await fetch(u)).status;
		const tokenPath = location.pathname.split("/")[1];
		return {greet: document.getElementById("greet").textContent,
			env: await st(".env"),
			wrong: await st("/" + tokenPath.replace(/./, (c) => c === "0" ? "1" : "0") + "/index.html"),
			notoken: await st("/index.html")};
	})()`, &checks); err != nil {
		t.Fatal(err)
	}
	if checks.Greet != "Hello from DeskBridge" || checks.Env != 404 || checks.Wrong != 404 || checks.NoToken != 404 {
		t.Errorf("preview: %+v, want the greeting and 404 for .env, a wrong token and no token", checks)
	}
	page.screenshot(artefact(t, "preview.png"))

	var od struct{ URL, How string }
	b.mustEval(`
		const c = new deskbridge.Client();
		try { await c.call("read_file", {path: "/etc/passwd"}); } catch (e) {}
		const r = await c.call("open_deskbridge", {open: false});
		c.close();
		return {url: r.url || "", how: r.how || ""};`, &od)
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+/$`).MatchString(od.URL) || !strings.Contains(od.How, "deskbridge panel") {
		t.Errorf("open_deskbridge handed the extension %+v, want the bare address (no token, no ticket) and how to open the panel", od)
	} else {
		// The bare address, opened in the browser, only says how to open
		// the panel: it is no way in.
		bare := b.openTab(od.URL)
		var text string
		if err := bare.eval(`document.body ? document.body.innerText : ""`, &text); err != nil || !strings.Contains(text, "one-time link") || strings.Contains(text, "Decisions") {
			t.Errorf("the bare address shows %q (%v), want only how to open the panel", text, err)
		}
	}
	panel := b.openTab(panelLink(t, h))
	var seen struct {
		Table  string `json:"table"`
		Verify string `json:"verify"`
		Tests  string `json:"tests"`
	}
	// The panel runs the policy's tests once in the background; reload
	// until they report.
	for end := time.Now().Add(30 * time.Second); ; {
		err := panel.eval(`document.readyState === "complete" && document.getElementById("tests") ? {
			table: document.getElementById("decisions").innerText,
			verify: document.getElementById("verify").innerText,
			tests: document.getElementById("tests").innerText} : {}`, &seen)
		if err == nil && strings.HasPrefix(seen.Tests, "pass") || time.Now().After(end) {
			break
		}
		time.Sleep(500 * time.Millisecond)
		panel.call("Page.reload", map[string]any{}, nil)
		time.Sleep(300 * time.Millisecond)
	}
	if !strings.Contains(seen.Table, "update_project") || !strings.Contains(seen.Table, "workspace.outside") || !strings.Contains(seen.Table, "WORKSPACE_VIOLATION") {
		t.Errorf("the recent decisions table does not show the decisions just made:\n%s", seen.Table)
	}
	if !strings.Contains(seen.Verify, "intact") || strings.Contains(seen.Verify, "NOT") {
		t.Errorf("verification: %q", seen.Verify)
	}
	if !strings.HasPrefix(seen.Tests, "pass") {
		t.Errorf("policy tests: %q", seen.Tests)
	}
	panel.screenshot(screenshotPath(t, "panel.png"))

	// One decision's full input and result, by keyboard: the refused
	// read's link is focusable and opens the page.
	var detail string
	if err := panel.eval(`(async () => {
		const row = [...document.querySelectorAll("#decisions tbody tr")].find((tr) => tr.innerText.includes("WORKSPACE_VIOLATION"));
		const link = row.querySelector("a");
		link.focus();
		if (document.activeElement !== link) return "not focusable";
		location.href = link.href;
		return "ok";
	})()`, &detail); err != nil || detail != "ok" {
		t.Fatalf("decision link: %v %q", err, detail)
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if panel.eval(`document.readyState === "complete" && document.getElementById("detail-h") ? document.body.innerText : ""`, &detail) == nil && detail != "" {
			break
		}
	}
	if !strings.Contains(detail, "/etc/passwd") || !strings.Contains(detail, "workspace.outside") {
		t.Errorf("the decision page does not show the refused read's input and result:\n%.500s", detail)
	}
	panel.screenshot(screenshotPath(t, "panel-decision.png"))
}

// screenshotPath is docs/img/NAME with DESKBRIDGE_DOCS_SCREENSHOTS set
// (to refresh the documentation's pictures), else an artefact.
func screenshotPath(t *testing.T, name string) string {
	if os.Getenv("DESKBRIDGE_DOCS_SCREENSHOTS") != "" {
		return filepath.Join("..", "docs", "img", name)
	}
	return artefact(t, name)
}
