package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/sandbox"
)

// multibyte returns about n bytes of text mixing 1- to 4-byte runes, so
// page boundaries fall inside characters.
func multibyte(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString([]string{"a", "é", "€", "𝄞", "\n", "\"", "\\", "\u2028"}[i%8])
	}
	return b.String()
}

// readAll pages through a file with read_file and returns what it read.
func readAll(t *testing.T, th *testHost, path, enc string) []byte {
	t.Helper()
	var out []byte
	offset := 0.0
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("too many pages")
		}
		payload := fmt.Sprintf(`{"version":1,"id":"p","action":"read_file","arguments":{"path":%q,"encoding":%q,"offset":%d}}`, path, enc, int64(offset))
		resp := th.h.Handle(context.Background(), []byte(payload))
		if b, _ := Encode(resp); len(b) > wire.MaxPayload {
			t.Fatalf("page of %d bytes is over the cap", len(b))
		}
		r := th.handle(t, []byte(payload))
		mustCode(t, r, "ok")
		content := r.Data["content"].(string)
		if enc == "base64" {
			b, err := base64.StdEncoding.DecodeString(content)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b...)
		} else {
			out = append(out, content...)
		}
		if r.Data["truncated"] != true {
			return out
		}
		next := r.Data["next_offset"].(float64)
		if next <= offset {
			t.Fatalf("next_offset %v does not advance from %v", next, offset)
		}
		offset = next
	}
}

func TestReadFilePaging(t *testing.T) {
	th := newTestHost(t, nil)
	text := multibyte(3 << 20)
	path := filepath.Join(th.ws, "big.txt")
	write(t, path, text)
	for _, enc := range []string{"utf-8", "base64"} {
		t.Run(enc, func(t *testing.T) {
			if got := readAll(t, th, path, enc); !bytes.Equal(got, []byte(text)) {
				t.Fatalf("reassembled %d bytes, want %d identical bytes", len(got), len(text))
			}
		})
	}
}

// TestReadFileNotText: a file that is not UTF-8, read as utf-8, is
// refused with a message that says so and names base64, also when its
// first byte would continue a character (a file cannot start inside one).
func TestReadFileNotText(t *testing.T) {
	th := newTestHost(t, nil)
	for _, content := range []string{"ok\xff\xfe", "\x80\x01PNG", "\xbf"} {
		path := filepath.Join(th.ws, "bin")
		write(t, path, content)
		r := th.call(t, "read_file", map[string]any{"path": path})
		mustCode(t, r, "INVALID_REQUEST")
		if !strings.Contains(r.Error.Message, "not valid UTF-8") || !strings.Contains(r.Error.Message, "base64") {
			t.Errorf("%q: message %q does not say the file is not UTF-8 and to use base64", content, r.Error.Message)
		}
	}
}

func TestReadFileOffsetBeyondSize(t *testing.T) {
	th := newTestHost(t, nil)
	path := filepath.Join(th.ws, "a")
	write(t, path, "abc")
	r := th.call(t, "read_file", map[string]any{"path": path, "offset": 1 << 40})
	mustCode(t, r, "ok")
	if r.Data["content"] != "" || r.Data["size"] != 3.0 || r.Data["truncated"] == true {
		t.Errorf("data %v", r.Data)
	}
}

