//go:build !windows

package main

import (
	"compress/gzip"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// TestFleetEndToEnd runs fleet mode against real servers on loopback: a
// bundle built and signed by the opa command line, served by nginx, and a
// collector that stores every decision-log upload. The fleet command
// installs the bundle, a host started afterwards decides with it, the
// collector gets every decision once, a new revision is picked up, and
// an older one served again is refused.
func TestFleetEndToEnd(t *testing.T) {
	opa, nginx := opaBinary(t), nginxBinary(t)
	dir := t.TempDir()
	www := mkdir(t, dir, "www")
	priv, pub := rsaKeyFiles(t, dir)
	publish := func(rev string, mtime time.Time) {
		t.Helper()
		out := filepath.Join(dir, rev+".tar.gz")
		buildBundle(t, opa, priv, rev, out)
		dst := filepath.Join(www, "desk.tar.gz")
		if err := os.Rename(out, dst); err != nil {
			t.Fatal(err)
		}
		// nginx's ETag is mtime-size: two revisions of the same size
		// published in one second must still differ.
		if err := os.Chtimes(dst, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	epoch := time.Now().Add(-time.Hour)
	publish("rev-1", epoch)
	bundleURL := startNginx(t, nginx, dir, www)
	recv := &receiver{}
	collector := httptest.NewServer(recv)
	defer collector.Close()

	cfg, logPath, installed := fleetConfig(t, dir, pub, bundleURL, collector.URL)
	fleet := startFleet(t, cfg)

	waitFor(t, "the first bundle to be installed", fleet.stderr, func() bool { return fileExists(installed) })
	decideWithHost(t, cfg, "rev-1")
	waitFor(t, "the collector to hold every decision", fleet.stderr, func() bool { return recv.holdsAll(t, logPath) })

	publish("rev-2", epoch.Add(time.Minute))
	waitFor(t, "revision rev-2 to be installed", fleet.stderr, func() bool { return hostRevision(t, cfg) == "rev-2" })
	decideWithHost(t, cfg, "rev-2")
	waitFor(t, "the collector to hold the new decisions", fleet.stderr, func() bool { return recv.holdsAll(t, logPath) })
	// The bundle now stays as it is: the next poll (one a second) must
	// ask with If-None-Match and get 304. Waiting for it, rather than
	// looking once, keeps a fast run from ending before any such poll.
	accessLog := filepath.Join(dir, "nginx", "access.log")
	waitFor(t, "nginx to answer a poll with 304 (the fleet command sends If-None-Match)", fleet.stderr, func() bool {
		access, _ := os.ReadFile(accessLog)
		return strings.Contains(string(access), `" 304 `)
	})
	// An older bundle, validly signed, does not take back rev-2's place.
	publish("rev-1", epoch.Add(2*time.Minute))
	waitFor(t, "the fleet to refuse rolling back to rev-1", fleet.stderr, func() bool {
		return strings.Contains(fleet.stderr.String(), `revision "rev-1" is older than the installed "rev-2"`)
	})
	if got := hostRevision(t, cfg); got != "rev-2" {
		t.Fatalf("after serving rev-1 again, the host decides with %q", got)
	}
	waitFor(t, "the collector to hold the last decisions", fleet.stderr, func() bool { return recv.holdsAll(t, logPath) })
	fleet.stop(t)
	recv.exactlyOnce(t, logPath)
}

// opaBinary finds the opa command line (PATH, then GOPATH/bin), or
// installs it into a temporary folder through the Go module proxy.
func opaBinary(t *testing.T) string {
	if p, err := exec.LookPath("opa"); err == nil {
		return p
	}
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	if err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "opa")
		if fileExists(p) {
			return p
		}
	}
	bin := t.TempDir()
	cmd := exec.Command("go", "install", "github.com/open-policy-agent/opa@v1.22.4")
	cmd.Dir, cmd.Env = bin, append(os.Environ(), "GOBIN="+bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("opa is not installed (.ci/run installs it) and go install failed: %v\n%s", err, out)
	}
	return filepath.Join(bin, "opa")
}

// nginxBinary finds nginx (Debian package nginx; .ci/run installs it).
func nginxBinary(t *testing.T) string {
	for _, p := range []string{"nginx", "/usr/sbin/nginx"} {
		if found, err := exec.LookPath(p); err == nil {
			return found
		}
	}
	t.Fatal("nginx is not installed: apt-get install nginx (.ci/run does)")
	return ""
}

func mkdir(t *testing.T, parts ...string) string {
	t.Helper()
	p := filepath.Join(parts...)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// rsaKeyFiles writes a fresh RSA key pair and returns the paths of its
// private (PKCS#1) and public (PKIX) halves.
func rsaKeyFiles(t *testing.T, dir string) (priv, pub string) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	priv, pub = filepath.Join(dir, "signing.pem"), filepath.Join(dir, "verify.pem")
	write(t, priv, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}))
	write(t, pub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	return priv, pub
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// buildBundle builds the repository's policies into a bundle signed with
// the opa command line, as a policy team would publish it.
func buildBundle(t *testing.T, opa, key, rev, out string) {
	t.Helper()
	src := mkdir(t, filepath.Dir(out), "src-"+rev)
	regos, err := filepath.Glob(filepath.Join("..", "..", "rego", "*.rego"))
	if err != nil || len(regos) == 0 {
		t.Fatalf("no policies under rego/: %v", err)
	}
	for _, r := range regos {
		b, err := os.ReadFile(r)
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(src, filepath.Base(r)), b)
	}
	cmd := exec.Command(opa, "build", "-b", ".", "--revision", rev, "--signing-key", key, "--signing-alg", "RS256",
		"--verification-key-id", "fleet-key", "-o", out)
	cmd.Dir = src
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("opa build: %v\n%s", err, b)
	}
}

