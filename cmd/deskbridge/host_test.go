package main

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
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/gobuild"
	"github.com/deskbridge/deskbridge/internal/testkit/testhome"
)

const (
	origin     = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
	maxPayload = 1 << 20
)

// binaryPath is the deskbridge binary built once for these tests.
var binaryPath string

func TestMain(m *testing.M) {
	// No test writes the real home: every default path (state, decision
	// log, configuration, manifests) is the test's own, for this process
	// and every host it starts.
	home, err := testhome.Set()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "deskbridge-host-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binaryPath = filepath.Join(dir, "deskbridge")
	if runtime.GOOS == "windows" {
		binaryPath += ".exe"
	}
	if err := buildHost(binaryPath); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	stopDesktop()
	os.RemoveAll(dir)
	os.RemoveAll(home)
	os.Exit(code)
}

// buildHost builds the deskbridge binary at path, or, when
// DESKBRIDGE_TEST_BINARY names one already built, copies it there: a test
// binary run where there is no Go toolchain (scripts/wine/test.sh runs the
// Windows tests under Wine) is given the host that way. It is built with
// the tag nodynamic, as make build does: the WebP and AVIF codecs of the
// host and its image worker children are WebAssembly only.
func buildHost(path string) error {
	return gobuild.Program(".", "", path, "DESKBRIDGE_TEST_BINARY")
}

// writeConfig writes a test configuration and returns its path and the
// workspace.
func writeConfig(t *testing.T, extra string) (cfgPath, ws string) {
	t.Helper()
	dir := t.TempDir()
	ws = filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`{"workspaces":[{"name":"Demo","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q},"state_dir":%q%s}`,
		ws, origin, filepath.Join(dir, "log", "decisions.jsonl"), filepath.Join(dir, "state"), extra)
	cfgPath = filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfgPath, ws
}

// hostProc is a running host: frames go to its stdin, and every byte of its
// stdout is kept so that the whole stream can be checked at the end.
type hostProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	raw    *bytes.Buffer
	stderr *bytes.Buffer
}

// start runs the host as Chrome does; env adds variables.
func start(t *testing.T, args []string, env ...string) *hostProc {
	t.Helper()
	return startProgram(t, binaryPath, args, env...)
}

// startProgram runs bin (the host, or deskbridge-host) as Chrome does.
func startProgram(t *testing.T, bin string, args []string, env ...string) *hostProc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &hostProc{t: t, cmd: cmd, in: in, raw: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	cmd.Stderr = p.stderr
	p.out = bufio.NewReader(io.TeeReader(stdout, p.raw))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return p
}

// startConfigured runs the host with a fresh configuration passed by --config.
func startConfigured(t *testing.T) *hostProc {
	cfg, _ := writeConfig(t, "")
	return start(t, []string{"--config", cfg, origin})
}

func frame(payload []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(payload))), payload...)
}

func (p *hostProc) send(b []byte) {
	p.t.Helper()
	if _, err := p.in.Write(b); err != nil {
		p.t.Fatalf("writing to the host: %v\nstderr: %s", err, p.stderr)
	}
}

// response is one decoded response frame.
type response struct {
	Version int             `json:"version"`
	ID      string          `json:"id"`
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Rule    string `json:"rule"`
	} `json:"error"`
}

func (r response) code() string {
	if r.Success {
		return "ok"
	}
	if r.Error == nil {
		return "<none>"
	}
	return r.Error.Code
}

