package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/gobuild"
	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
	"github.com/deskbridge/deskbridge/internal/warm"
	"golang.org/x/sys/windows"
)

// warmHostPath is deskbridge-host.exe, beside binaryPath on first use:
// copied from DESKBRIDGE_TEST_HOST_BINARY (scripts/wine/test.sh, as
// there is no Go toolchain inside Wine) or built.
var warmHostPath = sync.OnceValues(func() (string, error) {
	p := filepath.Join(filepath.Dir(binaryPath), "deskbridge-host.exe")
	return p, gobuild.Program("../deskbridge-host", "", p, "DESKBRIDGE_TEST_HOST_BINARY")
})

// warmEnv is the environment of a test's own warm processes: their
// folder (and name) under a %LOCALAPPDATA% of the test's, and an idle
// time.
type warmEnv struct{ local, idle string }

func newWarmEnv(t *testing.T, idle string) warmEnv {
	t.Helper()
	w := warmEnv{local: t.TempDir(), idle: idle}
	t.Cleanup(func() { w.stop(t) })
	return w
}

func (w warmEnv) env() []string {
	return []string{"LOCALAPPDATA=" + w.local, "DESKBRIDGE_WARM_IDLE=" + w.idle}
}

// sockets are the names (warm.SocketPath) of the warm processes started
// in w: each has a lock file.
func (w warmEnv) sockets() []string {
	locks, _ := filepath.Glob(filepath.Join(w.local, "DeskBridge", "warm", "db-*.sock.lock"))
	for i, l := range locks {
		locks[i] = strings.TrimSuffix(l, ".lock")
	}
	return locks
}

// process is the warm process serving socket's pipe, found by the
// pipe's server process id: connecting says hello and hands it an empty
// port, which it serves and ends.
func (w warmEnv) process(t *testing.T, socket string) *os.Process {
	t.Helper()
	c, err := warm.Dial(socket, origin)
	if err != nil {
		t.Fatalf("no warm process on %s: %v", socket, err)
	}
	defer c.Close()
	var pid uint32
	if err := windows.GetNamedPipeServerProcessId(windows.Handle(c.(interface{ Fd() uintptr }).Fd()), &pid); err != nil {
		t.Fatal(err)
	}
	p, err := os.FindProcess(int(pid))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// stop ends the warm processes still serving in w.
func (w warmEnv) stop(t *testing.T) {
	for _, s := range w.sockets() {
		if c, err := warm.Dial(s, origin); err == nil {
			c.Close()
			p := w.process(t, s)
			p.Kill()
			p.Wait()
		}
	}
}

// status is get_status's data, as far as these tests read it.
type status struct {
	Warm bool `json:"warm"`
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

// On Windows too, the first message through deskbridge-host starts a warm
// process (the relay over its named pipe) and is handed to it; the same
// process serves the next messages, with their decisions in the decision
// log, and ends when it has been idle.
func TestWarmProcessServesTheMessagesOnWindows(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	// after the configuration: its cleanup, which stops the warm process, runs first
	w := newWarmEnv(t, "30s") // longer than a message takes under a loaded Wine
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("warm hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s := statusOf(t, callWarm(t, w, cfg, "get_status", nil)); !s.Warm {
		t.Fatal("the first message was not handed to the warm process it started")
	}
	socks := w.sockets()
	if len(socks) != 1 {
		t.Fatalf("warm processes after the first message: %v; want one", socks)
	}
	first := w.process(t, socks[0])
	r := callWarm(t, w, cfg, "read_file", map[string]any{"path": filepath.Join(ws, "a.txt")})
	if !r.Success || !strings.Contains(string(r.Data), "warm hello") {
		t.Fatalf("read_file through the warm process = %s %s", r.code(), r.Data)
	}
	if s := statusOf(t, callWarm(t, w, cfg, "get_status", nil)); !s.Warm {
		t.Fatal("the third message was not served warm")
	}
	if again := w.process(t, socks[0]); again.Pid != first.Pid {
		log, _ := os.ReadFile(socks[0] + ".log")
		t.Fatalf("the pipe is served by process %d, then %d; want one warm process\nits log:\n%s", first.Pid, again.Pid, log)
	}
	log, err := os.ReadFile(filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl"))
	if err != nil || !strings.Contains(string(log), `"read_file"`) {
		t.Fatalf("the warm process's read_file is not in the decision log: %v", err)
	}
	ended := make(chan error, 1)
	go func() { _, err := first.Wait(); ended <- err }()
	select { // idle 30 s
	case err := <-ended:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the warm process did not end after being idle")
	}
}

// A warm process that cannot start (here: a configuration that does not
// load) leaves the message to deskbridge itself, which answers as a host
// that cannot start does.
func TestWarmFallsBackToTheHostOnWindows(t *testing.T) {
	cfg, _ := writeConfig(t, "")
	w := newWarmEnv(t, "30s")
	if err := os.WriteFile(cfg, []byte(`{"workspaces": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := callWarm(t, w, cfg, "get_status", nil)
	if r.Success || r.Error == nil || !strings.Contains(r.Error.Message, "doctor") {
		t.Fatalf("get_status with a broken configuration = %s %+v; want the host's refusal naming doctor", r.code(), r.Error)
	}
}

// Eight ports opened at once with no warm process: each deskbridge-host
// starts one, one of them takes the name's lock and creates the pipe, the
// others say so, and their deskbridge-hosts wait for that one's instances:
// every message is served warm, by one warm process.
func TestWarmBurstIsServedWarmOnWindows(t *testing.T) {
	cfg, _ := writeConfig(t, "")
	w := newWarmEnv(t, "60s")
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
		t.Errorf("warm processes after the burst: %v; want one", got)
	}
}

// When deskbridge-host ends (the browser stopped it), the pipe breaks and
// the warm process cancels the port's work as a stopped host does: the
// running command is stopped and its outcome logged as CANCELLED, not
// left to run out (ping for two minutes).
func TestWarmProcessCancelsWhenDeskbridgeHostEndsOnWindows(t *testing.T) {
	cfg, ws := writeConfig(t, `,"commands":{"allow":["ping"]}`)
	w := newWarmEnv(t, "60s")
	if s := statusOf(t, callWarm(t, w, cfg, "get_status", nil)); !s.Warm {
		t.Fatal("no warm process answered")
	}
	logFile := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	bin, _ := warmHostPath()
	p := startProgram(t, bin, []string{"--config", cfg, origin}, w.env()...)
	req, _ := json.Marshal(map[string]any{"version": 1, "id": "cmd", "action": "run_command",
		"arguments": map[string]any{"argv": []string{"ping", "-n", "120", "127.0.0.1"}, "cwd": ws}})
	p.send(frame(req))
	proctest.WaitFile(t, logFile, func(b []byte) bool { return bytes.Contains(b, []byte(`"run_command"`)) })
	// The warm process holds no handle of deskbridge-host's: Wait returns
	// once it has ended.
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
	outcome := func(b []byte) []byte { // the run_command's outcome line and after
		i := bytes.Index(b, []byte(`"run_command"`))
		if i < 0 {
			return nil
		}
		j := bytes.Index(b[i:], []byte(`"phase":"outcome"`))
		if j < 0 {
			return nil
		}
		return b[i+j:]
	}
	b := proctest.WaitFile(t, logFile, func(b []byte) bool { return outcome(b) != nil })
	if line, _, _ := bytes.Cut(outcome(b), []byte("\n")); !bytes.Contains(line, []byte(`"CANCELLED"`)) {
		t.Fatalf("the command's outcome is not CANCELLED: %s", line)
	}
}
