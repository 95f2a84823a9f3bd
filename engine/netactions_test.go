package engine_test

// These tests drive download_asset, open_in_browser and import_asset
// through the whole pipeline (engine.Start, Host.Handle) against real
// loopback HTTP servers and real folders.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/protocol"
)

const testOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

// pngBytes is a PNG signature and header: enough for content sniffing.
var pngBytes = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0}, 64)...)

// recorder is an Opener that records what it was asked to open.
type recorder struct {
	mu   sync.Mutex
	urls []string
}

func (r *recorder) OpenURL(_ context.Context, u string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.urls = append(r.urls, u)
	return nil
}

func (r *recorder) opened() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.urls...)
}

// netFixture is a host over one workspace and one import source.
type netFixture struct {
	host   *engine.Host
	ws     string // the workspace
	imp    string // the import source
	log    string // the decision log
	opener *recorder
	n      int
}

// network is the configuration's network member.
type network struct {
	AllowPrivate  []string `json:"allow_private,omitempty"`
	OpenLocalhost bool     `json:"open_localhost,omitempty"`
}

// newNetFixture starts a host; limits overrides the download_asset limits.
func newNetFixture(t testing.TB, nw network, limits map[string]int64) *netFixture {
	t.Helper()
	return newNetFixtureWith(t, nw, limits, nil)
}

// newNetFixtureWith is newNetFixture with extra configuration members.
func newNetFixtureWith(t testing.TB, nw network, limits map[string]int64, extra map[string]any) *netFixture {
	t.Helper()
	base := t.TempDir()
	f := &netFixture{ws: filepath.Join(base, "Demo"), imp: filepath.Join(base, "Downloads"), log: filepath.Join(base, "log", "decisions.jsonl"), opener: &recorder{}}
	for _, d := range []string{f.ws, f.imp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	doc := map[string]any{
		"workspaces":      []map[string]string{{"name": "Demo", "path": f.ws}},
		"allowed_origins": []string{testOrigin},
		"decision_log":    map[string]string{"path": f.log},
		"import_sources":  []string{f.imp},
		"network":         nw,
	}
	if limits != nil {
		doc["limits"] = map[string]any{"download_asset": limits}
	}
	for k, v := range extra {
		doc[k] = v
	}
	b, _ := json.Marshal(doc)
	// From a file, as a host reads it: the servers preview_web starts
	// load the same file.
	cfgPath := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfgPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	h, err := engine.Start(context.Background(), engine.Options{Config: cfg, Origin: testOrigin, Channel: engine.ChannelNative, HostLog: testLog(t), Opener: f.opener})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	f.ws, f.imp = cfg.Workspaces[0].Path, cfg.ImportSources[0]
	f.host = h
	return f
}

// netResult is a response decoded generically.
type netResult struct {
	id   string
	ok   bool
	code protocol.Code
	data map[string]any
	msg  string
}

func (f *netFixture) call(t testing.TB, action string, args any) netResult {
	t.Helper()
	f.n++
	id := fmt.Sprintf("r%d", f.n)
	a, _ := json.Marshal(args)
	req := fmt.Sprintf(`{"version":1,"id":%q,"action":%q,"arguments":%s}`, id, action, a)
	resp := f.host.Handle(context.Background(), []byte(req))
	b, err := engine.Encode(resp)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Success bool
		Data    map[string]any
		Error   *struct{ Code, Message string }
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	r := netResult{id: id, ok: out.Success, data: out.Data}
	if out.Error != nil {
		r.code, r.msg = protocol.Code(out.Error.Code), out.Error.Message
	}
	return r
}

// want fails unless r failed with code.
func (r netResult) want(t testing.TB, code protocol.Code) {
	t.Helper()
	if r.ok || r.code != code {
		t.Fatalf("got success=%v code=%s (%s), want %s", r.ok, r.code, r.msg, code)
	}
}

// wantOK fails unless r succeeded.
func (r netResult) wantOK(t testing.TB) {
	t.Helper()
	if !r.ok {
		t.Fatalf("failed with %s: %s", r.code, r.msg)
	}
}

// entries lists the names in dir.
func entries(t testing.TB, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names
}

// wantEmpty fails when dir holds anything: no final file, no temporary.
func wantEmpty(t testing.TB, dir string) {
	t.Helper()
	if names := entries(t, dir); len(names) != 0 {
		t.Fatalf("%s holds %v, want nothing left behind", dir, names)
	}
}

// counter is a loopback server that counts the requests it receives.
type counter struct {
	hits atomic.Int64
	port string
	v6   bool // a ::1 listener on the same port counts too
}

func newCounter(t *testing.T) *counter {
	t.Helper()
	c := &counter{}
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { c.hits.Add(1); w.Write(pngBytes) })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c.port = srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	if ln, err := net.Listen("tcp6", "[::1]:"+c.port); err == nil {
		s6 := &http.Server{Handler: h}
		go s6.Serve(ln)
		t.Cleanup(func() { s6.Close() })
		c.v6 = true
	}
	return c
}

