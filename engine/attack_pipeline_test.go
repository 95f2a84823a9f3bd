//go:build unix

package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/wire"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
)

const attackOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

// attackHost starts a host over one workspace with its decision log at
// logPath (an absolute path in a temp folder when empty).
func attackHost(t *testing.T, ws, logPath string) *Host {
	t.Helper()
	if logPath == "" {
		logPath = filepath.Join(t.TempDir(), "decisions.jsonl")
	}
	cfg := &config.Config{
		Workspaces:     []config.Workspace{{Name: "Demo", Path: ws}},
		AllowedOrigins: []string{attackOrigin},
		DecisionLog:    config.DecisionLog{Path: logPath},
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err = config.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Start(context.Background(), Options{Config: cfg, Origin: attackOrigin, Channel: ChannelNative, HostLog: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func attackRequest(t *testing.T, action string, args any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"version": 1, "id": "atk", "action": action, "arguments": args})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A FIFO named like a text file in the workspace: read_file blocks in
// open(2) past the request timeout, and after the browser closes the port
// Serve never returns (it waits for the stuck worker), so the host never
// exits. PoolSize such requests stop every later request of the port.
func TestAttackServeHangsOnFIFO(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(ws, "notes.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	h := attackHost(t, ws, "")
	in := wire.Append(nil, attackRequest(t, "read_file", map[string]any{"path": fifo}))
	done := make(chan error, 1)
	go func() { done <- h.Serve(context.Background(), bytes.NewReader(in), io.Discard) }()
	select {
	case <-done:
	case <-time.After(proctest.Bound):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // release the worker
			w.Close()
		}
		<-done
		t.Fatal("Serve did not return after EOF: read_file on a FIFO blocked the worker in open(2); refuse non-regular files before opening and open with O_NONBLOCK")
	}
}

// patch_file's edits are file content, yet they enter the policy input
// and the decision log verbatim (only top-level string members named in
// Spec.Digest are digested).
func TestAttackPatchFileContentInDecisionLog(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const oldText, newText = "API_TOKEN=old-9f8e7d", "API_TOKEN=new-1a2b3c"
	target := filepath.Join(ws, "settings.txt")
	if err := os.WriteFile(target, []byte("a\n"+oldText+"\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "decisions.jsonl")
	h := attackHost(t, ws, logPath)
	resp := h.Handle(context.Background(), attackRequest(t, "patch_file", map[string]any{
		"path": target, "edits": []map[string]string{{"old_text": oldText, "new_text": newText}},
	}))
	if !resp.Success {
		t.Fatalf("patch_file failed: %+v", resp.Error)
	}
	h.Close()
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{oldText, newText} {
		if bytes.Contains(log, []byte(s)) {
			t.Errorf("the decision log holds file content %q; patch_file edits must enter the input as {length, sha256}", s)
		}
	}
}

// A relative decision_log.path (or policy.dir, state_dir) is opened
// relative to the working folder, but protectedPaths keeps it relative and
// facts.NewResolver silently drops what pathform cannot parse: the host
// then writes its own decision log.
func TestAttackRelativeDecisionLogIsNotProtected(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(ws)
	h := attackHost(t, ws, "decisions.jsonl")
	logAbs := filepath.Join(ws, "decisions.jsonl")
	resp := h.Handle(context.Background(), attackRequest(t, "write_file", map[string]any{"path": logAbs, "content": "forged\n"}))
	if resp.Success {
		t.Fatalf("write_file replaced DeskBridge's own decision log %s; want PERMISSION_DENIED", logAbs)
	}
}

// `deskbridge call` without a configuration serves the current folder. The
// host's default configuration file (config.DefaultPath, what Chrome's host
// loads) is not among the protected paths, so from the home folder
// `deskbridge call write_file` rewrites it (e.g. to make / a workspace).
// The same holds in host mode when --config or DESKBRIDGE_CONFIG names
// another file.
func TestAttackDefaultConfigIsNotProtected(t *testing.T) {
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	cfgPath := config.DefaultPath()
	if !strings.HasPrefix(cfgPath, home) {
		t.Fatalf("DefaultPath %s is not under HOME %s", cfgPath, home)
	}
	if err := os.MkdirAll(filepath.Dir(cfgPath), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.ForFolder(home, "") // as deskbridge call: the default decision log
	if err != nil {
		t.Fatal(err)
	}
	h, err := Start(context.Background(), Options{Config: cfg, Channel: ChannelCLI, HostLog: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	resp := h.Handle(context.Background(), attackRequest(t, "write_file", map[string]any{
		"path": cfgPath, "content": `{"workspaces":[{"name":"all","path":"/"}]}`,
	}))
	if resp.Success {
		t.Fatalf("write_file rewrote DeskBridge's default configuration %s; it must be protected whatever configuration is in use", cfgPath)
	}
}
