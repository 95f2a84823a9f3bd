package engine

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/engine/panel"
)

// TestOpenDeskbridge opens the control panel after a decision: the table
// shows it, verification says intact, one decision's input is shown; a
// second call finds the same panel; a wrong token and POST are refused;
// a changed log line makes verification say so.
func TestOpenDeskbridge(t *testing.T) {
	th := newTestHost(t, nil)
	stateDir := filepath.Join(filepath.Dir(th.logPath), "state")
	t.Cleanup(func() { stopServers(stateDir) })
	mustCode(t, th.call(t, "write_file", map[string]any{"path": filepath.Join(th.ws, ".env"), "content": "x"}), "PERMISSION_DENIED")
	asked := time.Now()
	r := th.call(t, "open_deskbridge", map[string]any{"open": false})
	mustCode(t, r, "ok")
	// Nobody was handed a link: the panel it started ends within
	// panelQuietTTL, not after the hour of a panel a person opens.
	if exp, err := time.Parse(time.RFC3339, r.Data["expires_at"].(string)); err != nil || exp.After(asked.Add(10*time.Minute+time.Second)) {
		t.Errorf("open_deskbridge {open: false} started a panel that serves until %v (asked at %v): %v", exp, asked, err)
	}
	if u, _ := r.Data["url"].(string); !regexp.MustCompile(`^http://127\.0\.0\.1:\d+/$`).MatchString(u) || r.Data["opened"] != false || !strings.Contains(r.Data["how"].(string), "deskbridge panel") {
		t.Errorf("open_deskbridge without opening: %v", r.Data)
	}
	enter := panelLink(t, th)
	base := enter[:strings.LastIndex(enter, "/")+1]
	if code, _, _ := get(t, "GET", base, ""); code != 403 {
		t.Errorf("the panel without its session: %d, want 403", code)
	}
	if code, _, _ := get(t, "GET", base+"ticket", ""); code != 403 {
		t.Errorf("a ticket without the header: %d, want 403", code)
	}
	if code, _, _ := getWith(t, base+"ticket", map[string]string{panel.TicketHeader: "1"}); code != 403 {
		t.Errorf("a ticket with the header but not the admin secret: %d, want 403", code)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	code, h, body := fetch(t, browser, enter)
	if code != 200 {
		t.Fatalf("panel: %d %s", code, body)
	}
	for _, want := range []string{"write_file", "sensitivity.secret", "PERMISSION_DENIED", `<span class="ok">intact</span>`, "WS", "<svg"} {
		if !strings.Contains(body, want) {
			t.Errorf("the panel does not show %q", want)
		}
	}
	if h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Errorf("headers %v", h)
	}
	seq := regexp.MustCompile(`decision\?seq=(\d+)`).FindStringSubmatch(body)
	if seq == nil {
		t.Fatal("no decision link")
	}
	if code, _, _ := fetch(t, &http.Client{}, enter); code != 403 {
		t.Errorf("a spent ticket: %d, want 403", code)
	}
	if code, _, body := fetch(t, browser, base+"decision?seq="+seq[1]); code != 200 || !strings.Contains(body, `origin`) || !strings.Contains(body, "Decision "+seq[1]) {
		t.Errorf("decision page: %d", code)
	}
	if code, _, body := fetch(t, browser, base+"?outcome=NOPE"); code != 200 || !strings.Contains(body, "No decisions match") {
		t.Errorf("filter: %d", code)
	}
	if code, _, _ := get(t, "POST", base, ""); code != 405 {
		t.Errorf("POST: %d", code)
	}
	if code, _, _ := get(t, "GET", strings.Replace(base, "/"+strings.Split(base, "/")[3]+"/", "/ffffffffffffffffffffffffffffffff/", 1), ""); code != 404 {
		t.Errorf("wrong token: %d", code)
	}
	r = th.call(t, "open_deskbridge", map[string]any{"open": false})
	mustCode(t, r, "ok")
	if r.Data["reused"] != true {
		t.Errorf("second call: %v", r.Data)
	}
	if again := panelLink(t, th); !strings.HasPrefix(again, base+"enter?ticket=") || again == enter {
		t.Errorf("a second link %q, first %q", again, enter)
	}
	th.h.Close()
	b, _ := os.ReadFile(th.logPath)
	os.WriteFile(th.logPath, []byte(strings.Replace(string(b), "write_file", "read_file!", 1)), 0o600)
	if _, _, body := fetch(t, browser, base); !strings.Contains(body, "NOT intact") {
		t.Error("a changed log still verifies as intact")
	}
}

// panelLink is a one-time link to th's panel, as `deskbridge panel` gets
// it.
func panelLink(t *testing.T, th *testHost) string {
	t.Helper()
	u, err := th.h.PanelLink(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// getWith GETs u with the headers hd.
func getWith(t *testing.T, u string, hd map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hd {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// fetch GETs u with client c, following redirects.
func fetch(t *testing.T, c *http.Client, u string) (int, http.Header, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestPanelReplay replays the log in the panel against the policy that
// decided (every decision the same) and against a candidate that refuses
// everything (the allowed ones change).
func TestPanelReplay(t *testing.T) {
	th := newTestHost(t, nil)
	stateDir := filepath.Join(filepath.Dir(th.logPath), "state")
	t.Cleanup(func() { stopServers(stateDir) })
	write(t, filepath.Join(th.ws, "a.txt"), "a")
	mustCode(t, th.call(t, "read_file", map[string]any{"path": filepath.Join(th.ws, "a.txt")}), "ok")
	enter := panelLink(t, th)
	th.h.Close()
	base := enter[:strings.LastIndex(enter, "/")+1]
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	fetch(t, browser, enter)
	code, _, body := fetch(t, browser, base+"replay")
	if code != 200 || !strings.Contains(body, "<svg") {
		t.Fatalf("replay: %d %s", code, body)
	}
	cand := filepath.Join(th.ws, "candidate")
	write(t, filepath.Join(cand, "main.rego"), "package deskbridge.main\n\nimport rego.v1\n\ndecision := {\"allow\": false, \"denials\": [{\"code\": \"PERMISSION_DENIED\", \"rule\": \"nope\", \"message\": \"no\", \"priority\": 1}], \"limits\": {}}\n\ncontent_decision := {\"action\": \"refuse\"}\n")
	code, _, changed := fetch(t, browser, base+"replay?policy="+cand)
	if code != 200 || changed == body || !strings.Contains(changed, "PERMISSION_DENIED") {
		t.Errorf("candidate replay: %d, the same page as the logged policy's", code)
	}
	if code, _, _ := fetch(t, &http.Client{}, base+"replay"); code != 403 {
		t.Errorf("replay without the session: %d", code)
	}
}