// attacks are literal and encoded loopback, unspecified and metadata
// hosts; PORT is the counting server's port.
var attacks = []struct {
	url      string
	want     protocol.Code
	loopback bool // open_in_browser may open it with network.open_localhost
}{
	{"http://127.1:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://2130706433:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://0x7f000001:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://0177.0.0.1:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://[::1]:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://[::ffff:127.0.0.1]:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://[::127.0.0.1]:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://[64:ff9b::7f00:1]:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://0.0.0.0:PORT/a.png", protocol.PrivateNetworkBlocked, false},
	{"http://localhost.:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://LOCALHOST:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://127.0.0.1:PORT/a.png", protocol.PrivateNetworkBlocked, true},
	{"http://169.254.169.254/latest/meta-data/", protocol.PrivateNetworkBlocked, false},
	{"http://100.100.100.200/latest/meta-data/", protocol.PrivateNetworkBlocked, false},
	{"http://[fd00:ec2::254]/latest/meta-data/", protocol.PrivateNetworkBlocked, false},
	{"http://evil@127.0.0.1:PORT/a.png", protocol.InvalidURL, false},
	{"http://127.0.0.1:PORT@example.com/a.png", protocol.InvalidURL, false},
	{"file:///etc/passwd", protocol.UnsupportedProtocol, false},
	{"ftp://127.0.0.1:PORT/a.png", protocol.UnsupportedProtocol, false},
	{"//127.0.0.1:PORT/a.png", protocol.UnsupportedProtocol, false},
}

func TestDownloadAttacks(t *testing.T) {
	srv := newCounter(t)
	// open_localhost never opens loopback for downloads.
	for _, nw := range []network{{}, {OpenLocalhost: true}} {
		f := newNetFixture(t, nw, nil)
		for _, a := range attacks {
			u := strings.ReplaceAll(a.url, "PORT", srv.port)
			t.Run(fmt.Sprintf("open_localhost=%v/%s", nw.OpenLocalhost, u), func(t *testing.T) {
				f.call(t, "download_asset", map[string]any{"url": u, "destination": filepath.Join(f.ws, "a.png")}).want(t, a.want)
				if n := srv.hits.Load(); n != 0 {
					t.Fatalf("the loopback server received %d requests", n)
				}
				wantEmpty(t, f.ws)
			})
		}
	}
}

func TestOpenInBrowserAttacks(t *testing.T) {
	srv := newCounter(t)
	f := newNetFixture(t, network{}, nil)
	for _, a := range attacks {
		u := strings.ReplaceAll(a.url, "PORT", srv.port)
		t.Run(u, func(t *testing.T) {
			f.call(t, "open_in_browser", map[string]any{"url": u}).want(t, a.want)
			if got := f.opener.opened(); len(got) != 0 {
				t.Fatalf("the opener was handed %v", got)
			}
			if n := srv.hits.Load(); n != 0 {
				t.Fatalf("the loopback server received %d requests", n)
			}
		})
	}
}

