//go:build linux

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretNamesThroughTheBinary reads a *.env file with read_file and
// searches for its content with the agent: read_file refuses it as a
// secret and the agent's search neither names it nor prints its lines,
// while a plain file beside it is found (issue 20, item 5).
func TestSecretNamesThroughTheBinary(t *testing.T) {
	f := newFixture(t, nil)
	const token = "PROD_DB_PASSWORD=hunter2-in-prod"
	f.write(t, "config/prod.env", token+"\n", 0o644)
	f.write(t, "config/README.md", "PROD_DB_PASSWORD is set in the vault\n", 0o644)
	for _, rel := range []string{"config/prod.env", ".kube/config", "infra/terraform.tfvars", "certs/a.p12"} {
		f.write(t, rel, token+"\n", 0o644)
		r, out := f.call(t, "read_file", map[string]any{"path": filepath.Join(f.ws, rel)})
		if r.Success || r.Error.Rule != "sensitivity.secret" || strings.Contains(string(out), "hunter2") {
			t.Errorf("read_file %s: %s", rel, out)
		}
	}

	start, out := f.call(t, "web_agent_start", map[string]any{"mode": "workspace-context", "workspace": "ws"})
	var started struct {
		Data struct {
			RunID string `json:"run_id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(out, &started); err != nil || !start.Success {
		t.Fatalf("web_agent_start: %s", out)
	}
	_, out = f.call(t, "web_agent_context", map[string]any{"run_id": started.Data.RunID, "requests": []map[string]any{
		{"type": "search_workspace", "query": "PROD_DB_PASSWORD"},
		{"type": "search_workspace", "query": "prod"},
		{"type": "list_directory", "path": "config"},
		{"type": "read_file", "path": "config/prod.env"},
	}})
	s := string(out)
	// prod.env is named once: in the error of the read_file that asked for it.
	if strings.Contains(s, "hunter2") || strings.Count(s, "prod.env") != 1 || strings.Contains(s, "tfvars") {
		t.Errorf("the agent saw a secret file: %s", out)
	}
	if !strings.Contains(s, "config/README.md") {
		t.Errorf("the agent's search did not find the plain file: %s", out)
	}
}
