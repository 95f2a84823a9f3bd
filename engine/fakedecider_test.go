package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

// fakeDecider answers every request with dec and keeps the inputs it saw.
type fakeDecider struct {
	dec    policy.Decision
	inputs []map[string]any
}

func (f *fakeDecider) Decide(_ context.Context, in policy.InputDocument) (policy.Decision, error) {
	m, err := in.Map()
	f.inputs = append(f.inputs, m)
	return f.dec, err
}

func (f *fakeDecider) Hash() string { return "fake" }

// fakeHost is a host on a one-folder workspace that decides with d and
// keeps no log: no Rego is compiled.
func fakeHost(t *testing.T, d Decider) (*Host, string) {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.ForFolder(ws, filepath.Join(t.TempDir(), "decisions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	env := &action.Env{Config: cfg, Roots: &sandbox.Roots{},
		Paths: facts.NewResolver(cfg.Workspaces, nil, facts.NewClassifier(cfg.Sensitivity.Secret, cfg.Sensitivity.Executes))}
	h := &Host{env: env, decider: d, channel: ChannelCLI, originOK: true, hostLog: os.Stderr, now: time.Now}
	// Closed before the folders are removed: Windows removes no folder an
	// open root handle holds.
	t.Cleanup(func() { h.Close() })
	return h, ws
}

// TestFakeDecider runs read_file through the pipeline with a decider
// that is not Rego: the decider sees the typed input document, an allow
// runs the executor, and a denial answers with its code and rule.
func TestFakeDecider(t *testing.T) {
	allow := &fakeDecider{dec: policy.Decision{Allow: true, Limits: map[string]int64{"max_bytes": 1 << 20}}}
	h, ws := fakeHost(t, allow)
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	payload := []byte(`{"version":1,"id":"f1","action":"read_file","arguments":{"path":` + quote(filepath.Join(ws, "a.txt")) + `}}`)
	resp := h.Handle(context.Background(), payload)
	if !resp.Success {
		t.Fatalf("allowed read failed: %+v", resp.Error)
	}
	if len(allow.inputs) != 1 {
		t.Fatalf("decider asked %d times", len(allow.inputs))
	}
	target := allow.inputs[0]["paths"].(map[string]any)["target"].(map[string]any)
	if target["canonical"] != filepath.Join(ws, "a.txt") || target["inside"] != true {
		t.Fatalf("input.paths.target = %v", target)
	}

	deny := &fakeDecider{dec: policy.Decision{Denials: []policy.Denial{{Code: protocol.WorkspaceViolation, Rule: "fake.rule", Message: "No."}}}}
	h, ws = fakeHost(t, deny)
	payload = []byte(`{"version":1,"id":"f2","action":"read_file","arguments":{"path":` + quote(filepath.Join(ws, "a.txt")) + `}}`)
	resp = h.Handle(context.Background(), payload)
	if resp.Success || resp.Error.Code != protocol.WorkspaceViolation || resp.Error.Rule != "fake.rule" {
		t.Fatalf("denied read answered %+v", resp)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
