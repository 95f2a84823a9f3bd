//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/secrettest"
)

// TestPlantedKeyInEveryFormatThroughTheBinary plants an AWS key id and an
// OpenSSH private key in a file of every format the document converter
// reads and in a file's name, and asks the host over Native Messaging for
// each file's conversion (refused, content.secret) and read, a listing
// (refused, content.unhandled) and the agent's reads of the key one line
// at a time: nothing the host writes holds the key id or a line of the key,
// nor does its decision log (issue 34, item 1).
func TestPlantedKeyInEveryFormatThroughTheBinary(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	aws, key := secrettest.AWSKeyID(41), secrettest.OpenSSHKey(42)
	docs := secrettest.Documents(aws, key)
	for _, d := range docs {
		if err := os.WriteFile(filepath.Join(ws, d.Name), d.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, aws+".txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := start(t, []string{"--config", cfg, origin})
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for i, d := range docs {
		path := quote(filepath.Join(ws, d.Name))
		r := p.request(fmt.Sprintf("c%d", i), "convert_document_to_markdown", `{"path":`+path+`}`)
		if r.Success || r.Error.Rule != "content.secret" {
			t.Errorf("convert_document_to_markdown %s: success %v, error %+v", d.Name, r.Success, r.Error)
		}
		if r := p.request(fmt.Sprintf("r%d", i), "read_file", `{"path":`+path+`}`); r.Success && strings.Contains(string(r.Data), aws) {
			t.Errorf("read_file %s sent the key id", d.Name)
		}
	}
	if r := p.request("l", "list_folder", `{"path":`+quote(ws)+`}`); r.Success || r.Error.Rule != "content.unhandled" {
		t.Errorf("list_folder of a folder with a file named after a key id: success %v, error %+v", r.Success, r.Error)
	}
	r := p.request("s", "web_agent_start", `{"mode":"workspace-context","workspace":"Demo"}`)
	var started struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal(r.Data, &started); err != nil || started.RunID == "" {
		t.Fatalf("web_agent_start: %s", r.Data)
	}
	for first := 1; first <= 30; first += 4 {
		var reqs []string
		for line := first; line < first+4; line++ {
			reqs = append(reqs, fmt.Sprintf(`{"type":"read_file","path":"notes.txt","start_line":%d,"max_lines":1}`, line))
		}
		if r := p.request(fmt.Sprintf("a%d", first), "web_agent_context", `{"run_id":`+quote(started.RunID)+`,"requests":[`+strings.Join(reqs, ",")+`]}`); !r.Success {
			t.Fatalf("web_agent_context: %+v", r.Error)
		}
	}
	if code := p.closeAndWait(); code != 0 {
		t.Fatalf("exit %d: %s", code, p.stderr)
	}
	log, err := os.ReadFile(filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range secrettest.Fragments(aws, key) {
		if strings.Contains(p.raw.String(), f) {
			t.Errorf("the host sent %q, a piece of the planted secrets", f)
		}
		if strings.Contains(string(log), f) {
			t.Errorf("the decision log holds %q, a piece of the planted secrets", f)
		}
	}
	if !strings.Contains(p.raw.String(), `"content":"**********`) || !strings.Contains(p.raw.String(), `"content":"Deploy notes\n"`) {
		t.Error("the agent's line reads did not come back with the key's lines overwritten")
	}
}