// With network.open_localhost, loopback dev servers open (normalised), and
// nothing else that was blocked does.
func TestOpenInBrowserLocalhost(t *testing.T) {
	srv := newCounter(t)
	f := newNetFixture(t, network{OpenLocalhost: true}, nil)
	for _, a := range attacks {
		u := strings.ReplaceAll(a.url, "PORT", srv.port)
		t.Run(u, func(t *testing.T) {
			before := len(f.opener.opened())
			r := f.call(t, "open_in_browser", map[string]any{"url": u})
			got := f.opener.opened()[before:]
			if !a.loopback {
				r.want(t, a.want)
				if len(got) != 0 {
					t.Fatalf("the opener was handed %v", got)
				}
				return
			}
			r.wantOK(t)
			if len(got) != 1 || got[0] != r.data["url"] || strings.Contains(got[0], "0x") || strings.HasSuffix(strings.Split(got[0], "/")[2], ".") {
				t.Fatalf("opened %v, data %v: want the one normalised URL", got, r.data)
			}
		})
	}
	if n := srv.hits.Load(); n != 0 {
		t.Fatalf("the loopback server received %d requests", n)
	}
}

func TestOpenInBrowserNormalised(t *testing.T) {
	f := newNetFixture(t, network{OpenLocalhost: true}, nil)
	r := f.call(t, "open_in_browser", map[string]any{"url": "http://0x7f000001:3000/app#frag"})
	r.wantOK(t)
	if got := f.opener.opened(); len(got) != 1 || got[0] != "http://127.0.0.1:3000/app" {
		t.Fatalf("opened %v, want [http://127.0.0.1:3000/app]", got)
	}
}

// allowedServer is a loopback server on 127.0.0.1 that network.allow_private
// opens with its exact /32; other is a second loopback server that it does
// not open.
type servers struct {
	allowed *httptest.Server
	other   *counter
	otherAt string // host:port of the other server
}

func newServers(t *testing.T, h http.Handler) *servers {
	t.Helper()
	s := &servers{allowed: httptest.NewServer(h), other: &counter{}}
	t.Cleanup(s.allowed.Close)
	ln, err := net.Listen("tcp4", "127.0.0.2:0")
	if err != nil {
		ln, err = net.Listen("tcp6", "[::1]:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	other := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { s.other.hits.Add(1); w.Write(pngBytes) })}
	go other.Serve(ln)
	t.Cleanup(func() { other.Close() })
	s.otherAt = ln.Addr().String()
	return s
}

var allow127 = network{AllowPrivate: []string{"127.0.0.1/32"}}

func TestDownloadRedirects(t *testing.T) {
	var s *servers
	mux := http.NewServeMux()
	redirect := func(path string, to func() string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to(), http.StatusFound) })
	}
	redirect("/to-other", func() string { return "http://" + s.otherAt + "/a.png" })
	redirect("/to-other-decimal", func() string { return "http://2130706434:" + port(s.otherAt) + "/a.png" })
	redirect("/to-localhost", func() string { return "http://localhost:" + port(s.otherAt) + "/a.png" })
	redirect("/to-metadata", func() string { return "http://169.254.169.254/latest/meta-data/" })
	redirect("/to-file", func() string { return "file:///etc/passwd" })
	redirect("/to-userinfo", func() string { return "http://evil@" + s.otherAt + "/a.png" })
	redirect("/hop", func() string { return "/to-other" })
	redirect("/loop", func() string { return "/loop" })
	mux.HandleFunc("/ok.png", func(w http.ResponseWriter, _ *http.Request) { w.Write(pngBytes) })
	redirect("/to-ok", func() string { return "/ok.png" })
	s = newServers(t, mux)
	f := newNetFixture(t, allow127, nil)
	tests := []struct {
		path string
		want protocol.Code
	}{
		{"/to-other", protocol.PrivateNetworkBlocked},
		{"/to-other-decimal", protocol.PrivateNetworkBlocked},
		{"/to-localhost", protocol.PrivateNetworkBlocked},
		{"/to-metadata", protocol.PrivateNetworkBlocked},
		{"/to-file", protocol.UnsupportedProtocol},
		{"/to-userinfo", protocol.InvalidURL},
		{"/hop", protocol.PrivateNetworkBlocked},
		{"/loop", protocol.ExecutionFailed},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			f.call(t, "download_asset", map[string]any{"url": s.allowed.URL + tt.path, "destination": filepath.Join(f.ws, "a.png")}).want(t, tt.want)
			if n := s.other.hits.Load(); n != 0 {
				t.Fatalf("the second loopback server received %d requests", n)
			}
			wantEmpty(t, f.ws)
		})
	}
	t.Run("same server", func(t *testing.T) {
		f.call(t, "download_asset", map[string]any{"url": s.allowed.URL + "/to-ok", "destination": filepath.Join(f.ws, "a.png")}).wantOK(t)
	})
}

