//go:build e2e && linux

package e2e

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/gobuild"
	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
	"github.com/deskbridge/deskbridge/internal/testkit/testhome"
)

// host is a native messaging host binary under test and the environment
// the browser (and so the host) runs with.
type host struct {
	name string
	path string
	env  []string
	echo bool // the echo host reflects action, arguments and origin
	// warm is set for deskbridge-host once a warm process answers.
	warm bool
	// workspace is the real host's one configured workspace.
	workspace string
}

var (
	buildDir  string
	buildOnce = map[string]*sync.Once{"echo": {}, "deskbridge": {}, "deskbridge-host": {}}
	buildErr  = map[string]error{}
)

func TestMain(m *testing.M) {
	home, err := testhome.Set() // no test reaches the real home
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "deskbridge-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	buildDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.RemoveAll(home)
	os.Exit(code)
}

// build compiles the package pkg (relative to the module root) once per run.
func build(t testing.TB, name, pkg string) string {
	t.Helper()
	out := filepath.Join(buildDir, name)
	buildOnce[name].Do(func() {
		buildErr[name] = gobuild.Program(pkg, "..", out, "")
	})
	if err := buildErr[name]; err != nil {
		t.Fatal(err)
	}
	return out
}

// echoHost is the trivial host in testdata/echohost.
func echoHost(t testing.TB) host {
	return host{name: "echo", path: build(t, "echo", "./testdata/echohost"), echo: true}
}

// realHost builds ./cmd/deskbridge, writes a configuration that allows the
// reference extension and one temporary workspace, and checks that the
// binary answers get_status over stdin/stdout; a host that does not
// answer fails the test.
func realHost(t testing.TB) host {
	bin := build(t, "deskbridge", "./cmd/deskbridge")
	cfg, ws := writeConfig(t)
	h := host{name: "deskbridge", path: bin, env: []string{"DESKBRIDGE_CONFIG=" + cfg}, workspace: ws}
	if err := probe(h); err != nil {
		t.Fatalf("deskbridge does not answer get_status: %v", err)
	}
	return h
}

// warmHost is deskbridge-host beside ./cmd/deskbridge, as install
// registers it on Linux, with the real host's configuration and a socket
// folder of the test's own; it returns once a warm process answers, so
// that the browser's messages are served warm.
func warmHost(t testing.TB) host {
	build(t, "deskbridge", "./cmd/deskbridge") // deskbridge-host runs the deskbridge beside it
	bin := build(t, "deskbridge-host", "./cmd/deskbridge-host")
	cfg, ws := writeConfig(t)
	sockets, err := os.MkdirTemp("/tmp", "dbe-") // short: a socket path has at most 104 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // before the configuration's folder goes: the warm process writes there
		pattern := "warm-serve --socket " + sockets
		exec.Command("pkill", "-f", pattern).Run()
		waitFor(10*time.Second, func() bool { return exec.Command("pgrep", "-f", pattern).Run() != nil })
		os.RemoveAll(sockets)
	})
	h := host{name: "deskbridge-host", path: bin, workspace: ws, warm: true,
		env: []string{"DESKBRIDGE_CONFIG=" + cfg, "XDG_RUNTIME_DIR=" + sockets, "DESKBRIDGE_WARM_IDLE=2m"}}
	if !waitFor(20*time.Second, func() bool { return probeWarm(h) == nil }) {
		t.Fatalf("no warm process answers get_status through deskbridge-host: %v", probeWarm(h))
	}
	return h
}

// probeWarm is probe, and checks that a warm process answered.
func probeWarm(h host) error {
	frames, err := exchange(h, map[string]any{"version": 1, "id": "probe-1", "action": "get_status", "arguments": map[string]any{}})
	if err != nil {
		return err
	}
	var resp struct {
		Data struct {
			Warm bool `json:"warm"`
		} `json:"data"`
	}
	if err := checkStatusFrame(frames[0]); err != nil || json.Unmarshal(frames[0], &resp) != nil || !resp.Data.Warm {
		return fmt.Errorf("not answered warm: %s", frames[0])
	}
	return nil
}

