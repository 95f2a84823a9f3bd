package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// servedRotatingLog serves n mixed requests (reads inside and outside the
// workspace, listings, status) on one port of a host whose log rotates
// every 12,000 bytes and keeps two rotated files, and returns the log.
func servedRotatingLog(t *testing.T, n int) (logFile, cfg string) {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	os.Mkdir(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644)
	logFile = filepath.Join(dir, "log", "decisions.jsonl")
	cfg = filepath.Join(dir, "config.json")
	os.WriteFile(cfg, fmt.Appendf(nil, `{"workspaces":[{"name":"Demo","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q,"max_bytes":12000,"keep":2},"state_dir":%q}`,
		ws, origin, logFile, filepath.Join(dir, "state")), 0o600)
	p := start(t, []string{"--config", cfg, origin})
	for i := range n {
		var action, args string
		switch i % 4 {
		case 0:
			action, args = "read_file", `{"path":`+quoteJSON(filepath.Join(ws, "a.txt"))+`}`
		case 1:
			action, args = "read_file", `{"path":`+quoteJSON(filepath.Join(dir, "outside.txt"))+`}`
		case 2:
			action, args = "list_folder", `{"path":`+quoteJSON(ws)+`}`
		default:
			action, args = "get_status", `{}`
		}
		p.request(fmt.Sprintf("r%d", i), action, args)
	}
	if code := p.closeAndWait(); code != 0 {
		t.Fatalf("host exit %d\n%s", code, p.stderr)
	}
	return logFile, cfg
}

// TestRotatedLogReplays: a log whose oldest files rotation deleted
// replays with exit 0, as it is and exported: every file starts with the
// context line its decisions name (#36.1).
func TestRotatedLogReplays(t *testing.T) {
	logFile, _ := servedRotatingLog(t, 40)
	if _, err := os.Stat(logFile + ".2.gz"); err != nil {
		t.Fatalf("the log did not rotate twice: %v", err)
	}
	out, code := runLogged(t, "log", "verify", "--log", logFile)
	if code != 0 || !strings.Contains(out, "deleted by rotation") {
		t.Fatalf("verify: exit %d, want intact with its oldest files deleted\n%s", code, out)
	}
	if out, code := runLogged(t, "replay", "--log", logFile); code != 0 || !strings.Contains(out, " 0 unreplayable") {
		t.Fatalf("replay of a rotated log: exit %d\n%s", code, out)
	}
	dst := filepath.Join(t.TempDir(), "audit")
	if _, code := runLogged(t, "log", "export", "--log", logFile, "--to", dst); code != 0 {
		t.Fatalf("export: exit %d", code)
	}
	if out, code := runLogged(t, "replay", "--log", filepath.Join(dst, "decisions.jsonl")); code != 0 {
		t.Fatalf("replay of the export: exit %d\n%s", code, out)
	}
}
