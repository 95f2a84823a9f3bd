package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/panel"
	"github.com/deskbridge/deskbridge/sandbox/localserve"
	"github.com/deskbridge/deskbridge/sandbox/preview"
)

// killServers ends the detached servers recorded in stateDir.
func killServers(stateDir string) {
	entries, _ := os.ReadDir(filepath.Join(stateDir, "servers"))
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(stateDir, "servers", e.Name()))
		var in localserve.Instance
		if err == nil && json.Unmarshal(b, &in) == nil && in.PID > 0 {
			if p, err := os.FindProcess(in.PID); err == nil {
				p.Kill()
			}
		}
	}
}

// httpGet fetches u with c and returns the status and body.
func httpGet(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestProjectPreviewPanelBinary runs the four actions through the binary
// as Chrome would: a project is made and updated (git log shows two
// commits), its preview is served by a detached deskbridge process that
// outlives the host and is found again by the next host, and the control
// panel shows the decisions just made with an intact chain.
func TestProjectPreviewPanelBinary(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	stateDir := filepath.Join(filepath.Dir(cfg), "state")
	t.Cleanup(func() { killServers(stateDir) })
	h := start(t, []string{"--config", cfg, origin})
	r := h.request("c1", "create_project", `{"name":"site","workspace":"Demo","template":"static-web"}`)
	mustCode(t, r, "c1", "ok")
	var created struct {
		ID     string `json:"project_id"`
		Path   string `json:"path"`
		Commit string `json:"commit"`
	}
	json.Unmarshal(r.Data, &created)
	mustCode(t, h.request("c2", "create_project", `{"name":"CON","workspace":"Demo"}`), "c2", "PROJECT_PATH_INVALID")
	r = h.request("u1", "update_project", `{"project":"`+created.ID+`","message":"add about","changes":[{"path":"about.html","content":"<p>about</p>"}]}`)
	mustCode(t, r, "u1", "ok")
	if _, err := exec.LookPath("git"); err == nil {
		out, err := exec.Command("git", "-C", created.Path, "-c", "safe.directory=*", "log", "--format=%s").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "add about\nCreate site") {
			t.Errorf("git log: %v %q", err, out)
		}
	}
	os.WriteFile(filepath.Join(created.Path, ".env"), []byte("SECRET=canary"), 0o600)
	r = h.request("p1", "preview_web", `{"path":"`+filepath.ToSlash(created.Path)+`","open":false,"ttl_s":120}`)
	mustCode(t, r, "p1", "ok")
	var pv struct {
		URL    string `json:"url"`
		Reused bool   `json:"reused"`
	}
	json.Unmarshal(r.Data, &pv)
	if code := h.closeAndWait(); code != 0 {
		t.Fatalf("host exit %d", code)
	}
	c := &http.Client{}
	if code, body := httpGet(t, c, pv.URL+"about.html"); code != 200 || body != "<p>about</p>"+preview.LiveScript {
		t.Errorf("after the host ended: %d %q", code, body)
	}
	if code, body := httpGet(t, c, pv.URL+".env"); code != 404 || strings.Contains(body, "canary") {
		t.Errorf(".env: %d", code)
	}

	h2 := start(t, []string{"--config", cfg, origin})
	r = h2.request("p2", "preview_web", `{"path":"`+filepath.ToSlash(filepath.Join(ws, "site"))+`","open":false}`)
	mustCode(t, r, "p2", "ok")
	var pv2 struct {
		URL    string `json:"url"`
		Reused bool   `json:"reused"`
	}
	json.Unmarshal(r.Data, &pv2)
	if pv2.URL != pv.URL || !pv2.Reused {
		t.Errorf("the second host did not find the server: %+v, first %s", pv2, pv.URL)
	}
	r = h2.request("o1", "open_deskbridge", `{"open":false}`)
	mustCode(t, r, "o1", "ok")
	h2.closeAndWait()
	jar, _ := cookiejar.New(nil)
	code, body := httpGet(t, &http.Client{Jar: jar}, runPanel(t, cfg, nil))
	if code != 200 || !strings.Contains(body, "create_project") || !strings.Contains(body, "update_project") || !strings.Contains(body, "preview_web") || !strings.Contains(body, `class="ok">intact`) {
		t.Errorf("panel: %d", code)
	}
	if _, ok := localserve.Find(context.Background(), stateDir, panel.Kind, stateDir); !ok {
		t.Error("the panel is not recorded in the state folder")
	}
}