// TestWriteFileKeepsPermissionsLeavesNoTemp replaces a file: its read and
// write permissions stay, its executable bits do not (a write never leaves
// a program behind the request did not ask for).
func TestWriteFileKeepsPermissionsLeavesNoTemp(t *testing.T) {
	th := newTestHost(t, nil)
	path := filepath.Join(th.ws, "script.sh")
	write(t, path, "old")
	if err := os.Chmod(path, 0o751); err != nil {
		t.Fatal(err)
	}
	mustCode(t, th.call(t, "write_file", map[string]any{"path": path, "content": "new"}), "ok")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := os.FileMode(0o640); runtime.GOOS != "windows" && fi.Mode().Perm() != want || read(t, path) != "new" {
		t.Errorf("mode %v content %q, want %v and new", fi.Mode().Perm(), read(t, path), want)
	}
	left, _ := filepath.Glob(filepath.Join(th.ws, ".deskbridge-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// childEnv makes the test binary a writer that loops until killed.
const childEnv = "DESKBRIDGE_TEST_WRITE_CHILD"

// TestWriteKilledLeavesOldOrNew kills a child process while it rewrites a
// large file in a loop; the file then holds one whole version.
func TestWriteKilledLeavesOldOrNew(t *testing.T) {
	if dir := os.Getenv(childEnv); dir != "" {
		writeForever(dir)
		return
	}
	dir := t.TempDir()
	const size = 4 << 20
	for _, delay := range []time.Duration{5 * time.Millisecond, 30 * time.Millisecond, 120 * time.Millisecond} {
		write(t, filepath.Join(dir, "f"), strings.Repeat("0", size))
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriteKilledLeavesOldOrNew$")
		cmd.Env = append(os.Environ(), childEnv+"="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Kill()
		cmd.Wait()
		got := read(t, filepath.Join(dir, "f"))
		if len(got) != size || strings.Count(got, got[:1]) != size {
			t.Fatalf("after a kill at %v the file is torn: %d bytes, starts %q", delay, len(got), got[:min(8, len(got))])
		}
	}
}

func writeForever(dir string) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		os.Exit(3)
	}
	for i := 1; ; i++ {
		data := bytes.Repeat([]byte{byte('0' + i%10)}, 4<<20)
		if _, err := sandbox.WriteAtomic(root, "f", data, sandbox.WriteOptions{}); err != nil {
			os.Exit(4)
		}
	}
}

func TestCreateFileNeverOverwrites(t *testing.T) {
	th := newTestHost(t, nil)
	path := filepath.Join(th.ws, "a.txt")
	write(t, path, "keep")
	before, _ := os.Stat(path)
	mustCode(t, th.call(t, "create_file", map[string]any{"path": path, "content": "lost"}), "FILE_ALREADY_EXISTS")
	after, _ := os.Stat(path)
	if read(t, path) != "keep" || !after.ModTime().Equal(before.ModTime()) {
		t.Error("create_file changed an existing file")
	}
}

func TestPatchFile(t *testing.T) {
	th := newTestHost(t, nil)
	path := filepath.Join(th.ws, "a.go")
	const orig = "package a\n\nfunc A() int { return 1 }\nfunc B() int { return 1 }\n"
	t.Run("not found names the index; nothing applied", func(t *testing.T) {
		write(t, path, orig)
		r := th.call(t, "patch_file", map[string]any{"path": path, "edits": []map[string]string{
			{"old_text": "package a", "new_text": "package b"}, {"old_text": "func C", "new_text": "x"}}})
		mustCode(t, r, "PATCH_TARGET_NOT_FOUND")
		if !strings.Contains(r.Error.Message, "Edit 1") || read(t, path) != orig {
			t.Errorf("message %q; file changed: %v", r.Error.Message, read(t, path) != orig)
		}
	})
	t.Run("not unique names the index", func(t *testing.T) {
		write(t, path, orig)
		r := th.call(t, "patch_file", map[string]any{"path": path, "edits": []map[string]string{
			{"old_text": "A()", "new_text": "AA()"}, {"old_text": "return 1", "new_text": "return 2"}}})
		mustCode(t, r, "PATCH_TARGET_NOT_UNIQUE")
		if !strings.Contains(r.Error.Message, "Edit 1") || read(t, path) != orig {
			t.Errorf("message %q; file changed: %v", r.Error.Message, read(t, path) != orig)
		}
	})
	t.Run("dry run and diff", func(t *testing.T) {
		write(t, path, orig)
		args := map[string]any{"path": path, "dry_run": true, "edits": []map[string]string{
			{"old_text": "func A() int { return 1 }", "new_text": "func A() int { return 2 }"}}}
		r := th.call(t, "patch_file", args)
		mustCode(t, r, "ok")
		diff, _ := r.Data["diff"].(string)
		for _, s := range []string{"--- a/", "+++ b/", "-func A() int { return 1 }", "+func A() int { return 2 }", "@@"} {
			if !strings.Contains(diff, s) {
				t.Errorf("diff lacks %q:\n%s", s, diff)
			}
		}
		if read(t, path) != orig {
			t.Error("dry_run changed the file")
		}
		args["dry_run"] = false
		mustCode(t, th.call(t, "patch_file", args), "ok")
		if want := strings.Replace(orig, "{ return 1 }", "{ return 2 }", 1); read(t, path) != want {
			t.Errorf("file %q, want %q", read(t, path), want)
		}
	})
}

func TestSensitiveFilesDenied(t *testing.T) {
	th := newTestHost(t, nil)
	cases := []struct {
		rel, action, rule string
	}{
		{".env", "read_file", "sensitivity.secret"},
		{".env", "write_file", "sensitivity.secret"},
		{"sub/id_rsa", "read_file", "sensitivity.secret"},
		{"id_rsa.pub", "patch_file", "sensitivity.secret"},
		{".git/config", "read_file", "sensitivity.secret"},
		{".git/config", "write_file", "sensitivity.secret"},
		{".git/config", "patch_file", "sensitivity.secret"},
		{".git/hooks/pre-commit", "write_file", "sensitivity.executes"},
		{".git/hooks/pre-commit", "create_file", "sensitivity.executes"},
		{".vscode/tasks.json", "write_file", "sensitivity.executes"},
		{".bashrc", "patch_file", "sensitivity.executes"},
		{".bashrc", "write_file", "sensitivity.executes"},
	}
	for _, c := range cases {
		t.Run(c.action+" "+c.rel, func(t *testing.T) {
			path := filepath.Join(th.ws, c.rel)
			if c.action != "create_file" {
				write(t, path, "secret")
			}
			r := th.call(t, c.action, map[string]any{"path": path, "content": "x",
				"edits": []map[string]string{{"old_text": "secret", "new_text": "x"}}})
			mustCode(t, r, "PERMISSION_DENIED")
			if r.Error.Rule != c.rule {
				t.Errorf("rule %q, want %q", r.Error.Rule, c.rule)
			}
			if c.action != "create_file" && read(t, path) != "secret" {
				t.Error("the file changed")
			}
		})
	}
}

// permissivePolicy allows everything: the host's own refusal must hold.
const permissivePolicy = `package deskbridge.main

import rego.v1

decision := {"allow": true, "denials": [], "limits": {"timeout_ms": 10000}}
`

// TestProtectedNeverWritten puts the configuration and the decision log
// inside the workspace under a policy that allows everything.
func TestProtectedNeverWritten(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pol := filepath.Join(ws, "policy")
	write(t, filepath.Join(pol, "allow.rego"), permissivePolicy)
	th := &testHost{ws: ws, cfgPath: filepath.Join(ws, "config.json"), logPath: filepath.Join(ws, "log", "decisions.jsonl")}
	cfg := fmt.Sprintf(`{"workspaces":[{"name":"WS","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q},"policy":{"dir":%q}}`,
		ws, testOrigin, th.logPath, pol)
	write(t, th.cfgPath, cfg)
	th.h = startFrom(t, th.cfgPath)
	// The permissive policy is in force: an outside-looking secret passes it.
	mustCode(t, th.call(t, "write_file", map[string]any{"path": filepath.Join(ws, ".env"), "content": "x"}), "ok")
	targets := []string{th.cfgPath, th.logPath, filepath.Join(pol, "allow.rego"), th.logPath + ".1"}
	for _, target := range targets {
		for _, action := range []string{"write_file", "create_file", "patch_file", "create_folder"} {
			t.Run(action+" "+filepath.Base(target), func(t *testing.T) {
				before, _ := os.ReadFile(target)
				r := th.call(t, action, map[string]any{"path": target, "content": "pwned",
					"edits": []map[string]string{{"old_text": "{", "new_text": "pwned"}}})
				if r.Success {
					t.Fatalf("%s wrote %s", action, target)
				}
				after, _ := os.ReadFile(target)
				if strings.HasPrefix(target, th.logPath) {
					// The host appends its own decisions; nothing else may change it.
					after = after[:min(len(after), len(before))]
				}
				if !bytes.Equal(before, after) {
					t.Errorf("%s changed %s", action, target)
				}
			})
		}
	}
}

// TestReadFIFODoesNotBlock: opening a named pipe must not hang the host.
func TestReadFIFODoesNotBlock(t *testing.T) {
	th := newTestHost(t, nil)
	fifo := filepath.Join(th.ws, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	for _, action := range []string{"read_file", "patch_file"} {
		done := make(chan result, 1)
		go func() {
			done <- th.call(t, action, map[string]any{"path": fifo, "edits": []map[string]string{{"old_text": "a", "new_text": "b"}}})
		}()
		select {
		case r := <-done:
			mustCode(t, r, "INVALID_REQUEST")
		case <-time.After(10 * time.Second):
			t.Fatalf("%s of a FIFO blocked", action)
		}
	}
}

// TestWriteFileCappedWithoutAPolicyLimit: a policy whose decision names no
// max_bytes still gets write_file's default cap, not no cap at all.
func TestWriteFileCappedWithoutAPolicyLimit(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pol := filepath.Join(t.TempDir(), "policy")
	write(t, filepath.Join(pol, "allow.rego"), permissivePolicy)
	th := &testHost{ws: ws, cfgPath: filepath.Join(t.TempDir(), "config.json")}
	logPath := filepath.Join(t.TempDir(), "decisions.jsonl") // the test's own log, never the user's
	write(t, th.cfgPath, fmt.Sprintf(`{"workspaces":[{"name":"WS","path":%q}],"allowed_origins":[%q],"policy":{"dir":%q},"decision_log":{"path":%q}}`, ws, testOrigin, pol, logPath))
	th.h = startFrom(t, th.cfgPath)
	path := filepath.Join(ws, "big.txt")
	mustCode(t, th.call(t, "write_file", map[string]any{"path": path, "content": strings.Repeat("x", 1<<20)}), "ok")
	mustCode(t, th.call(t, "write_file", map[string]any{"path": path, "content": strings.Repeat("y", 1<<20+1)}), "INVALID_REQUEST")
	if got := read(t, path); len(got) != 1<<20 || got[0] != 'x' {
		t.Fatalf("the refused write changed the file (%d bytes)", len(got))
	}
}
