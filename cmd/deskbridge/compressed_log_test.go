package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompressedRotatedLogThroughTheBinary: a host whose log rotates
// leaves FILE.n.gz behind; log verify, log query, replay and log export
// (and replay of the export) read them as one chain, and a compressed
// file cut short is reported by verify and refused by replay.
func TestCompressedRotatedLogThroughTheBinary(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	os.Mkdir(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644)
	log := filepath.Join(dir, "log", "decisions.jsonl")
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, fmt.Appendf(nil, `{"workspaces":[{"name":"Demo","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q,"max_bytes":3000,"keep":50},"state_dir":%q}`,
		ws, origin, log, filepath.Join(dir, "state")), 0o600)
	for range 6 {
		runBin(t, ws, nil, "--config", cfg, "call", "read_file", `{"path":`+quoteJSON(filepath.Join(ws, "a.txt"))+`}`)
		runBin(t, ws, nil, "--config", cfg, "call", "read_file", `{"path":`+quoteJSON(filepath.Join(dir, "outside.txt"))+`}`)
	}
	gz, _ := filepath.Glob(log + ".*.gz")
	if len(gz) < 2 {
		t.Fatalf("compressed rotated files %v; want the log to have rotated", gz)
	}
	if out, errOut, code := runBin(t, "", nil, "log", "verify", "--log", log); code != 0 || !strings.Contains(out, "intact") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := runBin(t, "", nil, "log", "query", "--log", log, "--summary")
	if code != 0 || !strings.Contains(out, `"action":"read_file","outcome":"OK","count":6`) || !strings.Contains(out, `"outcome":"WORKSPACE_VIOLATION","count":6`) {
		t.Fatalf("query: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := runBin(t, "", nil, "replay", "--log", log); code != 0 || !strings.Contains(out, "12 decision") {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errOut)
	}
	dst := filepath.Join(t.TempDir(), "audit")
	if out, errOut, code := runBin(t, "", nil, "log", "export", "--log", log, "--to", dst); code != 0 {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	if copied, _ := filepath.Glob(filepath.Join(dst, "decisions.jsonl.*.gz")); len(copied) != len(gz) {
		t.Fatalf("export copied %v of %v", copied, gz)
	}
	if out, errOut, code := runBin(t, "", nil, "replay", "--log", filepath.Join(dst, "decisions.jsonl")); code != 0 {
		t.Fatalf("replay of the export: exit %d\n%s%s", code, out, errOut)
	}

	// A compressed file cut short.
	b, _ := os.ReadFile(gz[0])
	os.WriteFile(gz[0], b[:len(b)-10], 0o600)
	if out, errOut, code := runBin(t, "", nil, "log", "verify", "--log", log); code != 1 || !strings.Contains(out, "cut short or damaged") {
		t.Errorf("verify of a cut .gz: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := runBin(t, "", nil, "replay", "--log", log); code == 0 {
		t.Errorf("replay of a cut .gz: exit 0\n%s%s", out, errOut)
	}
}
