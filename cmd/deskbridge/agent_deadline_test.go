package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAgentSearchKeepsItsTimeout: a search_workspace pattern that costs
// Go's regexp tens of µs a byte, over three 256 KiB files, with the round's
// timeout at one second, answers with what it found by then, cut by
// "time", instead of scanning for tens of seconds and answering late as a
// plain success.
func TestAgentSearchKeepsItsTimeout(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("big%d.txt", i)), []byte(strings.Repeat("abcdefghij\n", 256<<10/11)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "config.json")
	doc := fmt.Sprintf(`{"workspaces":[{"name":"Demo","path":%q}],"allowed_origins":[%q],"state_dir":%q,
		"decision_log":{"path":%q},"limits":{"web_agent_context":{"timeout_ms":1000}}}`,
		ws, agentOrigin, filepath.Join(dir, "state"), filepath.Join(dir, "state", "decisions.jsonl"))
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startAgentHost(t, cfg)
	s := h.call(t, "web_agent_start", `{"mode":"workspace-context","workspace":"Demo"}`)
	if !s.Success {
		t.Fatalf("web_agent_start: %+v", s)
	}
	r := h.call(t, "web_agent_context", fmt.Sprintf(`{"run_id":%q,"requests":[{"type":"search_workspace","query":"(?s).{1000}\\x01","regex":true}]}`, s.Data.RunID))
	if !r.Success || !slices.Contains(r.Data.TruncatedBy, "time") {
		t.Fatalf("search answered %+v; want success cut by \"time\"", r)
	}
}
