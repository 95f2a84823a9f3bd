package localserve

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestMain makes this test binary a server when Start runs it with
// "serve STATEDIR KEY".
func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == "serve" {
		ln, in, err := Listen(os.Args[2], "test", os.Args[3], time.Minute)
		if err != nil {
			os.Exit(1)
		}
		Announce(os.Stdout, in)
		os.Stdout.Close()
		Serve(context.Background(), os.Args[2], ln, in, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("page " + r.URL.Path)) }), Options{})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestGuard: only the instance's Host, GET or HEAD, below the token reach
// the page, with the token stripped; every answer has the headers.
func TestGuard(t *testing.T) {
	in := Instance{Key: "k", Addr: "127.0.0.1:1234", Token: "0123456789abcdef0123456789abcdef"}
	h := Guard(in, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("page " + r.URL.Path)) }), "")
	for _, c := range []struct {
		method, host, path string
		code               int
		body               string
	}{
		{"GET", in.Addr, "/" + in.Token + "/a.html", 200, "page /a.html"},
		{"HEAD", in.Addr, "/" + in.Token + "/", 200, ""},
		{"GET", in.Addr, "/" + in.Token + "/" + aliveName, 200, "k"},
		{"GET", in.Addr, "/" + in.Token, 404, ""},
		{"GET", in.Addr, "/a.html", 404, ""},
		{"GET", in.Addr, "/", 200, bareAddress},
		{"GET", in.Addr, "/ffffffffffffffffffffffffffffffff/a.html", 404, ""},
		{"GET", in.Addr, "/x/../" + in.Token + "/a.html", 404, ""},
		{"POST", in.Addr, "/" + in.Token + "/a.html", 405, ""},
		{"OPTIONS", in.Addr, "/" + in.Token + "/a.html", 405, ""},
		{"PUT", in.Addr, "/" + in.Token + "/a.html", 405, ""},
		{"GET", "evil.example", "/" + in.Token + "/a.html", 421, ""},
		{"GET", "localhost:1234", "/" + in.Token + "/a.html", 421, ""},
	} {
		req := httptest.NewRequest(c.method, "http://"+c.host+c.path, nil)
		req.Host = c.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != c.code || (c.body != "" && w.Body.String() != c.body) {
			t.Errorf("%s %s %s: %d %q, want %d %q", c.method, c.host, c.path, w.Code, w.Body, c.code, c.body)
		}
		for _, hd := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Cache-Control"} {
			if w.Header().Get(hd) == "" {
				t.Errorf("%s %s: no %s", c.method, c.path, hd)
			}
		}
	}
}

// TestStartFind starts a detached server, finds it by its key (not by
// another key), and stops finding it once it is gone.
func TestStartFind(t *testing.T) {
	state := t.TempDir()
	exe, _ := os.Executable()
	in, err := Start(context.Background(), exe, []string{"serve", state, "key-1"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := os.FindProcess(in.PID)
	t.Cleanup(func() { p.Kill() })
	got, ok := Find(context.Background(), state, "test", "key-1")
	if !ok || got.URL() != in.URL() {
		t.Fatalf("Find: %v %+v, want %+v", ok, got, in)
	}
	if _, ok := Find(context.Background(), state, "test", "key-2"); ok {
		t.Error("found a server under another key")
	}
	resp, err := http.Get(in.URL() + "x")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET: %v", err)
	}
	resp.Body.Close()
	p.Kill()
	p.Wait()
	if _, ok := Find(context.Background(), state, "test", "key-1"); ok {
		t.Error("found a dead server")
	}
	// A state file naming another process's port with the wrong key is not
	// taken for the server.
	files, _ := filepath.Glob(filepath.Join(state, "servers", "*.json"))
	if len(files) != 1 {
		t.Fatalf("state files %v", files)
	}
}

// TestStartFails: a program that announces nothing is ErrStart.
func TestStartFails(t *testing.T) {
	exe, _ := os.Executable()
	if _, err := Start(context.Background(), exe, []string{"-test.run", "^$"}); err == nil {
		t.Fatal("started")
	}
}

// TestFindRefusesOtherAddresses: a state file changed to name another
// host, or a token that is not 32 hex digits, is not an instance.
func TestFindRefusesOtherAddresses(t *testing.T) {
	state := t.TempDir()
	exe, _ := os.Executable()
	in, err := Start(context.Background(), exe, []string{"serve", state, "key-1"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := os.FindProcess(in.PID)
	t.Cleanup(func() { p.Kill() })
	path := statePath(state, "test", "key-1")
	// A server that answers every liveness check with the key, as a
	// process that is not DeskBridge's could: on 127.0.0.2 and by name.
	fake := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("key-1")) })
	other, _ := net.Listen("tcp", "127.0.0.2:0")
	byName := httptest.NewServer(fake)
	t.Cleanup(byName.Close)
	var extra []Instance
	if other != nil {
		go http.Serve(other, fake)
		t.Cleanup(func() { other.Close() })
		extra = append(extra, Instance{Addr: other.Addr().String(), Token: in.Token})
	}
	extra = append(extra, Instance{Addr: "localhost:" + byName.URL[len("http://127.0.0.1:"):], Token: in.Token})
	for _, bad := range append(extra, []Instance{
		{Addr: "evil.example:80", Token: in.Token},
		{Addr: "10.0.0.1:" + in.Addr[len("127.0.0.1:"):], Token: in.Token},
		{Addr: "[::1]:" + in.Addr[len("127.0.0.1:"):], Token: in.Token},
		{Addr: in.Addr, Token: in.Token + "/../x"},
		{Addr: in.Addr, Token: "../" + in.Token[3:]},
	}...) {
		bad.Kind, bad.Key, bad.Expires = "test", "key-1", in.Expires
		if err := writeState(path, bad); err != nil {
			t.Fatal(err)
		}
		if _, ok := Find(context.Background(), state, "test", "key-1"); ok {
			t.Errorf("took %+v", bad)
		}
	}
	writeState(path, in)
	if _, ok := Find(context.Background(), state, "test", "key-1"); !ok {
		t.Error("the real instance is not found")
	}
}

// TestServeStopsWhenStale: once Options.Stale says true, the request (a
// page or the liveness check) is answered 404 with no body, the server
// stops, and its state file is gone, so Find no longer takes it.
func TestServeStopsWhenStale(t *testing.T) {
	state := t.TempDir()
	ln, in, err := Listen(state, "test", "key-1", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var stale atomic.Bool
	done := make(chan error, 1)
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("page")) })
	go func() { done <- Serve(context.Background(), state, ln, in, page, Options{Stale: stale.Load}) }()
	if _, ok := Find(context.Background(), state, "test", "key-1"); !ok {
		t.Fatal("the fresh server is not found")
	}
	stale.Store(true)
	resp, err := http.Get(in.URL() + "x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 || len(b) != 0 {
		t.Errorf("a stale server answered %d %q", resp.StatusCode, b)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := os.Stat(statePath(state, "test", "key-1")); !os.IsNotExist(err) {
		t.Errorf("the state file of the stopped server: %v", err)
	}
}