// recv reads one response frame, failing after a timeout.
func (p *hostProc) recv() response {
	p.t.Helper()
	type got struct {
		r   response
		err error
	}
	ch := make(chan got, 1)
	go func() {
		var hdr [4]byte
		if _, err := io.ReadFull(p.out, hdr[:]); err != nil {
			ch <- got{err: err}
			return
		}
		n := binary.LittleEndian.Uint32(hdr[:])
		if n > maxPayload {
			ch <- got{err: fmt.Errorf("frame of %d bytes is over the cap", n)}
			return
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(p.out, b); err != nil {
			ch <- got{err: err}
			return
		}
		var r response
		err := json.Unmarshal(b, &r)
		ch <- got{r: r, err: err}
	}()
	select {
	case g := <-ch:
		if g.err != nil {
			p.t.Fatalf("reading a response: %v\nstderr: %s", g.err, p.stderr)
		}
		return g.r
	case <-time.After(30 * time.Second):
		p.t.Fatalf("no response\nstderr: %s", p.stderr)
	}
	return response{}
}

// request sends a well-formed request and returns its response.
func (p *hostProc) request(id, action, args string) response {
	p.t.Helper()
	p.send(frame([]byte(fmt.Sprintf(`{"version":1,"id":%q,"action":%q,"arguments":%s}`, id, action, args))))
	return p.recv()
}

// closeAndWait closes stdin and returns the exit code; it then checks that
// stdout held only whole frames, nothing else.
func (p *hostProc) closeAndWait() int {
	p.t.Helper()
	p.in.Close()
	rest, _ := io.ReadAll(p.out)
	if len(rest) > 0 {
		p.t.Errorf("%d unread bytes on stdout after the last expected frame", len(rest))
	}
	err := p.cmd.Wait()
	checkFrames(p.t, p.raw.Bytes())
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	} else if err != nil {
		p.t.Fatal(err)
	}
	return 0
}

// checkFrames parses the whole of stdout as frames of JSON objects.
func checkFrames(t *testing.T, b []byte) {
	t.Helper()
	for len(b) > 0 {
		if len(b) < 4 {
			t.Fatalf("stdout ends with %d stray bytes", len(b))
		}
		n := int(binary.LittleEndian.Uint32(b))
		if n > maxPayload || 4+n > len(b) {
			t.Fatalf("stdout holds a broken frame of length %d (%d bytes left)", n, len(b)-4)
		}
		var m map[string]any
		if err := json.Unmarshal(b[4:4+n], &m); err != nil {
			t.Fatalf("stdout frame is not a JSON object: %v: %q", err, b[4:4+n])
		}
		b = b[4+n:]
	}
}

func mustCode(t *testing.T, r response, id, code string) {
	t.Helper()
	if r.ID != id || r.code() != code {
		msg := ""
		if r.Error != nil {
			msg = r.Error.Message
		}
		t.Fatalf("response id %q code %s (%s), want id %q code %s", r.ID, r.code(), msg, id, code)
	}
}

