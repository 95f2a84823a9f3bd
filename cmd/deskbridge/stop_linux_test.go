package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStopSignalsEndWorkAsEOFDoes: SIGTERM (a browser or a log-out),
// SIGINT and SIGHUP end the host as the browser closing the port does: a
// running command is killed with its process tree, a download in flight
// leaves no temporary file, each request gets its outcome line, and the
// host exits with 128 + the signal's number.
func TestStopSignalsEndWorkAsEOFDoes(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			sending := make(chan struct{}, 1)
			release := make(chan struct{})
			defer close(release)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "image/png")
				w.Write(append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64<<10)...))
				w.(http.Flusher).Flush()
				sending <- struct{}{}
				select { // the rest never comes while the host runs
				case <-release:
				case <-r.Context().Done():
				}
			}))
			defer srv.Close()

			f := newFixture(t, nil)
			cfg := map[string]any{
				"workspaces":      []map[string]string{{"name": "ws", "path": f.ws}},
				"allowed_origins": []string{testOrigin},
				"decision_log":    map[string]string{"path": f.log},
				"state_dir":       filepath.Join(f.dir, "state"),
				"network":         map[string]any{"allow_private": []string{"127.0.0.1/32"}},
			}
			b, _ := json.Marshal(cfg)
			if err := os.WriteFile(f.config, b, 0o600); err != nil {
				t.Fatal(err)
			}
			pidFile := filepath.Join(f.ws, "self.pid")
			f.write(t, "self.js", "require('fs').writeFileSync('"+pidFile+"', String(process.pid));\nsetInterval(() => {}, 1000);\n", 0o644)

			p := start(t, []string{"--config", f.config, testOrigin})
			send := func(id, action string, args map[string]any) {
				a, _ := json.Marshal(args)
				req, _ := json.Marshal(map[string]any{"version": 1, "id": id, "action": action, "arguments": json.RawMessage(a)})
				p.send(frame(req))
			}
			send("cmd", "run_command", map[string]any{"argv": []string{"node", "self.js"}, "cwd": f.ws})
			send("dl", "download_asset", map[string]any{"url": srv.URL + "/big.png", "destination": filepath.Join(f.ws, "big.png")})
			pid := readPid(t, pidFile)
			<-sending

			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			p.cmd.WaitDelay = 10 * time.Second // a process left holding stderr must not hang the test
			exited := make(chan struct{})
			go func() { p.cmd.Wait(); close(exited) }()
			select {
			case <-exited:
			case <-time.After(time.Minute):
				p.cmd.Process.Kill()
				<-exited
				t.Fatalf("the host did not end within a minute of %s\nstderr: %s", sig, p.stderr)
			}
			if got, want := p.cmd.ProcessState.ExitCode(), 128+int(sig); got != want {
				t.Errorf("exit status %d, want %d\nstderr: %s", got, want, p.stderr)
			}
			waitGone(t, pid)
			entries, _ := os.ReadDir(f.ws)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".deskbridge-") || e.Name() == "big.png" {
					t.Errorf("left in the workspace after %s: %s", sig, e.Name())
				}
			}
			for _, id := range []string{"cmd", "dl"} {
				if !outcomeOf(t, f.log, id) {
					t.Errorf("no outcome line for %s after %s", id, sig)
				}
			}
		})
	}
}

// TestKilledHostLeavesNoTemporaryFile: a host killed with SIGKILL in the
// middle of a download leaves nothing in the workspace (the download is
// written to an unnamed O_TMPFILE file, linked into place only when whole).
func TestKilledHostLeavesNoTemporaryFile(t *testing.T) {
	sending := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 1<<20)...))
		w.(http.Flusher).Flush()
		sending <- struct{}{}
		<-r.Context().Done()
	}))
	defer srv.Close()
	f := newFixture(t, nil)
	cfg, _ := json.Marshal(map[string]any{
		"workspaces":      []map[string]string{{"name": "ws", "path": f.ws}},
		"allowed_origins": []string{testOrigin},
		"decision_log":    map[string]string{"path": f.log},
		"state_dir":       filepath.Join(f.dir, "state"),
		"network":         map[string]any{"allow_private": []string{"127.0.0.1/32"}},
	})
	if err := os.WriteFile(f.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	p := start(t, []string{"--config", f.config, testOrigin})
	args, _ := json.Marshal(map[string]any{"url": srv.URL + "/big.png", "destination": filepath.Join(f.ws, "big.png")})
	req, _ := json.Marshal(map[string]any{"version": 1, "id": "dl", "action": "download_asset", "arguments": json.RawMessage(args)})
	p.send(frame(req))
	<-sending // the first MiB has left the server: the host is inside the copy
	p.cmd.Process.Kill()
	p.cmd.Wait()
	if es, _ := os.ReadDir(f.ws); len(es) != 0 {
		var left []string
		for _, e := range es {
			left = append(left, e.Name())
		}
		t.Fatalf("a killed download left %v in the workspace", left)
	}
}
