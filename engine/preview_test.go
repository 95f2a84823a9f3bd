package engine

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/engine/panel"
	"github.com/deskbridge/deskbridge/sandbox/localserve"
	"github.com/deskbridge/deskbridge/sandbox/preview"
)

// maybeRunServer turns this test binary into the detached preview or
// panel server when an action starts it (env.Self is "" in tests, so the
// host starts its own executable, as the real binary does). Such a server
// ends with the test process that started it, not after its time to live.
func maybeRunServer() {
	runPreview := func(ctx context.Context, spec string) error { return RunPreviewServer(ctx, spec, nil) }
	run := map[string]func(context.Context, string) error{preview.Subcommand: runPreview, panel.Subcommand: RunPanelServer}
	if len(os.Args) == 3 && run[os.Args[1]] != nil {
		ctx, cancel := context.WithCancel(context.Background())
		go func(parent int) {
			for os.Getppid() == parent {
				time.Sleep(200 * time.Millisecond)
			}
			cancel()
		}(os.Getppid())
		if err := run[os.Args[1]](ctx, os.Args[2]); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// get fetches u with method and host (the URL's own when "").
func get(t *testing.T, method, u, host string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// stopServers kills the preview and panel servers recorded in stateDir.
func stopServers(stateDir string) {
	for _, kind := range []string{preview.Kind, panel.Kind} {
		for _, in := range localserve.List(stateDir, kind) {
			if p, err := os.FindProcess(in.PID); err == nil {
				p.Kill()
			}
		}
	}
}

// TestPreviewWeb serves a folder: its page renders with the security
// headers; secrets, ignored files, links out, .git, folders without an
// index, a path out of the folder, a wrong token, another Host and POST
// are refused; a second call finds the same server.
func TestPreviewWeb(t *testing.T) {
	th := newTestHost(t, nil)
	site := filepath.Join(th.ws, "site")
	write(t, filepath.Join(site, "index.html"), "<h1>hello preview</h1>")
	write(t, filepath.Join(site, "style.css"), "h1{}")
	write(t, filepath.Join(site, ".env"), "SECRET=canary")
	write(t, filepath.Join(site, "id_rsa"), "canary key")
	write(t, filepath.Join(site, ".gitignore"), "ignored.txt\n")
	write(t, filepath.Join(site, "ignored.txt"), "canary ignored")
	write(t, filepath.Join(site, ".git", "config"), "[remote]\n\turl = https://token@example.com\n")
	write(t, filepath.Join(site, "sub", "a.txt"), "a")
	write(t, filepath.Join(th.ws, "other.txt"), "canary other")
	write(t, filepath.Join(th.out, "canary.txt"), "canary outside")
	os.Symlink(filepath.Join(th.out, "canary.txt"), filepath.Join(site, "link.txt"))
	os.Symlink("style.css", filepath.Join(site, "inlink.css"))
	stateDir := filepath.Join(filepath.Dir(th.logPath), "state")
	t.Cleanup(func() { stopServers(stateDir) })

	r := th.call(t, "preview_web", map[string]any{"path": site, "open": false, "ttl_s": 120})
	mustCode(t, r, "ok")
	base := r.Data["url"].(string)
	if !strings.HasPrefix(base, "http://127.0.0.1:") || r.Data["reused"] != false {
		t.Fatalf("url %s reused %v", base, r.Data["reused"])
	}
	code, h, body := get(t, "GET", base, "")
	if code != 200 || !strings.Contains(body, "hello preview") {
		t.Fatalf("index: %d %q", code, body)
	}
	if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("headers %v", h)
	}
	if code, _, _ := get(t, "HEAD", base+"style.css", ""); code != 200 {
		t.Errorf("HEAD style.css: %d", code)
	}
	for _, p := range []string{".env", "id_rsa", "ignored.txt", ".git/config", "link.txt", "inlink.css", "sub/", "sub", "..%2fother.txt", "../other.txt", "%2e%2e/other.txt", "nope.html"} {
		if code, _, body := get(t, "GET", base+p, ""); code != 404 || strings.Contains(body, "canary") {
			t.Errorf("%s: %d %q, want 404", p, code, body)
		}
	}
	wrong := strings.Replace(base, "/"+strings.Split(base, "/")[3]+"/", "/0123456789abcdef0123456789abcdef/", 1)
	if code, _, _ := get(t, "GET", wrong, ""); code != 404 {
		t.Errorf("wrong token: %d", code)
	}
	if code, _, body := get(t, "GET", "http://"+strings.Split(base, "/")[2]+"/", ""); code != 200 || !strings.Contains(body, "one-time link") || strings.Contains(body, "canary") {
		t.Errorf("the bare address: %d %q, want 200 and how to open the pages, nothing served", code, body)
	}
	if code, _, _ := get(t, "POST", base, ""); code != 405 {
		t.Errorf("POST: %d", code)
	}
	if code, _, _ := get(t, "GET", base, "evil.example:80"); code != 421 {
		t.Errorf("rebinding Host: %d", code)
	}

	r = th.call(t, "preview_web", map[string]any{"path": filepath.Join(site, "index.html"), "open": false})
	mustCode(t, r, "ok")
	if r.Data["reused"] != true || r.Data["url"] != base+"index.html" {
		t.Errorf("second call: %v", r.Data)
	}
	mustCode(t, th.call(t, "preview_web", map[string]any{"path": th.out, "open": false}), "WORKSPACE_VIOLATION")
	mustCode(t, th.call(t, "preview_web", map[string]any{"path": filepath.Join(site, ".env"), "open": false}), "PERMISSION_DENIED")
	mustCode(t, th.call(t, "preview_web", map[string]any{"url": "file:///etc/passwd"}), "UNSUPPORTED_PROTOCOL")
	mustCode(t, th.call(t, "preview_web", map[string]any{"url": "http://127.0.0.1:9/"}), "PRIVATE_NETWORK_BLOCKED")
	mustCode(t, th.call(t, "preview_web", map[string]any{}), "INVALID_REQUEST")
}

// BenchmarkFingerprint is the check a preview server makes before each
// request: the configuration and policy on disk, hashed.
func BenchmarkFingerprint(b *testing.B) {
	th := newTestHost(b, nil)
	for b.Loop() {
		if Fingerprint(th.cfgPath) == "" {
			b.Fatal("no fingerprint")
		}
	}
}
