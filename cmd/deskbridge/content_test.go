//go:build linux

package main

import (
	"encoding/json"
	"github.com/deskbridge/deskbridge/internal/testkit/secrettest"
	"os"
	"strings"
	"testing"
)

// TestContentSecretsThroughTheBinary puts a cloud access key and a
// private key in innocently named files: read_file refuses them (rule
// content.secret, naming the format), read_file of a page in the middle
// of the key block is refused too, run_command's output and the agent's
// read and search come back with the secrets overwritten, and the
// decision log names the rules but never holds a secret (issue 20, item 5).
func TestContentSecretsThroughTheBinary(t *testing.T) {
	f := newFixture(t, nil)
	aws := "AKIA" + secrettest.Token(1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	body := secrettest.Token(2, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 1600)
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + body + "\n-----END OPENSSH PRIVATE KEY-----\n"
	notes := f.write(t, "notes.txt", "deploy with\naws_access_key_id = "+aws+"\nthanks\n", 0o644)
	backup := f.write(t, "backup.txt", key, 0o644)
	plain := f.write(t, "plain.txt", "nothing to see\n", 0o644)

	r, out := f.call(t, "read_file", map[string]any{"path": notes})
	if r.Success || r.Error.Rule != "content.secret" || !strings.Contains(r.Error.Message, "aws-access-token") || strings.Contains(string(out), aws) {
		t.Errorf("read_file notes.txt: %s", out)
	}
	r, out = f.call(t, "read_file", map[string]any{"path": backup, "offset": 800, "length": 16})
	if r.Success || r.Error.Rule != "content.secret" || !strings.Contains(r.Error.Message, "private-key") {
		t.Errorf("read_file of a page inside the key block: %s", out)
	}
	if r, out := f.call(t, "read_file", map[string]any{"path": plain}); !r.Success {
		t.Errorf("read_file plain.txt: %s", out)
	}

	r, out = f.call(t, "run_command", map[string]any{"argv": []string{"cat", "notes.txt", "backup.txt"}, "cwd": f.ws})
	if !r.Success || strings.Contains(r.Data.Stdout, aws) || strings.Contains(r.Data.Stdout, body[100:140]) ||
		!strings.Contains(r.Data.Stdout, "aws_access_key_id = "+strings.Repeat("*", len(aws))) || !strings.Contains(r.Data.Stdout, "thanks") {
		t.Errorf("run_command cat: %s", out)
	}

	_, out = f.call(t, "web_agent_start", map[string]any{"mode": "workspace-context", "workspace": "ws"})
	var started struct {
		Data struct {
			RunID string `json:"run_id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(out, &started); err != nil {
		t.Fatalf("web_agent_start: %s", out)
	}
	r, out = f.call(t, "web_agent_context", map[string]any{"run_id": started.Data.RunID, "requests": []map[string]any{
		{"type": "read_file", "path": "notes.txt"},
		{"type": "search_workspace", "query": "aws_access_key_id"},
	}})
	if !r.Success || strings.Contains(string(out), aws) || !strings.Contains(string(out), "thanks") {
		t.Errorf("web_agent_context: %s", out)
	}

	log, err := os.ReadFile(f.log)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), aws) || strings.Contains(string(log), body[100:140]) {
		t.Error("the decision log holds a secret")
	}
	for _, want := range []string{`"rule":"aws-access-token"`, `"rule":"private-key"`, `"outcome":"refused"`, `"outcome":"sent"`} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the decision log lacks %s", want)
		}
	}
}
