// Package localserve runs DeskBridge's small local web servers (the
// preview_web file server and the open_deskbridge control panel) as
// detached deskbridge processes that outlive the one-shot host that
// started them, bounded by a time to live, one instance per key (a
// folder, the panel), found again by later hosts through a state file.
//
// Every server listens on 127.0.0.1 only, on a port the system picks, and
// answers only below an unguessable token (128 random bits) in the path:
// http://127.0.0.1:PORT/TOKEN/. Guard refuses everything else: another
// Host header (a DNS-rebinding page), a method other than GET and HEAD, a
// path without the token (404, so a port scan learns nothing), and sets
// the headers every answer carries (no-store, no-referrer, nosniff, a
// Content-Security-Policy that allows the page's own origin only).
package localserve

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/deskbridge/deskbridge/internal/atomicfile"
	"github.com/deskbridge/deskbridge/internal/procreg"
)

// Instance is one running server, as its state file records it.
type Instance struct {
	Kind  string `json:"kind"`
	Key   string `json:"key"`
	PID   int    `json:"pid"`
	Addr  string `json:"addr"`
	Token string `json:"token"`
	// Admin is a second secret (32 hex digits) that the URL never
	// carries: only who reads the state file (DeskBridge's own, in its
	// protected state folder) has it, for requests that only DeskBridge
	// may make, such as the control panel's tickets.
	Admin   string    `json:"admin,omitempty"`
	Expires time.Time `json:"expires"`
}

// URL is the instance's base URL, ending in "/".
func (in Instance) URL() string { return "http://" + in.Addr + "/" + in.Token + "/" }

// aliveName is the path below the token that answers a liveness check
// with the instance's key.
const aliveName = ".deskbridge-alive"

// ErrStart reports a server process that did not come up.
var ErrStart = errors.New("localserve: the server did not start")

// NewToken returns 128 random bits as 32 hex digits.
func NewToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// statePath is the state file of kind and key in stateDir.
func statePath(stateDir, kind, key string) string {
	h := sha256.Sum256([]byte(key))
	return filepath.Join(stateDir, "servers", kind+"-"+hex.EncodeToString(h[:8])+".json")
}

// Find returns the running instance of kind and key, if its state file
// names one that answers its liveness check with its key and has time
// left.
func Find(ctx context.Context, stateDir, kind, key string) (Instance, bool) {
	b, err := os.ReadFile(statePath(stateDir, kind, key))
	if err != nil {
		return Instance{}, false
	}
	var in Instance
	if json.Unmarshal(b, &in) != nil || in.Key != key || in.Kind != kind || time.Until(in.Expires) < 5*time.Second || !loopback(in) {
		return Instance{}, false
	}
	return in, alive(ctx, in)
}

// loopback reports whether the instance's address is 127.0.0.1 with a
// port and its token 32 hex digits: a state file changed to name another
// host, or a path, is not taken (the host would ask that address and open
// it in the browser).
func loopback(in Instance) bool {
	ap, err := netip.ParseAddrPort(in.Addr)
	if err != nil || ap.Addr() != netip.AddrFrom4([4]byte{127, 0, 0, 1}) || ap.Port() == 0 || len(in.Token) != 32 {
		return false
	}
	_, err = hex.DecodeString(in.Token)
	return err == nil
}

// alive asks the instance for its key.
func alive(ctx context.Context, in Instance) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, in.URL()+aliveName, nil)
	if err != nil {
		return false
	}
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: nil}}).Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode == http.StatusOK && string(b) == in.Key
}

// Start runs exe with args as a detached process (its own session or
// process group, no console, standard streams closed but for a pipe on
// which it reports its instance with Announce) and returns the instance
// it reported. The process is released: it outlives this one.
func Start(ctx context.Context, exe string, args []string) (Instance, error) {
	cmd := exec.Command(exe, args...)
	cmd.SysProcAttr = detached()
	cmd.Env = os.Environ()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return Instance{}, err
	}
	if err := cmd.Start(); err != nil {
		return Instance{}, fmt.Errorf("%w: %v", ErrStart, err)
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(io.LimitReader(out, 4096)).ReadString('\n')
		line <- s
	}()
	var s string
	select {
	case s = <-line:
	case <-time.After(10 * time.Second):
	case <-ctx.Done():
	}
	var in Instance
	if err := json.Unmarshal([]byte(s), &in); err != nil || in.Addr == "" {
		cmd.Process.Kill()
		cmd.Wait()
		return Instance{}, fmt.Errorf("%w: %q", ErrStart, s)
	}
	cmd.Process.Release()
	return in, nil
}

