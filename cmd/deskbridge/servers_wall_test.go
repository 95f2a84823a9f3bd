package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/panel"
	"github.com/deskbridge/deskbridge/sandbox/localserve"
)

// wallFix is a configuration the tests of the preview and panel servers
// change between hosts, as an administrator would: each host started
// reads it as it stands.
type wallFix struct {
	dir, ws, other, cfg, log, state string
	doc                             map[string]any
}

// corpPolicy is a team's package that refuses reading anything under a
// secret-plans folder (rule corp.denylist).
const corpPolicy = `package deskbridge.policies.corp

import rego.v1

deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "corp.denylist",
	"message": "Secret plans stay on this computer.",
	"priority": 40,
} if {
	input.request.action == "read_file"
	glob.match("**/secret-plans/**", ["/"], input.paths.target.relative)
}
`

// newWall writes a configuration with two workspaces (Demo, Other) and a
// policy folder of the default policy plus corpPolicy.
func newWall(t *testing.T) *wallFix {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &wallFix{dir: dir, ws: filepath.Join(dir, "ws"), other: filepath.Join(dir, "other"), cfg: filepath.Join(dir, "config.json"),
		log: filepath.Join(dir, "log", "decisions.jsonl"), state: filepath.Join(dir, "state")}
	pol := filepath.Join(dir, "policy")
	for _, d := range []string{w.ws, w.other, pol} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyTestTree(t, filepath.Join("..", "..", "rego"), pol, func(p string) bool { return strings.HasSuffix(p, ".rego") })
	if err := os.WriteFile(filepath.Join(pol, "corp.rego"), []byte(corpPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	w.doc = map[string]any{
		"workspaces":      []map[string]string{{"name": "Demo", "path": w.ws}, {"name": "Other", "path": w.other}},
		"allowed_origins": []string{origin},
		"decision_log":    map[string]string{"path": w.log},
		"state_dir":       w.state,
		"policy":          map[string]string{"dir": pol},
	}
	w.save(t)
	t.Cleanup(func() { killServers(w.state) })
	return w
}

// save writes the configuration as it stands.
func (w *wallFix) save(t *testing.T) {
	t.Helper()
	b, err := json.Marshal(w.doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// write creates the workspace file rel.
func (w *wallFix) write(t *testing.T, rel, content string) string {
	t.Helper()
	p := filepath.Join(w.ws, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// previewAnswer is preview_web's data.
type previewAnswer struct {
	URL       string `json:"url"`
	Opened    bool   `json:"opened"`
	Reused    bool   `json:"reused"`
	OpenError string `json:"open_error"`
}

// preview asks a newly started host (as Chrome starts one per
// connection) for preview_web {path, open: false} and returns its data.
func (w *wallFix) preview(t *testing.T, path string, env ...string) previewAnswer {
	t.Helper()
	h := start(t, []string{"--config", w.cfg, origin}, env...)
	args, _ := json.Marshal(map[string]any{"path": path, "open": len(env) > 0, "ttl_s": 600})
	r := h.request("p", "preview_web", string(args))
	mustCode(t, r, "p", "ok")
	h.closeAndWait()
	var a previewAnswer
	if err := json.Unmarshal(r.Data, &a); err != nil || !strings.HasPrefix(a.URL, "http://127.0.0.1:") {
		t.Fatalf("preview_web: %s (%v)", r.Data, err)
	}
	return a
}

// fetchURL GETs u and returns the status and body, or status 0 when
// nothing answers (a server that has stopped).
func fetchURL(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}).Get(u)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// logLines reads the decision log's lines.
func logLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// servedRead is what the decision log says of the preview's read of one
// path: its decision line and that decision's outcome line.
type servedRead struct{ decision, outcome map[string]any }

// previewReads finds, in the log, the preview's judged read_file of abs.
func previewReads(t *testing.T, lines []map[string]any, abs string) (out []servedRead) {
	t.Helper()
	outcomes := map[any]map[string]any{}
	for _, l := range lines {
		if l["phase"] == "outcome" {
			outcomes[l["decision_id"]] = l
		}
	}
	for _, l := range lines {
		in, _ := l["input"].(map[string]any)
		req, _ := in["request"].(map[string]any)
		args, _ := req["arguments"].(map[string]any)
		id, _ := req["id"].(string)
		if l["phase"] == "decision" && req["action"] == "read_file" && strings.HasPrefix(id, "preview-") && args["path"] == abs {
			out = append(out, servedRead{l, outcomes[l["decision_id"]]})
		}
	}
	return out
}

// headless is the environment of a machine without a graphical session.
var headless = []string{"DISPLAY=", "WAYLAND_DISPLAY=", "XDG_CURRENT_DESKTOP="}

// panelInstance is the running panel of the state folder.
func panelInstance(t *testing.T, state string) localserve.Instance {
	t.Helper()
	ins := localserve.List(state, panel.Kind)
	if len(ins) != 1 {
		t.Fatalf("%d panels recorded", len(ins))
	}
	return ins[0]
}

// runPanel runs `deskbridge panel` and returns the link it prints.
func runPanel(t *testing.T, cfg string, env []string) string {
	t.Helper()
	out, errOut, code := runBin(t, "", env, "--config", cfg, "panel")
	if code != 0 {
		t.Fatalf("deskbridge panel: exit %d: %s", code, errOut)
	}
	return strings.TrimSpace(out)
}

// session enters the panel with the one-time link u and returns a client
// that holds the session, with the panel's page.
func session(t *testing.T, u string) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Transport: &http.Transport{Proxy: nil}}
	code, body := httpGet(t, c, u)
	if code != 200 {
		t.Fatalf("entering the panel with %s: %d %s", u, code, body)
	}
	return c, body
}

// TestPanelIsForThePersonBinary: open_deskbridge answers how to open the
// panel and carries no ticket, nor the panel's token or admin secret, in
// its response; `deskbridge panel` prints a one-time link that enters it
// (once); and the skills the panel shows are those get_status reports in
// the same environment (a machine without a graphical session: no
// clipboard, no windows).
func TestPanelIsForThePersonBinary(t *testing.T) {
	w := newWall(t)
	h := start(t, []string{"--config", w.cfg, origin}, headless...)
	r := h.request("s", "get_status", "{}")
	mustCode(t, r, "s", "ok")
	var status struct {
		Skills map[string]bool `json:"skills"`
	}
	json.Unmarshal(r.Data, &status)
	r = h.request("o", "open_deskbridge", `{"open":false}`)
	mustCode(t, r, "o", "ok")
	h.closeAndWait()
	in := panelInstance(t, w.state)
	for _, secret := range []string{in.Token, in.Admin, "ticket", "enter?"} {
		if strings.Contains(h.raw.String(), secret) {
			t.Errorf("the host's answers hold %q", secret)
		}
	}
	var d struct {
		Opened bool   `json:"opened"`
		How    string `json:"how"`
	}
	if json.Unmarshal(r.Data, &d); d.Opened || !strings.Contains(d.How, "deskbridge panel") {
		t.Errorf("open_deskbridge: %s", r.Data)
	}

	link := runPanel(t, w.cfg, headless)
	if !strings.HasPrefix(link, in.URL()+"enter?ticket=") {
		t.Fatalf("deskbridge panel printed %q, want a link into %s", link, in.URL())
	}
	_, page := session(t, link)
	if !strings.Contains(page, "open_deskbridge") {
		t.Error("the panel does not show the decisions")
	}
	if code, _ := httpGet(t, &http.Client{}, link); code != 403 {
		t.Errorf("a spent link: %d, want 403", code)
	}
	if again := runPanel(t, w.cfg, headless); again == link || !strings.HasPrefix(again, in.URL()) {
		t.Errorf("a second link %q, first %q", again, link)
	}

	shown := map[string]bool{}
	for _, m := range regexp.MustCompile(`<tr><td>(\w+)</td><td><span class="(on|off)">`).FindAllStringSubmatch(page, -1) {
		shown[m[1]] = m[2] == "on"
	}
	if len(shown) != len(status.Skills) || len(shown) == 0 {
		t.Fatalf("the panel shows skills %v, get_status %v", shown, status.Skills)
	}
	for sk, on := range status.Skills {
		if shown[sk] != on {
			t.Errorf("skill %s: the panel shows on=%v, get_status in the same environment %v", sk, shown[sk], on)
		}
	}
	if status.Skills["clipboard"] {
		t.Log("get_status finds a clipboard without a graphical session; the comparison above still holds")
	}
}

// TestPanelReplayIsNoOracleBinary: /replay?policy= replays against a
// candidate folder inside a workspace, and answers every other path (an
// existing file outside, a missing one, a folder outside) with the same
// status and the same words, so the panel tells no one what exists.
func TestPanelReplayIsNoOracleBinary(t *testing.T) {
	w := newWall(t)
	h := start(t, []string{"--config", w.cfg, origin})
	mustCode(t, h.request("o", "open_deskbridge", `{"open":false}`), "o", "ok")
	h.closeAndWait()
	c, _ := session(t, runPanel(t, w.cfg, nil))
	base := panelInstance(t, w.state).URL()

	cand := filepath.Join(w.ws, "candidate")
	os.MkdirAll(cand, 0o755)
	os.WriteFile(filepath.Join(cand, "main.rego"), []byte("package deskbridge.main\n\nimport rego.v1\n\ndecision := {\"allow\": false, \"denials\": [{\"code\": \"PERMISSION_DENIED\", \"rule\": \"nope\", \"message\": \"no\", \"priority\": 1}], \"limits\": {}}\n\ncontent_decision := {\"action\": \"refuse\"}\n"), 0o644)
	if code, body := httpGet(t, c, base+"replay?policy="+url.QueryEscape(cand)); code != 200 || !strings.Contains(body, "PERMISSION_DENIED") {
		t.Errorf("a candidate inside the workspace: %d", code)
	}

	key := filepath.Join(w.dir, "id_rsa")
	os.WriteFile(key, []byte("not a policy"), 0o600)
	paths := []string{key, filepath.Join(w.dir, "missing", "id_rsa"), w.dir, filepath.Join(w.ws, "..", "id_rsa"), "relative/path"}
	code0, body0 := httpGet(t, c, base+"replay?policy="+url.QueryEscape(paths[0]))
	if code0 != 400 {
		t.Errorf("%s: %d, want 400", paths[0], code0)
	}
	for _, p := range paths[1:] {
		if code, body := httpGet(t, c, base+"replay?policy="+url.QueryEscape(p)); code != code0 || body != body0 {
			t.Errorf("%s: %d %q; %s: %d %q: the answers differ", p, code, body, paths[0], code0, body0)
		}
	}
}
