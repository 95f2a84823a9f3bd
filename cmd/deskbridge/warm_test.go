//go:build linux || darwin

package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/internal/testkit/gobuild"
	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
	"github.com/deskbridge/deskbridge/internal/warm"
)

// warmHostPath is deskbridge-host, built beside binaryPath on first use:
// it runs the deskbridge beside it.
var warmHostPath = sync.OnceValues(func() (string, error) {
	p := filepath.Join(filepath.Dir(binaryPath), "deskbridge-host")
	return p, gobuild.Program("../deskbridge-host", "", p, "")
})

// warmEnv is an environment of the test's own for deskbridge-host: its
// socket folder in a temporary folder, and an idle time.
type warmEnv struct {
	runtime string // XDG_RUNTIME_DIR
	idle    string
}

func newWarmEnv(t *testing.T, idle string) warmEnv {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "dbw-") // short: a socket path has at most 104 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopWarm(dir)
		os.RemoveAll(dir)
	})
	return warmEnv{runtime: dir, idle: idle}
}

func (w warmEnv) env() []string {
	return []string{"XDG_RUNTIME_DIR=" + w.runtime, "DESKBRIDGE_WARM_IDLE=" + w.idle}
}

// sockets are the warm sockets in w's folder.
func (w warmEnv) sockets() []string {
	m, _ := filepath.Glob(filepath.Join(w.runtime, "deskbridge", "*.sock"))
	return m
}

// stopWarm ends the warm processes whose sockets are in dir, and waits
// for them: they write in the test's configuration folder until they end.
func stopWarm(dir string) {
	pattern := "warm-serve --socket " + dir
	exec.Command("pkill", "-f", pattern).Run()
	proctest.WaitFor(func() bool { return exec.Command("pgrep", "-f", pattern).Run() != nil })
}

// status is get_status's data, as far as these tests read it.
type status struct {
	Warm       bool `json:"warm"`
	Workspaces []struct {
		Name string `json:"name"`
	} `json:"workspaces"`
}

// callWarm sends one request through deskbridge-host, as a one-shot
// message, and returns the answer once the program has ended.
func callWarm(t *testing.T, w warmEnv, config, action string, args map[string]any) response {
	t.Helper()
	bin, err := warmHostPath()
	if err != nil {
		t.Fatal(err)
	}
	p := startProgram(t, bin, []string{"--config", config, origin}, w.env()...)
	if args == nil {
		args = map[string]any{}
	}
	a, _ := json.Marshal(args)
	req, _ := json.Marshal(map[string]any{"version": 1, "id": "1", "action": action, "arguments": json.RawMessage(a)})
	p.send(frame(req))
	r := p.recv()
	p.in.Close()
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("deskbridge-host: %v\nstderr: %s", err, p.stderr)
	}
	return r
}

