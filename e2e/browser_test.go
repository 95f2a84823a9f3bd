//go:build e2e && linux

package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/install"
)

const (
	origin      = "chrome-extension://" + extensionID + "/"
	callTimeout = 30 * time.Second
)

// chromiumPath finds the browser: $DESKBRIDGE_CHROMIUM, else chromium on
// PATH. A missing browser fails the test: apt-get install chromium.
func chromiumPath(t testing.TB) string {
	if p := os.Getenv("DESKBRIDGE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium not found: apt-get install -y chromium (or set DESKBRIDGE_CHROMIUM)")
	return ""
}

// browser is a headless chromium with the reference extension loaded and a
// DevTools session attached to the extension's service worker.
type browser struct {
	t       testing.TB
	cmd     *exec.Cmd
	cdp     *cdp
	session string
	// evalTimeout bounds one eval; benchmarks raise it.
	evalTimeout time.Duration
}

// startBrowser starts chromium with h registered as com.deskbridge.host for
// the extension ids in allowed (the reference extension's when nil).
func startBrowser(t testing.TB, h host, allowed []string) *browser {
	t.Helper()
	if allowed == nil {
		allowed = []string{extensionID}
	}
	dataDir, home := t.TempDir(), t.TempDir()
	writeHostManifest(t, dataDir, h.path, allowed)
	b := &browser{t: t, evalTimeout: 2 * callTimeout}
	b.start(chromiumPath(t), dataDir, home, h.env)
	t.Cleanup(b.stop)
	b.attachServiceWorker()
	return b
}

// writeHostManifest places the manifest in <user-data-dir>/NativeMessagingHosts,
// where Chromium on Linux reads per-profile hosts.
func writeHostManifest(t testing.TB, dataDir, hostPath string, ids []string) {
	t.Helper()
	data, err := install.Manifest(install.Chromium, hostPath, ids)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(dataDir, "NativeMessagingHosts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, install.HostName+".json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func extensionDir(t testing.TB) string {
	dir, err := filepath.Abs("../extension")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func (b *browser) start(chromium, dataDir, home string, env []string) {
	ext := extensionDir(b.t)
	b.cmd = exec.Command(chromium,
		"--headless=new", "--no-sandbox", "--user-data-dir="+dataDir,
		"--load-extension="+ext, "--disable-extensions-except="+ext,
		"--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--remote-debugging-pipe", "about:blank")
	b.cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	b.cmd.Env = append(b.cmd.Env, env...)
	b.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	b.cmd.Stderr = &tailWriter{max: 8 << 10}
	toBrowser, cmdIn := pipe(b.t)
	cmdOut, fromBrowser := pipe(b.t)
	b.cmd.ExtraFiles = []*os.File{toBrowser, fromBrowser} // fd 3, fd 4
	if err := b.cmd.Start(); err != nil {
		b.t.Fatal(err)
	}
	toBrowser.Close()
	fromBrowser.Close()
	b.cdp = newCDP(cmdOut, cmdIn)
}

func pipe(t testing.TB) (*os.File, *os.File) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}

// stop closes the browser and kills whatever is left of its process group.
func (b *browser) stop() {
	_ = b.cdp.call("", "Browser.close", struct{}{}, nil, 5*time.Second)
	done := make(chan error, 1)
	go func() { done <- b.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	}
	_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
	if b.t.Failed() {
		b.t.Logf("chromium stderr (tail):\n%s", b.cmd.Stderr)
	}
}

type targetInfo struct {
	TargetID string `json:"targetId"`
	Type     string `json:"type"`
	URL      string `json:"url"`
}

// attachServiceWorker waits for the extension's service worker and opens a
// flat DevTools session on it.
func (b *browser) attachServiceWorker() {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if id := b.findServiceWorker(); id != "" {
			var res struct {
				SessionID string `json:"sessionId"`
			}
			if err := b.cdp.call("", "Target.attachToTarget", map[string]any{"targetId": id, "flatten": true}, &res, callTimeout); err != nil {
				b.t.Fatal(err)
			}
			b.session = res.SessionID
			b.waitForClient()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("the extension's service worker did not start; chromium stderr:\n%s", b.cmd.Stderr)
}

// waitForClient lets the worker run if it waits for a debugger and waits
// until its script has set globalThis.deskbridge.
func (b *browser) waitForClient() {
	_ = b.cdp.call(b.session, "Runtime.runIfWaitingForDebugger", struct{}{}, nil, callTimeout)
	var ready bool
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if b.eval(`return typeof chrome === "object" && typeof globalThis.deskbridge === "object";`, &ready) == nil && ready {
			return
		}
	}
	b.t.Fatalf("globalThis.deskbridge never appeared in the service worker; chromium stderr:\n%s", b.cmd.Stderr)
}

func (b *browser) findServiceWorker() string {
	var res struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}
	if err := b.cdp.call("", "Target.getTargets", struct{}{}, &res, callTimeout); err != nil {
		b.t.Fatal(err)
	}
	for _, ti := range res.TargetInfos {
		if ti.Type == "service_worker" && strings.HasPrefix(ti.URL, origin) {
			return ti.TargetID
		}
	}
	return ""
}

// eval runs the body of an async JS function in the service worker (where
// globalThis.deskbridge is the client) and decodes its return value into out.
// A thrown error is returned as an error carrying its message.
func (b *browser) eval(body string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	params := map[string]any{
		"expression":    "(async () => {" + body + "})()",
		"awaitPromise":  true,
		"returnByValue": true,
	}
	if err := b.cdp.call(b.session, "Runtime.evaluate", params, &res, b.evalTimeout); err != nil {
		return err
	}
	if e := res.ExceptionDetails; e != nil {
		return errors.New(e.Text + " " + e.Exception.Description)
	}
	if out == nil || len(res.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(res.Result.Value, out)
}

// mustEval is eval that fails the test on error.
func (b *browser) mustEval(body string, out any) {
	b.t.Helper()
	if err := b.eval(body, out); err != nil {
		b.t.Fatal(err)
	}
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = w.buf[len(w.buf)-w.max:]
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}

// hostProcesses lists the live (not zombie) processes running the binary at path.
func hostProcesses(path string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && exe == path && !zombie(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z'
}