// TestFramingAndEnvelope sends every bad frame and envelope of
// docs/protocol.md ("Wire", "Envelope") to one host, which must answer each and read on.
func TestFramingAndEnvelope(t *testing.T) {
	p := startConfigured(t)
	cases := []struct {
		name    string
		bytes   []byte
		id      string
		code    string
		message string
	}{
		{"length 0", frame(nil), "", "INVALID_REQUEST", "empty"},
		{"over the cap", append(binary.LittleEndian.AppendUint32(nil, maxPayload+1), bytes.Repeat([]byte("{"), maxPayload+1)...), "", "INVALID_REQUEST", "1 MB"},
		{"invalid UTF-8", frame([]byte("{\"version\":1,\"id\":\"a\xff\",\"action\":\"get_status\",\"arguments\":{}}")), "", "INVALID_REQUEST", "UTF-8"},
		{"invalid JSON", frame([]byte(`{"version":1,"id":"x",`)), "", "INVALID_REQUEST", "JSON"},
		{"not an object", frame([]byte(`[1,2,3]`)), "", "INVALID_REQUEST", "object"},
		{"a string", frame([]byte(`"get_status"`)), "", "INVALID_REQUEST", "object"},
		{"trailing object", frame([]byte(`{"version":1,"id":"t1","action":"get_status","arguments":{}}{}`)), "", "INVALID_REQUEST", "after"},
		{"trailing garbage", frame([]byte(`{"version":1,"id":"t2","action":"get_status","arguments":{}} x`)), "", "INVALID_REQUEST", ""},
		{"duplicate at top", frame([]byte(`{"version":1,"id":"d0","id":"d1","action":"get_status","arguments":{}}`)), "", "INVALID_REQUEST", "duplicate"},
		{"duplicate deep", frame([]byte(`{"version":1,"id":"d2","action":"list_folder","arguments":{"x":{"y":[{"z":1,"z":2}]}}}`)), "", "INVALID_REQUEST", "duplicate"},
		{"no id", frame([]byte(`{"version":1,"action":"get_status","arguments":{}}`)), "", "INVALID_REQUEST", "id"},
		{"empty id", frame([]byte(`{"version":1,"id":"","action":"get_status","arguments":{}}`)), "", "INVALID_REQUEST", "id"},
		{"id not a string", frame([]byte(`{"version":1,"id":7,"action":"get_status","arguments":{}}`)), "", "INVALID_REQUEST", "id"},
		{"id too long", frame([]byte(`{"version":1,"id":"` + strings.Repeat("x", 129) + `","action":"get_status","arguments":{}}`)), "", "INVALID_REQUEST", "128"},
		{"version 2", frame([]byte(`{"version":2,"id":"v2","action":"get_status","arguments":{}}`)), "v2", "INVALID_REQUEST", "version 1"},
		{"version 1.0", frame([]byte(`{"version":1.0,"id":"v1f","action":"get_status","arguments":{}}`)), "v1f", "INVALID_REQUEST", "version"},
		{"version string", frame([]byte(`{"version":"1","id":"vs","action":"get_status","arguments":{}}`)), "vs", "INVALID_REQUEST", "version"},
		{"case-variant envelope member", frame([]byte(`{"version":1,"id":"cv","Action":"x","action":"get_status","arguments":{}}`)), "cv", "INVALID_REQUEST", "Action"},
		{"case-variant argument", frame([]byte(`{"version":1,"id":"ca","action":"read_file","arguments":{"path":"/x","Path":"/y"}}`)), "ca", "INVALID_REQUEST", "Path"},
		{"arguments not an object", frame([]byte(`{"version":1,"id":"an","action":"get_status","arguments":[]}`)), "an", "INVALID_REQUEST", "arguments"},
		{"no version", frame([]byte(`{"id":"nv","action":"get_status","arguments":{}}`)), "nv", "INVALID_REQUEST", `"version": 1`},
		{"version null", frame([]byte(`{"version":null,"id":"vn","action":"get_status","arguments":{}}`)), "vn", "INVALID_REQUEST", "version 1"},
		{"no arguments", frame([]byte(`{"version":1,"id":"na","action":"get_status"}`)), "na", "INVALID_REQUEST", "arguments"},
		{"arguments null", frame([]byte(`{"version":1,"id":"a0","action":"get_status","arguments":null}`)), "a0", "INVALID_REQUEST", "arguments"},
		{"arguments as a JSON string", frame([]byte(`{"version":1,"id":"a1","action":"get_status","arguments":"{}"}`)), "a1", "INVALID_REQUEST", "arguments"},
		{"no action", frame([]byte(`{"version":1,"id":"n0","arguments":{}}`)), "n0", "INVALID_REQUEST", "action"},
		{"action not a string", frame([]byte(`{"version":1,"id":"n1","action":7,"arguments":{}}`)), "n1", "INVALID_REQUEST", "action"},
		{"action an array", frame([]byte(`{"version":1,"id":"n2","action":["get_status"],"arguments":{}}`)), "n2", "INVALID_REQUEST", "action"},
		{"id of 128 two-byte characters", frame([]byte(`{"version":1,"id":"` + strings.Repeat("é", 128) + `","action":"get_status","arguments":{}}`)), strings.Repeat("é", 128), "ok", ""},
		{"id of 129 two-byte characters", frame([]byte(`{"version":1,"id":"` + strings.Repeat("é", 129) + `","action":"get_status","arguments":{}}`)), "", "INVALID_REQUEST", "128"},
		{"case-variant nested argument", frame([]byte(`{"version":1,"id":"cn","action":"patch_file","arguments":{"path":"/x","edits":[{"old_text":"a","new_text":"b","Old_text":"c"}]}}`)), "cn", "INVALID_REQUEST", "Old_text"},
		{"duplicate deep in a known argument", frame([]byte(`{"version":1,"id":"d3","action":"patch_file","arguments":{"path":"/x","edits":[{"old_text":"a","new_text":"b"},{"old_text":"a","new_text":"c","old_text":"d"}]}}`)), "", "INVALID_REQUEST", "/arguments/edits/1/old_text"},
		{"unknown action", frame([]byte(`{"version":1,"id":"ua","action":"rm_rf","arguments":{}}`)), "ua", "UNKNOWN_ACTION", "rm_rf"},
		{"unknown members ignored", frame([]byte(`{"version":1,"id":"um","action":"get_status","arguments":{"future":1},"future":{}}`)), "um", "ok", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p.t = t
			p.send(c.bytes)
			r := p.recv()
			mustCode(t, r, c.id, c.code)
			if r.Version != 1 {
				t.Errorf("response version %d", r.Version)
			}
			if c.message != "" && !strings.Contains(r.Error.Message, c.message) {
				t.Errorf("message %q does not mention %q", r.Error.Message, c.message)
			}
			// The host reads on: the next request is answered.
			mustCode(t, p.request("next", "get_status", "{}"), "next", "ok")
		})
	}
	p.t = t
	if code := p.closeAndWait(); code != 0 {
		t.Errorf("exit %d at EOF on a frame boundary, want 0\nstderr: %s", code, p.stderr)
	}
}