func port(hostport string) string {
	_, p, _ := net.SplitHostPort(hostport)
	return p
}

// assetServer serves the cases of the size, time and type tests.
func assetServer(t *testing.T) *httptest.Server {
	t.Helper()
	// stop ends the handlers that wait for the client to go away, before
	// the server closes: under Wine a client's close does not always reach
	// the server's pending read, and Close would wait for them forever.
	stop := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/logo.png", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="../../evil.sh"`)
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBytes)
	})
	mux.HandleFunc("/big.bin", func(w http.ResponseWriter, _ *http.Request) { // declared size
		w.Header().Set("Content-Length", fmt.Sprint(2<<20))
		w.Write(make([]byte, 2<<20))
	})
	mux.HandleFunc("/chunked.bin", func(w http.ResponseWriter, _ *http.Request) { // no declared size
		for range 64 {
			w.Write(make([]byte, 32<<10))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/drip.bin", func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	mux.HandleFunc("/stall.bin", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	})
	mux.HandleFunc("/short.bin", func(w http.ResponseWriter, _ *http.Request) { // Content-Length lies
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n")
		buf.Write(make([]byte, 1000))
		buf.Flush()
	})
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!doctype html><html><body>hi</body></html>"))
	})
	mux.HandleFunc("/lying.png", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("<!doctype html><html><script>alert(1)</script></html>"))
	})
	mux.HandleFunc("/script.png", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		w.Write(pngBytes)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	// Close waits for every handler; under Wine a handler whose client has
	// gone can stay blocked in Write (/big.bin after a refused declared
	// size) until its connection is closed here.
	t.Cleanup(srv.CloseClientConnections)
	t.Cleanup(func() { close(stop) }) // runs first
	return srv
}

func TestDownloadFailuresLeaveNothing(t *testing.T) {
	srv := assetServer(t)
	f := newNetFixture(t, allow127, nil)
	tests := []struct {
		name string
		path string
		dest string
		args map[string]any
		want protocol.Code
	}{
		{"declared too large", "/big.bin", "a.bin", map[string]any{"max_bytes": 1 << 20}, protocol.DownloadTooLarge},
		{"counted too large", "/chunked.bin", "a.bin", map[string]any{"max_bytes": 1 << 20}, protocol.DownloadTooLarge},
		{"drip past the timeout", "/drip.bin", "a.bin", map[string]any{"timeout_ms": 300}, protocol.DownloadTimeout},
		{"no answer before the timeout", "/stall.bin", "a.bin", map[string]any{"timeout_ms": 300}, protocol.DownloadTimeout},
		{"lying Content-Length", "/short.bin", "a.bin", nil, protocol.ExecutionFailed},
		{"html into png", "/page.html", "a.png", nil, protocol.InvalidContentType},
		{"declared png, sniffed html", "/lying.png", "a.png", nil, protocol.InvalidContentType},
		{"declared script, sniffed png", "/script.png", "a.png", nil, protocol.InvalidContentType},
		{"missing", "/nothing.png", "a.png", nil, protocol.ExecutionFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := map[string]any{"url": srv.URL + tt.path, "destination": filepath.Join(f.ws, tt.dest)}
			for k, v := range tt.args {
				args[k] = v
			}
			f.call(t, "download_asset", args).want(t, tt.want)
			wantEmpty(t, f.ws)
		})
	}
}