// workspaceParent is where the workspace lives: a tmpfs, because the
// message-cap test needs a sparse file larger than ext4 allows (see
// sparseFile).
const workspaceParent = "/dev/shm"

// writeConfig writes a configuration with one workspace and returns the
// paths of both.
func writeConfig(t testing.TB) (cfgPath, workspace string) {
	dir := t.TempDir()
	ws, err := os.MkdirTemp(workspaceParent, "deskbridge-e2e-ws-")
	if err != nil {
		t.Fatalf("a workspace on tmpfs (%s) is needed: %v", workspaceParent, err)
	}
	t.Cleanup(func() { os.RemoveAll(ws) })
	cfg := map[string]any{
		"workspaces":      []map[string]string{{"name": "Demo", "path": ws}},
		"allowed_origins": []string{origin},
		"decision_log":    map[string]string{"path": filepath.Join(dir, "decisions.jsonl")},
	}
	data, _ := json.Marshal(cfg)
	p := filepath.Join(dir, "config.json")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p, ws
}

// probe starts h as the browser would and asks it get_status.
func probe(h host) error {
	frames, err := exchange(h, map[string]any{"version": 1, "id": "probe-1", "action": "get_status", "arguments": map[string]any{}})
	if err != nil {
		return err
	}
	return checkStatusFrame(frames[0])
}

// exchange starts h as the browser would, sends each request as a frame,
// reads one response frame per request, and only then closes stdin (as
// the browser does: EOF cancels in-flight work) and waits for the exit.
// It returns the raw payloads, in the order they arrived.
func exchange(h host, reqs ...any) ([][]byte, error) {
	cmd := exec.Command(h.path, origin)
	cmd.Env = append(os.Environ(), h.env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer cmd.Process.Kill()
	for _, r := range reqs {
		b, _ := json.Marshal(r)
		if _, err := stdin.Write(append(binary.LittleEndian.AppendUint32(nil, uint32(len(b))), b...)); err != nil {
			return nil, err
		}
	}
	frames, err := readFrames(stdout, len(reqs))
	stdin.Close()
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return frames, err
	case <-time.After(proctest.Bound):
		return nil, fmt.Errorf("no exit within %v after EOF", proctest.Bound)
	}
}

// readFrames reads n frames, each within 30 seconds.
func readFrames(r io.Reader, n int) ([][]byte, error) {
	type result struct {
		frames [][]byte
		err    error
	}
	ch := make(chan result, 1)
	go func() {
		var res result
		for range n {
			var hdr [4]byte
			if _, res.err = io.ReadFull(r, hdr[:]); res.err != nil {
				break
			}
			b := make([]byte, binary.LittleEndian.Uint32(hdr[:]))
			if _, res.err = io.ReadFull(r, b); res.err != nil {
				break
			}
			res.frames = append(res.frames, b)
		}
		ch <- res
	}()
	select {
	case res := <-ch:
		return res.frames, res.err
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("no %d response frames within 30s", n)
	}
}

func checkStatusFrame(b []byte) error {
	var resp struct {
		Version int    `json:"version"`
		ID      string `json:"id"`
		Success bool   `json:"success"`
	}
	if err := json.Unmarshal(b, &resp); err != nil || resp.Version != 1 || resp.ID != "probe-1" || !resp.Success {
		return fmt.Errorf("unexpected get_status response %s", b)
	}
	return nil
}

// forEachHost runs f against the echo host and the real host, started
// for each port and warm through deskbridge-host.
func forEachHost(t *testing.T, f func(t *testing.T, h host)) {
	t.Run("echo", func(t *testing.T) { f(t, echoHost(t)) })
	t.Run("deskbridge", func(t *testing.T) { f(t, realHost(t)) })
	t.Run("deskbridge-host", func(t *testing.T) { f(t, warmHost(t)) })
}