func statusOf(t *testing.T, r response) status {
	t.Helper()
	var s status
	if !r.Success {
		t.Fatalf("get_status: %s", r.code())
	}
	if err := json.Unmarshal(r.Data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitWarmStatus calls get_status until a warm process answers.
func waitWarmStatus(t *testing.T, w warmEnv, config string) status {
	t.Helper()
	var s status
	if !proctest.WaitFor(func() bool { s = statusOf(t, callWarm(t, w, config, "get_status", nil)); return s.Warm }) {
		t.Fatal("no warm process answered")
	}
	return s
}

// The first message through deskbridge-host starts a warm process and is
// handed to it once it is ready; the warm process serves the next ones as
// a host would, with their decisions in the same decision log, and ends
// when it has been idle.
func TestWarmProcessServesTheMessages(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	// after the configuration: its cleanup, which waits for the warm process, runs first
	w := newWarmEnv(t, "3s")
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("warm hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s := statusOf(t, callWarm(t, w, cfg, "get_status", nil)); !s.Warm {
		t.Fatal("the first message was not handed to the warm process it started")
	}
	if got := w.sockets(); len(got) != 1 {
		t.Fatalf("warm sockets after the first message: %v; want one", got)
	}
	r := callWarm(t, w, cfg, "read_file", map[string]any{"path": filepath.Join(ws, "a.txt")})
	if !r.Success || !strings.Contains(string(r.Data), "warm hello") {
		t.Fatalf("read_file through the warm process = %s %s", r.code(), r.Data)
	}
	log, err := os.ReadFile(filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl"))
	if err != nil || !strings.Contains(string(log), `"read_file"`) {
		t.Fatalf("the warm process's read_file is not in the decision log: %v", err)
	}
	if !proctest.WaitFor(func() bool { return len(w.sockets()) == 0 }) { // idle 3 s
		t.Fatal("the warm process did not end after being idle")
	}
}

// Eight ports opened at once with no warm process: each deskbridge-host
// starts a warm process, one of them takes the socket's lock, the others
// say so and their deskbridge-hosts wait for that one to serve: every
// message is served warm, and one warm process compiled the policy.
func TestWarmBurstIsServedWarm(t *testing.T) {
	cfg, _ := writeConfig(t, "")
	// after the configuration: its cleanup, which waits for the warm process, runs first
	w := newWarmEnv(t, "30s")
	answers := make([]response, 8)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = callWarm(t, w, cfg, "get_status", nil) })
	}
	wg.Wait()
	for i, r := range answers {
		var s status
		if !r.Success || json.Unmarshal(r.Data, &s) != nil || !s.Warm {
			t.Errorf("port %d of 8 was not served warm: %s, warm %v", i, r.code(), s.Warm)
		}
	}
	if got := w.sockets(); len(got) != 1 {
		t.Errorf("warm sockets after the burst: %v; want one", got)
	}
}