// vmHWM returns the peak resident set of pid in KiB.
func vmHWM(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// TestOverCapDiscardedInBoundedMemory sends a 64 MiB payload: it is read
// and discarded without being buffered, and the host answers the next
// request.
func TestOverCapDiscardedInBoundedMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/<pid>/status")
	}
	p := startConfigured(t)
	mustCode(t, p.request("warm", "get_status", "{}"), "warm", "ok")
	before := vmHWM(t, p.cmd.Process.Pid)
	const n = 64 << 20
	p.send(binary.LittleEndian.AppendUint32(nil, n))
	chunk := make([]byte, 1<<20)
	for i := range chunk {
		chunk[i] = 'a'
	}
	for range n / len(chunk) {
		p.send(chunk)
	}
	mustCode(t, p.recv(), "", "INVALID_REQUEST")
	mustCode(t, p.request("after", "get_status", "{}"), "after", "ok")
	after := vmHWM(t, p.cmd.Process.Pid)
	t.Logf("VmHWM %d KiB before, %d KiB after the 64 MiB payload", before, after)
	if grew := after - before; grew > 16<<10 {
		t.Errorf("peak RSS grew by %d KiB while discarding 64 MiB; it must stay bounded", grew)
	}
	if code := p.closeAndWait(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
}

// TestCorruptLengthEndsStream: a length beyond 64 MiB is answered, then the
// host exits non-zero.
func TestCorruptLengthEndsStream(t *testing.T) {
	p := startConfigured(t)
	p.send(binary.LittleEndian.AppendUint32(nil, 64<<20+1))
	mustCode(t, p.recv(), "", "INVALID_REQUEST")
	if code := p.closeAndWait(); code == 0 {
		t.Error("exit 0 after a corrupt length, want non-zero")
	}
}

// TestEOFInsideFrame: the browser went away mid-frame; exit non-zero.
func TestEOFInsideFrame(t *testing.T) {
	for name, b := range map[string][]byte{
		"in the header":  {5, 0},
		"in the payload": append(binary.LittleEndian.AppendUint32(nil, 10), `{"ve`...),
	} {
		t.Run(name, func(t *testing.T) {
			p := startConfigured(t)
			p.send(b)
			if code := p.closeAndWait(); code == 0 {
				t.Error("exit 0 after EOF inside a frame, want non-zero")
			}
		})
	}
}

