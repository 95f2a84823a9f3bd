package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/secrettest"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

// leaks returns the fragments of the planted secrets in b.
func leaks(b []byte, fragments []string) []string {
	var out []string
	for _, f := range fragments {
		if strings.Contains(string(b), f) {
			out = append(out, f)
		}
	}
	return out
}

// plantedHost is a desktop test host whose workspace holds the planted
// key in a file of every format the converter reads (docs/), a file
// named after the key id (names/), and whose clipboard and window title
// hold them too.
func plantedHost(t *testing.T, aws, key string) (*testHost, []secrettest.Document) {
	th, f := desktopHost(t)
	docs := secrettest.Documents(aws, key)
	for _, d := range docs {
		write(t, filepath.Join(th.ws, "docs", d.Name), string(d.Data))
	}
	write(t, filepath.Join(th.ws, "names", aws+".txt"), "x\n")
	f.clip[desktop.Text] = []byte("copied " + aws + "\n" + key)
	f.title = "vim " + aws
	return th, docs
}

// TestNoActionReturnsAPlantedKey plants an AWS key id and an OpenSSH
// private key in a file of every format the document converter reads,
// in a file name, the clipboard and the window title, and calls every
// action that reads any of them: no answer (nor the decision log) holds
// the key id or any line of the key, whatever the action (issue 34,
// item 1).
func TestNoActionReturnsAPlantedKey(t *testing.T) {
	aws, key := secrettest.AWSKeyID(11), secrettest.OpenSSHKey(12)
	fragments := secrettest.Fragments(aws, key)
	th, docs := plantedHost(t, aws, key)
	check := func(what string, out []byte) {
		t.Helper()
		if l := leaks(out, fragments); len(l) > 0 {
			t.Errorf("%s sent %d pieces of the planted secrets: %.300s", what, len(l), out)
		}
	}
	for _, d := range docs {
		p := filepath.Join(th.ws, "docs", d.Name)
		conv := th.encoded(t, "convert_document_to_markdown", map[string]any{"path": p})
		check("convert_document_to_markdown "+d.Name, conv)
		if !strings.Contains(string(conv), `"content.secret"`) {
			t.Errorf("convert_document_to_markdown %s was not refused as content.secret: %.300s", d.Name, conv)
		}
		check("read_file "+d.Name, th.encoded(t, "read_file", map[string]any{"path": p}))
		check("run_command cat "+d.Name, th.encoded(t, "run_command", map[string]any{"argv": []string{"cat", "docs/" + d.Name}, "cwd": th.ws}))
	}
	check("list_folder", th.encoded(t, "list_folder", map[string]any{"path": filepath.Join(th.ws, "names")}))
	check("run_command ls", th.encoded(t, "run_command", map[string]any{"argv": []string{"ls", "names"}, "cwd": th.ws}))
	check("get_clipboard", th.encoded(t, "get_clipboard", map[string]any{}))
	check("get_active_window", th.encoded(t, "get_active_window", map[string]any{}))
	check("patch_file", th.encoded(t, "patch_file", map[string]any{"path": filepath.Join(th.ws, "docs", "notes.txt"),
		"edits": []any{map[string]any{"old_text": "Deploy notes", "new_text": "Deploy"}}, "dry_run": true}))

	run := startRun(t, th)
	requests := []map[string]any{{"type": "list_directory", "path": "names"}, {"type": "search_workspace", "query": "."}, {"type": "search_workspace", "query": aws[:8]}}
	for _, d := range docs {
		requests = append(requests, map[string]any{"type": "read_file", "path": "docs/" + d.Name})
	}
	for len(requests) > 0 {
		n := min(len(requests), 8)
		check("web_agent_context", th.encoded(t, "web_agent_context", map[string]any{"run_id": run, "requests": requests[:n]}))
		requests = requests[n:]
	}

	log, err := os.ReadFile(th.logPath)
	if err != nil {
		t.Fatal(err)
	}
	check("the decision log", log)
}

// TestAgentLineByLineReadsCaught: the agent reads a private key one line
// per request, three requests a round, across the rounds of one run: every line comes back
// overwritten (each piece is judged with the file's text around it),
// while a line without a secret comes back as it is.
func TestAgentLineByLineReadsCaught(t *testing.T) {
	aws, key := secrettest.AWSKeyID(21), secrettest.OpenSSHKey(22)
	th, _ := plantedHost(t, aws, key)
	run := startRun(t, th)
	lines := strings.Count(string(secrettest.Documents(aws, key)[0].Data), "\n")
	var got strings.Builder
	for first := 1; first <= lines+1; first += 3 { // three requests of one line per round
		var reqs []map[string]any
		for line := first; line < first+3; line++ {
			reqs = append(reqs, map[string]any{"type": "read_file", "path": "docs/notes.txt", "start_line": line, "max_lines": 1})
		}
		out := th.encoded(t, "web_agent_context", map[string]any{"run_id": run, "requests": reqs})
		var r struct {
			Success bool `json:"success"`
			Data    struct {
				Results []struct {
					Data struct {
						Content string `json:"content"`
					} `json:"data"`
				} `json:"results"`
			} `json:"data"`
		}
		if err := json.Unmarshal(out, &r); err != nil || !r.Success || len(r.Data.Results) != 3 {
			t.Fatalf("lines %d-%d: %s", first, first+2, out)
		}
		for _, res := range r.Data.Results {
			got.WriteString(res.Data.Content)
		}
	}
	if l := leaks([]byte(got.String()), secrettest.Fragments(aws, key)); len(l) > 0 {
		t.Errorf("the lines read one at a time hold %d pieces of the secrets:\n%s", len(l), got.String())
	}
	if !strings.Contains(got.String(), "Deploy notes\n") || !strings.Contains(got.String(), "aws_access_key_id = ****") {
		t.Errorf("the lines without a secret did not come back as they are:\n%s", got.String())
	}
}

// startRun starts a workspace-context agent run on the test workspace.
func startRun(t *testing.T, th *testHost) string {
	t.Helper()
	r := th.call(t, "web_agent_start", map[string]any{"mode": "workspace-context", "workspace": "WS"})
	mustCode(t, r, "ok")
	return r.Data["run_id"].(string)
}