// A warm process that cannot start (here: a configuration that does not
// load) leaves the message to deskbridge itself, which answers as a host
// that cannot start does, and leaves no socket behind.
func TestWarmFallsBackToTheHost(t *testing.T) {
	cfg, _ := writeConfig(t, "")
	// after the configuration: its cleanup, which waits for the warm process, runs first
	w := newWarmEnv(t, "30s")
	if err := os.WriteFile(cfg, []byte(`{"workspaces": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := callWarm(t, w, cfg, "get_status", nil)
	if r.Success || r.Error == nil || !strings.Contains(r.Error.Message, "doctor") {
		t.Fatalf("get_status with a broken configuration = %s %+v; want the host's refusal naming doctor", r.code(), r.Error)
	}
	// The failed warm process removes its socket as it ends: waited for,
	// with proctest's bound, not a fixed 200 ms a loaded machine can miss.
	if !proctest.WaitFor(func() bool { return len(w.sockets()) == 0 }) {
		t.Fatalf("a warm process that could not start left %v", w.sockets())
	}
}

// A changed configuration takes effect on the next message: the warm
// process started from the old one refuses the hello and ends, the
// message is served by a host started from the new one, and so are those
// after it.
func TestWarmProcessSeesAChangedConfiguration(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	// after the configuration: its cleanup, which waits for the warm process, runs first
	w := newWarmEnv(t, "30s")
	if s := waitWarmStatus(t, w, cfg); len(s.Workspaces) != 1 {
		t.Fatalf("workspaces = %+v", s.Workspaces)
	}
	second := filepath.Join(filepath.Dir(ws), "second")
	if err := os.Mkdir(second, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(cfg)
	changed := strings.Replace(string(b), `"workspaces":[`, fmt.Sprintf(`"workspaces":[{"name":"Second","path":%q},`, second), 1)
	if err := os.WriteFile(cfg, []byte(changed), 0o600); err != nil {
		t.Fatal(err)
	}
	if s := statusOf(t, callWarm(t, w, cfg, "get_status", nil)); len(s.Workspaces) != 2 {
		t.Fatalf("the message after the change saw %d workspaces; want 2", len(s.Workspaces))
	}
	if s := waitWarmStatus(t, w, cfg); len(s.Workspaces) != 2 {
		t.Fatalf("the new warm process sees %d workspaces; want 2", len(s.Workspaces))
	}
}

// A socket folder another user could have made or can enter (in a shared
// /tmp) is never used: every message is served by deskbridge itself.
func TestWarmFolderMustBePrivate(t *testing.T) {
	for name, plant := range map[string]func(t *testing.T, folder string){
		"open to others": func(t *testing.T, folder string) {
			if err := os.Mkdir(folder, 0o777); err != nil {
				t.Fatal(err)
			}
			os.Chmod(folder, 0o777)
		},
		"a link": func(t *testing.T, folder string) {
			target := filepath.Join(filepath.Dir(folder), "elsewhere")
			if err := os.Mkdir(target, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, folder); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			w := newWarmEnv(t, "30s")
			plant(t, filepath.Join(w.runtime, "deskbridge"))
			cfg, _ := writeConfig(t, "")
			for range 3 {
				if s := statusOf(t, callWarm(t, w, cfg, "get_status", nil)); s.Warm {
					t.Fatal("a warm process answered from a folder that is not private")
				}
				time.Sleep(200 * time.Millisecond)
			}
			found, _ := filepath.Glob(filepath.Join(w.runtime, "*", "*.sock*"))
			if len(found) > 0 {
				t.Fatalf("deskbridge-host wrote %v", found)
			}
		})
	}
}

// A hello of another version is refused: a deskbridge-host and a warm
// process of different versions do not talk. The warm process goes on
// serving hellos of its own version.
func TestWarmRefusesAnotherHelloVersion(t *testing.T) {
	cfg, _ := writeConfig(t, "")
	// after the configuration: its cleanup, which waits for the warm process, runs first
	w := newWarmEnv(t, "30s")
	waitWarmStatus(t, w, cfg)
	socks := w.sockets()
	if len(socks) != 1 {
		t.Fatalf("warm sockets: %v", socks)
	}
	c, err := net.Dial("unix", socks[0])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := warm.WriteFrame(c, warm.Hello{Version: warm.Version + 1, Origin: origin}); err != nil {
		t.Fatal(err)
	}
	var r warm.Reply
	if err := warm.ReadFrame(c, &r); err != nil || r.OK {
		t.Fatalf("a hello of version %d: %+v, %v; want refused", warm.Version+1, r, err)
	}
	if s := statusOf(t, callWarm(t, w, cfg, "get_status", nil)); !s.Warm {
		t.Fatal("the warm process stopped serving after the refused hello")
	}
}

// BenchmarkFingerprint is what each hello costs a warm process to check
// that its configuration and policy (here the embedded default) are
// those it started from.
func BenchmarkFingerprint(b *testing.B) {
	dir := b.TempDir()
	cfg := filepath.Join(dir, "config.json")
	doc := fmt.Sprintf(`{"workspaces":[{"name":"ws","path":%q}],"allowed_origins":[%q],"decision_log":{"disabled":true}}`, dir, origin)
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if engine.Fingerprint(cfg) == "" {
			b.Fatal("the configuration or policy did not load")
		}
	}
}

// TestWarmProcessSignsHeadsWhileItRuns: a warm process that stays up
// signs a head of its decisions every decision_log.checkpoint_seconds,
// without closing its log: a head covering every line of the log is
// there while its socket still is, and log verify checks it (#36).
func TestWarmProcessSignsHeadsWhileItRuns(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	b, _ := os.ReadFile(cfg)
	b = []byte(strings.Replace(string(b), `"decision_log":{`, `"decision_log":{"checkpoint_seconds":1,`, 1))
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	w := newWarmEnv(t, "120s")
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o600)
	waitWarmStatus(t, w, cfg)
	callWarm(t, w, cfg, "read_file", map[string]any{"path": filepath.Join(ws, "a.txt")})
	callWarm(t, w, cfg, "read_file", map[string]any{"path": filepath.Join(filepath.Dir(cfg), "x.txt")})
	logFile := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	pub := filepath.Join(filepath.Dir(cfg), "decision-log.pub")
	for range 300 {
		lines, _ := os.ReadFile(logFile)
		out, code := runLogged(t, "log", "verify", "--log", logFile, "--pub", pub)
		if code == 0 && strings.Contains(out, fmt.Sprintf("the latest of size %d ", strings.Count(string(lines), "\n"))) {
			if len(w.sockets()) != 1 {
				t.Fatal("the warm process ended: the head may be the one its close signed")
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no signed head covering the warm process's lines while it runs")
}