// TestEOFAtBoundaryNoRequests: the port closed before any request.
func TestEOFAtBoundaryNoRequests(t *testing.T) {
	p := startConfigured(t)
	if code := p.closeAndWait(); code != 0 {
		t.Errorf("exit %d, want 0\nstderr: %s", code, p.stderr)
	}
}

// TestManyInFlight sends many requests without waiting; every one is
// answered once, matched by id.
func TestManyInFlight(t *testing.T) {
	p := startConfigured(t)
	const n = 64
	var all []byte
	for i := range n {
		action := "get_status"
		if i%2 == 1 {
			action = "get_skill_profile"
		}
		all = append(all, frame([]byte(fmt.Sprintf(`{"version":1,"id":"r%d","action":%q,"arguments":{}}`, i, action)))...)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); p.in.Write(all) }()
	seen := map[string]bool{}
	for range n {
		r := p.recv()
		if !r.Success || seen[r.ID] {
			t.Fatalf("response %+v (seen before: %v)", r, seen[r.ID])
		}
		seen[r.ID] = true
	}
	wg.Wait()
	for i := range n {
		if !seen[fmt.Sprintf("r%d", i)] {
			t.Errorf("no response for r%d", i)
		}
	}
	if code := p.closeAndWait(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
}

// TestUnknownOrigin: an origin not in allowed_origins is refused.
func TestUnknownOrigin(t *testing.T) {
	cfg, _ := writeConfig(t, "")
	p := start(t, []string{"--config", cfg, "chrome-extension://pppppppppppppppppppppppppppppppp/"})
	r := p.request("o", "get_status", "{}")
	mustCode(t, r, "o", "PERMISSION_DENIED")
	if r.Error.Rule != "origins.not_allowed" {
		t.Errorf("rule %q, want origins.not_allowed", r.Error.Rule)
	}
	p.closeAndWait()
}

// TestConfigFromEnvironment: DESKBRIDGE_CONFIG names the configuration.
func TestConfigFromEnvironment(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	write := filepath.Join(ws, "hello.txt")
	p := start(t, []string{origin}, "DESKBRIDGE_CONFIG="+cfg)
	r := p.request("s", "get_status", "{}")
	mustCode(t, r, "s", "ok")
	if !strings.Contains(string(r.Data), fmt.Sprintf("%q", cfg)) {
		t.Errorf("get_status does not name %s as the config source: %s", cfg, r.Data)
	}
	mustCode(t, p.request("w", "write_file", fmt.Sprintf(`{"path":%q,"content":"hi"}`, write)), "w", "ok")
	if b, err := os.ReadFile(write); err != nil || string(b) != "hi" {
		t.Errorf("file %q, %v", b, err)
	}
	if code := p.closeAndWait(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestBrokenConfig: a configuration that does not load refuses every
// request with ACTION_NOT_ALLOWED and still answers framing errors.
func TestBrokenConfig(t *testing.T) {
	for name, extra := range map[string]string{
		"unknown member":  `,"workspacez":[]`,
		"bad origin":      `,"allowed_origins":["https://example.com/"]`,
		"bad policy dir":  `,"policy":{"dir":"/nonexistent/deskbridge-policy"}`,
		"not json at all": `,,,`,
	} {
		t.Run(name, func(t *testing.T) {
			cfg, _ := writeConfig(t, "")
			b, _ := os.ReadFile(cfg)
			if err := os.WriteFile(cfg, []byte(strings.TrimSuffix(string(b), "}")+extra+"}"), 0o600); err != nil {
				t.Fatal(err)
			}
			p := start(t, []string{"--config", cfg, origin})
			for _, a := range []string{"get_status", "read_file", "write_file"} {
				mustCode(t, p.request("b-"+a, a, `{"path":"/tmp/x","content":""}`), "b-"+a, "ACTION_NOT_ALLOWED")
			}
			p.send(frame(nil))
			mustCode(t, p.recv(), "", "INVALID_REQUEST")
			if code := p.closeAndWait(); code != 0 {
				t.Errorf("exit %d, want 0", code)
			}
		})
	}
}