// The request's max_bytes and timeout_ms may only lower the decision's.
func TestDownloadLimitsOnlyLowered(t *testing.T) {
	srv := assetServer(t)
	f := newNetFixture(t, allow127, map[string]int64{"max_bytes": 1 << 20, "timeout_ms": 300})
	dest := filepath.Join(f.ws, "a.bin")
	f.call(t, "download_asset", map[string]any{"url": srv.URL + "/chunked.bin", "destination": dest, "max_bytes": 1 << 30}).want(t, protocol.DownloadTooLarge)
	f.call(t, "download_asset", map[string]any{"url": srv.URL + "/drip.bin", "destination": dest, "timeout_ms": 600_000}).want(t, protocol.DownloadTimeout)
	wantEmpty(t, f.ws)
}

func TestDownloadAllowed(t *testing.T) {
	srv := assetServer(t)
	f := newNetFixture(t, allow127, nil)
	// A folder destination takes the URL's name, never the server's.
	r := f.call(t, "download_asset", map[string]any{"url": srv.URL + "/logo.png", "destination": f.ws})
	r.wantOK(t)
	want := filepath.Join(f.ws, "logo.png")
	got, err := os.ReadFile(want)
	if err != nil || !bytes.Equal(got, pngBytes) {
		t.Fatalf("%s = %q, %v; want the served bytes", want, got, err)
	}
	if r.data["path"] != want || r.data["size"] != float64(len(pngBytes)) || r.data["content_type"] != "image/png" || r.data["sha256"] != sha(pngBytes) {
		t.Fatalf("data = %v", r.data)
	}
	if names := entries(t, f.ws); len(names) != 1 {
		t.Fatalf("workspace holds %v, want only logo.png", names)
	}
	// Never overwrites.
	f.call(t, "download_asset", map[string]any{"url": srv.URL + "/logo.png", "destination": want}).want(t, protocol.FileAlreadyExists)
}

func TestDownloadDestinationRules(t *testing.T) {
	srv := newCounter(t)
	f := newNetFixture(t, allow127, nil)
	os.MkdirAll(filepath.Join(f.ws, ".git", "hooks"), 0o755)
	outside := t.TempDir()
	tests := []struct {
		dest string
		want protocol.Code
	}{
		{filepath.Join(outside, "a.png"), protocol.WorkspaceViolation},
		{filepath.Join(f.ws, "..", "a.png"), protocol.WorkspaceViolation},
		{filepath.Join(f.ws, ".env"), protocol.PermissionDenied},
		{filepath.Join(f.ws, ".git", "hooks", "pre-commit"), protocol.PermissionDenied},
		{f.log, protocol.WorkspaceViolation},
		{"a.png", protocol.InvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.dest, func(t *testing.T) {
			f.call(t, "download_asset", map[string]any{"url": "http://127.0.0.1:" + srv.port + "/a.png", "destination": tt.dest}).want(t, tt.want)
			if n := srv.hits.Load(); n != 0 {
				t.Fatalf("the server received %d requests", n)
			}
		})
	}
	wantEmpty(t, outside)
}

