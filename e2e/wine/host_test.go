//go:build wine

package wine

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const origin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

// exe is deskbridge.exe (a Linux path), wine the Wine loader; both set by
// TestMain from DESKBRIDGE_EXE and PATH (scripts/wine/test.sh).
var exe, wine string

func TestMain(m *testing.M) {
	exe = os.Getenv("DESKBRIDGE_EXE")
	var err error
	if wine, err = exec.LookPath("wine64"); err != nil || exe == "" || os.Getenv("WINEPREFIX") == "" {
		fmt.Fprintln(os.Stderr, "e2e/wine runs from scripts/wine/test.sh (make test-windows): it needs wine64 on PATH, WINEPREFIX and DESKBRIDGE_EXE")
		os.Exit(1)
	}
	if err := buildDBTree(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// buildDBTree builds testdata/dbtree for Windows into the prefix's
// System32, the only kind of folder run_command runs programs from.
func buildDBTree() error {
	dst := filepath.Join(os.Getenv("WINEPREFIX"), "drive_c", "windows", "system32", "dbtree.exe")
	cmd := exec.Command("go", "build", "-o", dst, "./testdata/dbtree")
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building dbtree: %v\n%s", err, out)
	}
	return nil
}

// winPath is the Windows name of a Linux path: Wine maps / to drive Z:.
func winPath(p string) string { return "Z:" + strings.ReplaceAll(p, "/", `\`) }

// unixPath is the Linux name of a Windows path on drive Z: or C: (the
// prefix's drive_c).
func unixPath(t *testing.T, p string) string {
	t.Helper()
	p = strings.ReplaceAll(p, `\`, "/")
	switch {
	case len(p) > 2 && strings.EqualFold(p[:2], "Z:"):
		return p[2:]
	case len(p) > 2 && strings.EqualFold(p[:2], "C:"):
		return filepath.Join(os.Getenv("WINEPREFIX"), "drive_c", p[2:])
	}
	t.Fatalf("no Linux name for %s", p)
	return ""
}

// wineCmd is deskbridge.exe (or another Windows program) under Wine.
func wineCmd(program string, args ...string) *exec.Cmd {
	return exec.Command(wine, append([]string{program}, args...)...)
}

// fixture is a workspace, a folder outside it holding a canary, a
// decision log and a configuration, all under one temporary folder.
type fixture struct {
	dir, ws, out, log, cfg string
}

func newFixture(t *testing.T, extra string) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{dir: dir, ws: filepath.Join(dir, "ws"), out: filepath.Join(dir, "out"),
		log: filepath.Join(dir, "log", "decisions.jsonl"), cfg: filepath.Join(dir, "config.json")}
	for _, d := range []string{f.ws, f.out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(f.ws, "a.txt"), "inside\n")
	write(t, filepath.Join(f.out, "canary.txt"), "CANARY-outside\n")
	cfg := fmt.Sprintf(`{"workspaces":[{"name":"Demo","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q},"state_dir":%q%s}`,
		winPath(f.ws), origin, winPath(f.log), winPath(filepath.Join(dir, "state")), extra)
	write(t, f.cfg, cfg)
	return f
}

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// host is deskbridge.exe started under Wine as Chrome starts it.
type host struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
	n      int
}

func (f *fixture) start(t *testing.T) *host {
	t.Helper()
	cmd := wineCmd(exe, "--config", winPath(f.cfg), origin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h := &host{t: t, cmd: cmd, in: in, out: bufio.NewReader(out), stderr: &bytes.Buffer{}}
	cmd.Stderr = h.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return h
}

// response is one decoded response frame.
type response struct {
	ID      string          `json:"id"`
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (r response) code() string {
	switch {
	case r.Success:
		return "ok"
	case r.Error == nil:
		return "<none>"
	}
	return r.Error.Code
}

func frame(payload []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(payload))), payload...)
}

// send writes one framed payload.
func (h *host) send(payload []byte) {
	h.t.Helper()
	if _, err := h.in.Write(frame(payload)); err != nil {
		h.t.Fatalf("writing to the host: %v\nstderr: %s", err, h.stderr)
	}
}

// recv reads one response frame (the host answers in time or the
// cleanup's kill ends the read).
func (h *host) recv() (response, []byte) {
	h.t.Helper()
	var hdr [4]byte
	if _, err := io.ReadFull(h.out, hdr[:]); err != nil {
		h.t.Fatalf("reading a response: %v\nstderr: %s", err, h.stderr)
	}
	b := make([]byte, binary.LittleEndian.Uint32(hdr[:]))
	if _, err := io.ReadFull(h.out, b); err != nil {
		h.t.Fatalf("reading a response: %v\nstderr: %s", err, h.stderr)
	}
	var r response
	if err := json.Unmarshal(b, &r); err != nil {
		h.t.Fatalf("response is not JSON: %v: %q", err, b)
	}
	return r, b
}

// call sends one request and returns its response.
func (h *host) call(action string, args map[string]any) (response, []byte) {
	h.t.Helper()
	h.n++
	id := fmt.Sprintf("w%d", h.n)
	b, err := json.Marshal(map[string]any{"version": 1, "id": id, "action": action, "arguments": args})
	if err != nil {
		h.t.Fatal(err)
	}
	h.send(b)
	r, raw := h.recv()
	if r.ID != id {
		h.t.Fatalf("response id %q, want %q: %s", r.ID, id, raw)
	}
	return r, raw
}
