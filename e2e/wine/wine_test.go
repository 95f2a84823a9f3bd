//go:build wine

package wine

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStatusIsWindows: the host Wine runs is the Windows build, and it
// names its workspace by its Windows path.
func TestStatusIsWindows(t *testing.T) {
	f := newFixture(t, "")
	h := f.start(t)
	r, raw := h.call("get_status", map[string]any{})
	var d struct {
		Platform   struct{ OS string }
		Workspaces []struct{ Path string }
	}
	if err := json.Unmarshal(r.Data, &d); err != nil || !r.Success {
		t.Fatalf("get_status: %v: %s", err, raw)
	}
	if d.Platform.OS != "windows" || len(d.Workspaces) != 1 || !strings.EqualFold(d.Workspaces[0].Path, winPath(f.ws)) {
		t.Fatalf("get_status = %s, want windows and workspace %s", raw, winPath(f.ws))
	}
}

// TestFramesAreBinary: stdin and stdout carry bytes, not text: a length
// prefix holding CR, LF and Ctrl-Z (0x0d0a1a: text mode would turn CR LF
// into LF and stop at Ctrl-Z) and content full of them go through whole,
// both ways, and the next frame still parses.
func TestFramesAreBinary(t *testing.T) {
	f := newFixture(t, "")
	h := f.start(t)
	target := filepath.Join(f.ws, "crlf.txt")
	content := strings.Repeat("a\r\nb\x1a\n", 8)
	b, _ := json.Marshal(map[string]any{"version": 1, "id": "bin", "action": "write_file",
		"arguments": map[string]any{"path": winPath(target), "content": content}})
	// JSON white space before the closing brace makes the payload
	// 0x0d0a1a bytes long: its length prefix is 1a 0a 0d 00.
	want := 0x0d0a1a
	b = append(append(b[:len(b)-1], bytes.Repeat([]byte(" "), want-len(b))...), '}')
	if len(b) != want {
		t.Fatalf("payload is %d bytes, want %d", len(b), want)
	}
	h.send(b)
	r, raw := h.recv()
	if !r.Success {
		t.Fatalf("write_file in a frame of length 0x0d0a1a: %s", raw)
	}
	if got, _ := os.ReadFile(target); string(got) != content {
		t.Fatalf("file holds %q, want %q", got, content)
	}
	r, raw = h.call("read_file", map[string]any{"path": winPath(target)})
	var d struct{ Content string }
	json.Unmarshal(r.Data, &d)
	if !r.Success || d.Content != content {
		t.Fatalf("read_file = %s, want %q", raw, content)
	}
}

// TestEnvelopeRefusals: a request that is not a valid envelope is answered
// with its code, and the host keeps serving.
func TestEnvelopeRefusals(t *testing.T) {
	f := newFixture(t, "")
	h := f.start(t)
	for _, c := range []struct{ payload, code string }{
		{`{"version":2,"id":"v","action":"get_status","arguments":{}}`, "INVALID_REQUEST"},
		{`{"version":1,"id":"u","action":"format_disk","arguments":{}}`, "UNKNOWN_ACTION"},
		{`{"version":1,"id":"j","action":"get_status","arguments":{}`, "INVALID_REQUEST"},
		{`{"version":1,"id":"x","action":"read_file","arguments":{"path":"a.txt","evil":1}}`, "INVALID_REQUEST"},
	} {
		h.send([]byte(c.payload))
		if r, raw := h.recv(); r.code() != c.code {
			t.Errorf("%s: %s, want %s", c.payload, raw, c.code)
		}
	}
	if r, raw := h.call("get_status", map[string]any{}); !r.Success {
		t.Fatalf("after the refusals: %s", raw)
	}
}

// pathForm is one Windows spelling of a path, with the code each action
// must answer; "" in want means "ok".
type pathForm struct {
	note, path string
	read       string // read_file's code
	write      string // write_file's code
}