// The decision log records the URL facts: the resolved addresses and
// their classes, for allowed and denied requests alike.
func TestDecisionLogRecordsURLFacts(t *testing.T) {
	f := newNetFixture(t, network{}, nil)
	r := f.call(t, "download_asset", map[string]any{"url": "http://0x7f000001:9/a.png", "destination": filepath.Join(f.ws, "a.png")})
	r.want(t, protocol.PrivateNetworkBlocked)
	f.host.Close()
	ev := logged(t, f.log, r.id)
	u, _ := ev["input"].(map[string]any)["url"].(map[string]any)
	ips, _ := u["ips"].([]any)
	if len(ips) != 1 || ips[0].(map[string]any)["ip"] != "127.0.0.1" || ips[0].(map[string]any)["class"] != "loopback" || u["raw"] != "http://0x7f000001:9/a.png" {
		t.Fatalf("logged url facts = %v", u)
	}
	if ev["outcome"] != string(protocol.PrivateNetworkBlocked) {
		t.Fatalf("logged outcome = %v", ev["outcome"])
	}
}

// logged returns the decision event of request id.
func logged(t *testing.T, path, id string) map[string]any {
	t.Helper()
	for _, ev := range logEventMaps(t, path) {
		if ev["request_id"] == id && ev["phase"] == "decision" {
			return ev
		}
	}
	t.Fatalf("no decision for %s in the log", id)
	return nil
}

// testLog sends the host's log lines to the test's output.
func testLog(t testing.TB) io.Writer { return t.Output() }

// download_asset replaces an existing file only with overwrite, and never
// keeps a body whose digest is not expected_sha256: the old file stays
// as it was and nothing else is left.
func TestDownloadOverwriteAndHash(t *testing.T) {
	srv := assetServer(t)
	f := newNetFixture(t, allow127, nil)
	dest := filepath.Join(f.ws, "logo.png")
	url := srv.URL + "/logo.png"
	if err := os.WriteFile(dest, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	wrong := strings.Repeat("0", 64)
	f.call(t, "download_asset", map[string]any{"url": url, "destination": dest, "overwrite": true, "expected_sha256": wrong}).want(t, protocol.ExecutionFailed)
	if got, _ := os.ReadFile(dest); string(got) != "old" || len(entries(t, f.ws)) != 1 {
		t.Fatalf("a refused download changed the workspace: %q, %v", got, entries(t, f.ws))
	}
	f.call(t, "download_asset", map[string]any{"url": url, "destination": dest, "expected_sha256": "xyz"}).want(t, protocol.InvalidRequest)

	r := f.call(t, "download_asset", map[string]any{"url": url, "destination": dest, "overwrite": true, "expected_sha256": strings.ToUpper(sha(pngBytes))})
	r.wantOK(t)
	if got, _ := os.ReadFile(dest); !bytes.Equal(got, pngBytes) || r.data["created"] != false {
		t.Fatalf("overwrite: file %q, data %v", got, r.data)
	}
	// Windows has no mode bits to keep: a file reads as 0666 there.
	if fi, _ := os.Stat(dest); (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644) || len(entries(t, f.ws)) != 1 {
		t.Fatalf("overwrite: mode %v, workspace %v", fi.Mode(), entries(t, f.ws))
	}

	fresh := filepath.Join(f.ws, "new.png")
	f.call(t, "download_asset", map[string]any{"url": url, "destination": fresh, "expected_sha256": wrong}).want(t, protocol.ExecutionFailed)
	if _, err := os.Lstat(fresh); err == nil {
		t.Fatal("a download with the wrong digest was saved")
	}
	r = f.call(t, "download_asset", map[string]any{"url": url, "destination": fresh, "expected_sha256": sha(pngBytes)})
	r.wantOK(t)
	if r.data["created"] != true {
		t.Fatalf("data %v", r.data)
	}
	os.Mkdir(filepath.Join(f.ws, "dir.png"), 0o755)
	f.call(t, "download_asset", map[string]any{"url": url, "destination": filepath.Join(f.ws, "dir.png", ""), "overwrite": true}).wantOK(t)
}