// startNginx serves www on a free loopback port with a private
// configuration, prefix and pid file, in the foreground; it returns the
// service URL.
func startNginx(t *testing.T, nginx, dir, www string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	prefix := mkdir(t, dir, "nginx")
	conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events { worker_connections 64; }
http {
  access_log %[1]s/access.log;
  client_body_temp_path %[1]s/body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
  server {
    listen %[2]s;
    root %[3]s;
    etag on;
  }
}
`, prefix, addr, www)
	confPath := filepath.Join(prefix, "nginx.conf")
	write(t, confPath, []byte(conf))
	cmd := exec.Command(nginx, "-p", prefix, "-e", filepath.Join(prefix, "error.log"), "-c", confPath)
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGQUIT)
		cmd.Wait()
	})
	url := "http://" + addr
	waitFor(t, "nginx to serve", out, func() bool {
		resp, err := http.Get(url + "/desk.tar.gz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return url
}

// fleetConfig writes a configuration for fleet mode and returns its path,
// the decision log's path and where the bundle is installed.
func fleetConfig(t *testing.T, dir, pub, bundleURL, collectorURL string) (cfg, logPath, installed string) {
	t.Helper()
	ws := mkdir(t, dir, "ws")
	write(t, filepath.Join(ws, "a.txt"), []byte("hello\n"))
	logPath = filepath.Join(dir, "state", "decisions.jsonl")
	installed = filepath.Join(dir, "policy", "desk.tar.gz")
	doc := fmt.Sprintf(`{"workspaces":[{"name":"Demo","path":%q}],"allowed_origins":[%q],
		"state_dir":%q,"decision_log":{"path":%q},
		"policy":{"bundle":%q,"bundle_key_id":"fleet-key","bundle_public_key":%q},
		"fleet":{
		  "services":[{"name":"bundles","url":%q},{"name":"collector","url":%q}],
		  "bundle":{"service":"bundles","resource":"desk.tar.gz","polling":{"min_delay_seconds":1,"max_delay_seconds":1}},
		  "decision_logs":{"service":"collector","reporting":{"min_delay_seconds":1,"max_delay_seconds":1}}}}`,
		ws, origin, filepath.Join(dir, "state"), logPath, installed, pub, bundleURL, collectorURL)
	cfg = filepath.Join(dir, "config.json")
	write(t, cfg, []byte(doc))
	return cfg, logPath, installed
}

// fleetProc is a running `deskbridge fleet`.
type fleetProc struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer
}

func startFleet(t *testing.T, cfg string) *fleetProc {
	t.Helper()
	p := &fleetProc{cmd: exec.Command(binaryPath, "--config", cfg, "fleet"), stderr: &lockedBuffer{}}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	return p
}

// stop ends the fleet command as a service manager would, and checks
// that it exits cleanly.
func (p *fleetProc) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("fleet exited with %v\n%s", err, p.stderr)
	}
}

// decideWithHost starts a host, checks that it decides with revision rev,
// and has it make a few decisions.
func decideWithHost(t *testing.T, cfg, rev string) {
	t.Helper()
	p := start(t, []string{"--config", cfg, origin})
	if got := statusRevision(t, p.request("s", "get_status", "{}")); got != rev {
		t.Fatalf("get_status reports revision %q, want %q\nstderr: %s", got, rev, p.stderr)
	}
	dir := filepath.Dir(cfg)
	mustCode(t, p.request("r", "read_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(dir, "ws", "a.txt"))), "r", "ok")
	mustCode(t, p.request("d", "read_file", fmt.Sprintf(`{"path":%q}`, cfg)), "d", "WORKSPACE_VIOLATION")
	if code := p.closeAndWait(); code != 0 {
		t.Fatalf("host exit code %d\nstderr: %s", code, p.stderr)
	}
}

// hostRevision is the policy revision a freshly started host reports.
func hostRevision(t *testing.T, cfg string) string {
	t.Helper()
	p := start(t, []string{"--config", cfg, origin})
	rev := statusRevision(t, p.request("s", "get_status", "{}"))
	p.closeAndWait()
	return rev
}

func statusRevision(t *testing.T, r response) string {
	t.Helper()
	var s struct {
		Policy struct {
			Revision string `json:"revision"`
		} `json:"policy"`
	}
	if !r.Success || json.Unmarshal(r.Data, &s) != nil {
		t.Fatalf("get_status failed: %+v %+v", r, r.Error)
	}
	return s.Policy.Revision
}

// waitFor polls cond until it holds, failing after a minute with the
// output of the process being waited on.
func waitFor(t *testing.T, what string, out fmt.Stringer, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s\n%s", what, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// receiver is a decision-log collector that stores every upload.
type receiver struct {
	mu     sync.Mutex
	events []decisionlog.Event
	bad    []string
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.Method == http.MethodPost && req.URL.Path == "/logs/heads" {
		// A plain OPA decision-log collector has no heads resource: it is
		// no witness, and the fleet command ships the events all the same
		// (fleet's own tests cover a witnessing collector).
		http.NotFound(w, req)
		return
	}
	if req.Method != http.MethodPost || req.URL.Path != "/logs" || req.Header.Get("Content-Encoding") != "gzip" {
		r.bad = append(r.bad, req.Method+" "+req.URL.Path)
		http.Error(w, "not an OPA decision-log upload", http.StatusBadRequest)
		return
	}
	zr, err := gzip.NewReader(req.Body)
	var batch []decisionlog.Event
	if err == nil {
		err = json.NewDecoder(zr).Decode(&batch)
	}
	if err != nil {
		r.bad = append(r.bad, err.Error())
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.events = append(r.events, batch...)
}

// counts is how many times the receiver got each event, by hash.
func (r *receiver) counts() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := map[string]int{}
	for _, e := range r.events {
		m[e.Hash]++
	}
	return m
}

func logHashes(t *testing.T, logPath string) []string {
	t.Helper()
	var out []string
	for ev, err := range decisionlog.Read(logPath) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase != decisionlog.PhaseContext { // not shipped: Read puts it into the events
			out = append(out, ev.Hash)
		}
	}
	return out
}

// holdsAll reports whether the receiver has every event of the log.
func (r *receiver) holdsAll(t *testing.T, logPath string) bool {
	got := r.counts()
	for _, h := range logHashes(t, logPath) {
		if got[h] == 0 {
			return false
		}
	}
	return true
}

// exactlyOnce fails unless the receiver got every event of the log once
// and nothing else.
func (r *receiver) exactlyOnce(t *testing.T, logPath string) {
	t.Helper()
	want := logHashes(t, logPath)
	got := r.counts()
	for _, h := range want {
		if got[h] != 1 {
			t.Errorf("event %s received %d times", h, got[h])
		}
	}
	if len(got) != len(want) || len(r.bad) > 0 {
		t.Errorf("receiver holds %d events, the log %d; bad uploads %v", len(got), len(want), r.bad)
	}
	if len(want) < 8 {
		t.Errorf("the log holds only %d events; the hosts should have decided more", len(want))
	}
}

// lockedBuffer collects a process's output for failure messages.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