// windowsForms lists Windows path forms that name the workspace's file,
// the canary outside it, or a device, in every spelling Windows accepts
// and a path check might miss. ws and out are Windows paths.
func windowsForms(ws, out string) []pathForm {
	drive, rest := ws[:2], ws[2:]
	return []pathForm{
		{"plain", ws + `\a.txt`, "ok", "ok"},
		{"forward slashes", strings.ReplaceAll(ws, `\`, "/") + "/a.txt", "ok", "ok"},
		{"case changed", strings.ToUpper(ws) + `\A.TXT`, "ok", "ok"},
		{"outside", out + `\canary.txt`, "WORKSPACE_VIOLATION", "WORKSPACE_VIOLATION"},
		{"dot-dot out", ws + `\..\out\canary.txt`, "WORKSPACE_VIOLATION", "WORKSPACE_VIOLATION"},
		{"default stream", ws + `\a.txt::$DATA`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"alternate stream", ws + `\a.txt:hidden`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"stream on the outside", out + `\canary.txt::$DATA`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"verbatim prefix", `\\?\` + ws + `\a.txt`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"device prefix", `\\.\` + ws + `\a.txt`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"verbatim UNC", `\\?\UNC\localhost\` + drive[:1] + `$` + rest + `\a.txt`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"administrative share", `\\localhost\` + drive[:1] + `$` + rest + `\a.txt`, "WORKSPACE_VIOLATION", "WORKSPACE_VIOLATION"},
		{"trailing dot", ws + `\a.txt.`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"trailing space", ws + `\a.txt `, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"reserved name", ws + `\CON`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"reserved name with extension", ws + `\nul.txt`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"drive-relative", drive + rest[1:] + `\a.txt`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"rooted without a drive", rest + `\a.txt`, "INVALID_REQUEST", "INVALID_REQUEST"},
		{"relative", `a.txt`, "INVALID_REQUEST", "INVALID_REQUEST"},
	}
}

// TestWindowsPathForms runs every Windows path form through read_file and
// write_file: each is resolved to the workspace file or refused with its
// code, the canary never reaches a response, and nothing outside the
// workspace changes.
func TestWindowsPathForms(t *testing.T) {
	f := newFixture(t, "")
	h := f.start(t)
	for _, c := range windowsForms(winPath(f.ws), winPath(f.out)) {
		t.Run(c.note, func(t *testing.T) {
			write(t, filepath.Join(f.ws, "a.txt"), "inside\n")
			r, raw := h.call("read_file", map[string]any{"path": c.path})
			if r.code() != c.read {
				t.Errorf("read_file %q: %s, want %s", c.path, raw, c.read)
			}
			if bytes.Contains(raw, []byte("CANARY")) {
				t.Errorf("read_file %q leaked the canary: %s", c.path, raw)
			}
			r, raw = h.call("write_file", map[string]any{"path": c.path, "content": "written\n"})
			if r.code() != c.write {
				t.Errorf("write_file %q: %s, want %s", c.path, raw, c.write)
			}
			checkOutside(t, f)
		})
	}
}

// checkOutside fails when the folder outside the workspace holds anything
// but the untouched canary.
func checkOutside(t *testing.T, f *fixture) {
	t.Helper()
	entries, err := os.ReadDir(f.out)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "canary.txt" {
		t.Errorf("the outside folder holds %v", entries)
	}
	if b, _ := os.ReadFile(filepath.Join(f.out, "canary.txt")); string(b) != "CANARY-outside\n" {
		t.Errorf("canary changed: %q", b)
	}
}

// TestWriteFileOverAnOpenFile: write_file over a file another process
// holds open without delete sharing (as most Windows programs open files)
// cannot replace it (MoveFileEx is refused), so it answers
// PERMISSION_DENIED: the file keeps its old content whole and no temporary
// file is left beside it.
func TestWriteFileOverAnOpenFile(t *testing.T) {
	f := newFixture(t, "")
	h := f.start(t)
	target := filepath.Join(f.ws, "held.txt")
	write(t, target, "old content\n")
	hold := wineCmd("dbtree", "hold", winPath(target))
	in, _ := hold.StdinPipe()
	out, _ := hold.StdoutPipe()
	if err := hold.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); hold.Wait() }()
	line := make([]byte, 5)
	if _, err := out.Read(line); err != nil || string(line[:4]) != "held" {
		t.Fatalf("dbtree hold: %q %v", line, err)
	}
	r, raw := h.call("write_file", map[string]any{"path": winPath(target), "content": "new content\n"})
	if r.code() != "PERMISSION_DENIED" {
		t.Errorf("write_file over an open file: %s, want PERMISSION_DENIED", raw)
	}
	if got, _ := os.ReadFile(target); string(got) != "old content\n" {
		t.Errorf("the held file holds %q, want its old content", got)
	}
	entries, _ := os.ReadDir(f.ws)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".deskbridge-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestInstallRegistersInTheRegistry: install writes the manifest and the
// HKCU NativeMessagingHosts key that Chrome reads on Windows (read back
// with Wine's own reg.exe, not with DeskBridge's code), doctor reads them
// back, and uninstall removes both.
func TestInstallRegistersInTheRegistry(t *testing.T) {
	const key = `HKCU\Software\Google\Chrome\NativeMessagingHosts\com.deskbridge.host`
	id := "abcdefghijklmnopabcdefghijklmnop"
	run := func(want int, program string, args ...string) string {
		t.Helper()
		out, err := wineCmd(program, args...).CombinedOutput()
		code := 0
		if err != nil {
			code = -1
			if ee, ok := err.(interface{ ExitCode() int }); ok {
				code = ee.ExitCode()
			}
		}
		if code != want {
			t.Fatalf("%s %s: exit %d, want %d\n%s", program, strings.Join(args, " "), code, want, out)
		}
		return string(out)
	}
	run(0, exe, "install", "--browser", "chrome", "--host-path", winPath(exe), "--extension-id", id)
	t.Cleanup(func() { wineCmd(exe, "uninstall", "--browser", "chrome").Run() })
	q := run(0, "reg", "query", key, "/ve")
	i := strings.Index(q, "REG_SZ")
	if i < 0 {
		t.Fatalf("reg query %s: no default value:\n%s", key, q)
	}
	manifest := strings.TrimSpace(strings.SplitN(q[i+len("REG_SZ"):], "\n", 2)[0])
	b, err := os.ReadFile(unixPath(t, manifest))
	if err != nil {
		t.Fatalf("the registry names %s: %v", manifest, err)
	}
	var m struct {
		Name           string   `json:"name"`
		Path           string   `json:"path"`
		AllowedOrigins []string `json:"allowed_origins"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Name != "com.deskbridge.host" ||
		!strings.EqualFold(m.Path, winPath(exe)) || len(m.AllowedOrigins) != 1 || m.AllowedOrigins[0] != origin {
		t.Fatalf("manifest %s = %s (%v)", manifest, b, err)
	}
	if out := run(0, exe, "doctor", "--browser", "chrome"); !strings.Contains(out, "ok   chrome") {
		t.Fatalf("doctor after install:\n%s", out)
	}
	run(0, exe, "uninstall", "--browser", "chrome")
	run(1, "reg", "query", key, "/ve")
	if _, err := os.Stat(unixPath(t, manifest)); !os.IsNotExist(err) {
		t.Fatalf("manifest left after uninstall: %v", err)
	}
	run(1, exe, "doctor", "--browser", "chrome")
}

// TestRunCommandKillsTheTreeAtTimeout: a command whose child outlives its
// timeout is stopped with that child (the job object): the child's
// heartbeat file stops growing once the answer is in.
func TestRunCommandKillsTheTreeAtTimeout(t *testing.T) {
	f := newFixture(t, `,"commands":{"allow":["dbtree"]}`)
	h := f.start(t)
	r, raw := h.call("run_command", map[string]any{"argv": []string{"dbtree", "tree"}, "cwd": winPath(f.ws), "timeout_ms": 3000})
	if r.code() != "COMMAND_TIMEOUT" {
		t.Fatalf("run_command dbtree tree: %s, want COMMAND_TIMEOUT", raw)
	}
	beat := filepath.Join(f.ws, "beat.txt")
	size := func() int64 {
		fi, err := os.Stat(beat)
		if err != nil {
			t.Fatalf("the child never ran: %v", err)
		}
		return fi.Size()
	}
	// Settle: a write in flight when the job ended may still land.
	time.Sleep(time.Second)
	before := size()
	time.Sleep(2 * time.Second)
	if after := size(); after != before {
		t.Fatalf("the child still runs after the timeout: beat.txt grew from %d to %d bytes", before, after)
	}
}

// TestDecisionLogLockAcrossHosts: hosts started at once on one decision
// log (as Chrome starts one per message) append whole lines in one hash
// chain: `deskbridge log verify` finds it intact, with every decision.
func TestDecisionLogLockAcrossHosts(t *testing.T) {
	f := newFixture(t, "")
	const hosts, each = 4, 15
	done := make(chan error, hosts)
	var started []*host
	for range hosts {
		started = append(started, f.start(t))
	}
	for _, h := range started {
		go func() {
			for range each {
				b, _ := json.Marshal(map[string]any{"version": 1, "id": "l", "action": "read_file",
					"arguments": map[string]any{"path": winPath(filepath.Join(f.ws, "a.txt"))}})
				if _, err := h.in.Write(frame(b)); err != nil {
					done <- err
					return
				}
			}
			h.in.Close()
			done <- h.cmd.Wait()
		}()
	}
	for range hosts {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	out, err := wineCmd(exe, "log", "verify", "--log", winPath(f.log)).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "intact") {
		t.Fatalf("log verify: %v\n%s", err, out)
	}
	lines := bytes.Count(mustRead(t, f.log), []byte("\n"))
	if lines < hosts*each {
		t.Fatalf("the log holds %d lines, want at least %d decisions", lines, hosts*each)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