// Listen is the server side of Start: it listens on 127.0.0.1 and
// returns the listener with its instance (a new token, expiry after ttl),
// whose state file it has written, and registers the process in the
// state folder's register of detached processes (package procreg).
func Listen(stateDir, kind, key string, ttl time.Duration) (net.Listener, Instance, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, Instance{}, err
	}
	in := Instance{Kind: kind, Key: key, PID: os.Getpid(), Addr: ln.Addr().String(), Token: NewToken(), Admin: NewToken(), Expires: time.Now().Add(ttl).UTC()}
	err = procreg.Register(procreg.Dir(stateDir), kind, ln.Addr().(*net.TCPAddr).Port, in.Expires)
	if err == nil {
		err = writeState(statePath(stateDir, kind, key), in)
	}
	if err != nil {
		procreg.Unregister(procreg.Dir(stateDir), kind)
		ln.Close()
		return nil, Instance{}, err
	}
	return ln, in, nil
}

// Announce writes the instance as one JSON line to w (the pipe Start
// reads), then the caller closes w.
func Announce(w io.Writer, in Instance) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeState writes the state file whole (a temporary file renamed).
func writeState(p string, in Instance) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	b, _ := json.Marshal(in)
	return atomicfile.Write(p, b)
}

// Options tune Serve.
type Options struct {
	// CSP is the Content-Security-Policy of every answer; "" means
	// DefaultCSP.
	CSP string
	// Stale, when set, is asked before every request, the liveness check
	// among them: true means what the server was started from (the
	// configuration, the policy) has changed, and the server stops: the
	// request is answered 404 with no body, and so is every request after
	// it, while the server shuts down.
	Stale func() bool
}

// Serve serves h, wrapped in Guard, on ln until the instance expires, ctx
// ends or o.Stale says the server is stale; then it removes its state
// file (when it is still its own) and its record in the register.
func Serve(ctx context.Context, stateDir string, ln net.Listener, in Instance, h http.Handler, o Options) error {
	ctx, cancel := context.WithDeadline(ctx, in.Expires)
	defer cancel()
	srv := &http.Server{Handler: guard(in, h, o.CSP, stopWhenStale(o.Stale, cancel)), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10}
	go func() {
		<-ctx.Done()
		sctx, c := context.WithTimeout(context.Background(), 2*time.Second)
		defer c()
		srv.Shutdown(sctx)
	}()
	err := srv.Serve(ln)
	removeState(stateDir, in)
	procreg.Unregister(procreg.Dir(stateDir), in.Kind)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// stopWhenStale is the check guard runs on every request that passed
// its host, method and token checks: once stale says true it calls stop
// and keeps saying true. A nil stale is never stale.
func stopWhenStale(stale func() bool, stop func()) func() bool {
	if stale == nil {
		return nil
	}
	var stopped atomic.Bool
	return func() bool {
		if stopped.Load() || stale() {
			stopped.Store(true)
			stop()
			return true
		}
		return false
	}
}

// removeState removes the state file of in when it still names in.
func removeState(stateDir string, in Instance) {
	p := statePath(stateDir, in.Kind, in.Key)
	if b, rerr := os.ReadFile(p); rerr == nil {
		var cur Instance
		if json.Unmarshal(b, &cur) == nil && cur.Token == in.Token {
			os.Remove(p)
		}
	}
}

// List returns the instances of kind recorded in stateDir, whatever their
// key, that pass the same checks as Find's but the liveness check (a
// loopback address and a well-formed token).
func List(stateDir, kind string) []Instance {
	entries, _ := os.ReadDir(filepath.Join(stateDir, "servers"))
	var out []Instance
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), kind+"-") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(stateDir, "servers", e.Name()))
		var in Instance
		if err == nil && json.Unmarshal(b, &in) == nil && in.Kind == kind && loopback(in) {
			out = append(out, in)
		}
	}
	return out
}

// Ping asks in's liveness check, so that a server that has gone stale
// (Options.Stale) notices and stops; it reports whether in answered as
// alive.
func Ping(ctx context.Context, in Instance) bool { return alive(ctx, in) }
