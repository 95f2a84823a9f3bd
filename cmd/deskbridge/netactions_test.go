package main

// These tests run download_asset, import_asset and open_in_browser through
// the real deskbridge binary, started as Chrome starts it, with framed
// requests on stdin.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

const netTestOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

// buildNetBinary builds the deskbridge command into a temporary folder.
func buildNetBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "deskbridge")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if os.Getenv("DESKBRIDGE_TEST_BINARY") != "" {
		if err := buildHost(bin); err != nil {
			t.Fatal(err)
		}
		return bin
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// netResponse is one framed response.
type netResponse struct {
	ID      string         `json:"id"`
	Success bool           `json:"success"`
	Data    map[string]any `json:"data"`
	Error   *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// serveFrames starts the binary as Chrome does, sends each request as a
// frame, reads one response per request (stdin stays open meanwhile: the
// host abandons work when the browser closes the port), and returns them
// by id.
func serveFrames(t *testing.T, bin, cfg string, reqs map[string]string) map[string]netResponse {
	t.Helper()
	cmd := exec.Command(bin, "--config", cfg, netTestOrigin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for id, body := range reqs {
		frame := []byte(fmt.Sprintf(`{"version":1,"id":%q,%s}`, id, body))
		binary.Write(stdin, binary.LittleEndian, uint32(len(frame)))
		stdin.Write(frame)
	}
	got := map[string]netResponse{}
	for range reqs {
		var n uint32
		if err := binary.Read(stdout, binary.LittleEndian, &n); err != nil {
			t.Fatalf("reading a response: %v\n%s", err, stderr.String())
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(stdout, buf); err != nil {
			t.Fatal(err)
		}
		var r netResponse
		if err := json.Unmarshal(buf, &r); err != nil {
			t.Fatal(err)
		}
		got[r.ID] = r
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("deskbridge: %v\n%s", err, stderr.String())
	}
	return got
}

func TestBinaryNetActions(t *testing.T) {
	bin := buildNetBinary(t)
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 32)...)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/to-metadata" {
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
			return
		}
		w.Write(png)
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]

	base := t.TempDir()
	ws, imp, elsewhere := filepath.Join(base, "Demo"), filepath.Join(base, "Downloads"), filepath.Join(base, "Elsewhere")
	for _, d := range []string{ws, imp, elsewhere} {
		os.Mkdir(d, 0o755)
	}
	os.WriteFile(filepath.Join(imp, "logo.png"), png, 0o644)
	os.WriteFile(filepath.Join(elsewhere, "other.png"), png, 0o644)
	cfg := filepath.Join(base, "config.json")
	doc, _ := json.Marshal(map[string]any{
		"workspaces":      []map[string]string{{"name": "Demo", "path": ws}},
		"allowed_origins": []string{netTestOrigin},
		"decision_log":    map[string]string{"path": filepath.Join(base, "decisions.jsonl")},
		"import_sources":  []string{imp},
		"network":         map[string]any{"allow_private": []string{"127.0.0.1/32"}},
	})
	os.WriteFile(cfg, doc, 0o600)

	q := func(action string, args map[string]any) string {
		b, _ := json.Marshal(args)
		return fmt.Sprintf(`"action":%q,"arguments":%s`, action, b)
	}
	reqs := map[string]string{
		"dl-ok":       q("download_asset", map[string]any{"url": srv.URL + "/a.png?sig=CANARY-sig#t=CANARY-frag", "destination": filepath.Join(ws, "a.png")}),
		"dl-v6":       q("download_asset", map[string]any{"url": "http://[::1]:" + port + "/a.png", "destination": filepath.Join(ws, "b.png")}),
		"dl-meta":     q("download_asset", map[string]any{"url": srv.URL + "/to-metadata", "destination": filepath.Join(ws, "c.png")}),
		"dl-userinfo": q("download_asset", map[string]any{"url": "http://evil@127.0.0.1:" + port + "/", "destination": filepath.Join(ws, "d.png")}),
		"open-loop":   q("open_in_browser", map[string]any{"url": "http://0x7f000002:" + port + "/"}),
		"open-file":   q("open_in_browser", map[string]any{"url": "file:///etc/passwd"}),
		"imp-ok":      q("import_asset", map[string]any{"source": filepath.Join(imp, "logo.png"), "destination": ws}),
		"imp-out":     q("import_asset", map[string]any{"source": filepath.Join(elsewhere, "other.png"), "destination": ws}),
	}
	want := map[string]string{
		"dl-ok": "", "dl-v6": "PRIVATE_NETWORK_BLOCKED", "dl-meta": "PRIVATE_NETWORK_BLOCKED",
		"dl-userinfo": "INVALID_URL", "open-loop": "PRIVATE_NETWORK_BLOCKED", "open-file": "UNSUPPORTED_PROTOCOL",
		"imp-ok": "", "imp-out": "ASSET_IMPORT_DENIED",
	}
	got := serveFrames(t, bin, cfg, reqs)
	for id, code := range want {
		r, ok := got[id]
		switch {
		case !ok:
			t.Errorf("%s: no response", id)
		case code == "" && !r.Success:
			t.Errorf("%s: failed with %+v", id, r.Error)
		case code != "" && (r.Success || r.Error.Code != code):
			t.Errorf("%s: success=%v error=%+v, want %s", id, r.Success, r.Error, code)
		}
	}
	// Only dl-ok and dl-meta's first hop reached the allowed server.
	if n := hits.Load(); n != 2 {
		t.Errorf("the server received %d requests, want 2", n)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "a.png")); err != nil || !bytes.Equal(b, png) {
		t.Errorf("a.png = %q, %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "logo.png")); err != nil || !bytes.Equal(b, png) {
		t.Errorf("logo.png = %q, %v", b, err)
	}
	if des, _ := os.ReadDir(ws); len(des) != 2 {
		t.Errorf("workspace holds %d entries, want a.png and logo.png", len(des))
	}
	// The signed URL's secrets are masked in the log (engine/logmask.go).
	if b, err := os.ReadFile(filepath.Join(base, "decisions.jsonl")); err != nil || bytes.Contains(b, []byte("CANARY")) || !bytes.Contains(b, []byte("/a.png?sig=xxxxx#xxxxx")) {
		t.Errorf("decision log (%v) holds a URL secret or no masked URL:\n%s", err, b)
	}
}
