package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// TestDocumentLogsAsMarshalJSON: a decision document written to the
// decision log through its ASTValue fast path reads back as what its
// MarshalJSON writes, for an allowed and a denied decision.
func TestDocumentLogsAsMarshalJSON(t *testing.T) {
	e, err := New(context.Background(), Embedded(), Options{Data: benchConfig})
	if err != nil {
		t.Fatal(err)
	}
	denied := ast.MustInterfaceToValue(map[string]any{
		"version": 1, "time_ns": 0,
		"request": map[string]any{"id": "t", "action": "read_file", "skill": "files",
			"origin": "chrome-extension://zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz/", "channel": "native",
			"arguments": map[string]any{"path": "/etc/passwd"}},
		"paths": map[string]any{"target": map[string]any{
			"input": "/etc/passwd", "canonical": "/etc/passwd", "workspace": "", "workspace_root": "",
			"relative": "", "inside": false, "exists": true, "type": "file", "sensitivity": "",
			"protected": false, "links": 1,
		}},
	})
	for name, in := range map[string]ast.Value{"allowed": benchInput, "denied": denied} {
		t.Run(name, func(t *testing.T) {
			d, err := e.Decide(context.Background(), InputDocumentOf(in))
			if err != nil {
				t.Fatal(err)
			}
			doc, ok := d.Result.(Document)
			if !ok {
				t.Fatalf("result is %T, want Document", d.Result)
			}
			want, err := doc.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got := loggedResult(t, doc)
			var a, b any
			if err := json.Unmarshal(want, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) || !bytes.Equal(bytes.TrimSpace(want), got) {
				t.Fatalf("logged result\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// loggedResult writes one decision event holding result to a new log and
// returns the bytes of its "result" member as written.
func loggedResult(t *testing.T, result any) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	l, err := decisionlog.Open(path, decisionlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ev := &decisionlog.Event{DecisionID: "d-1", Path: "deskbridge/main/decision", Input: map[string]any{},
		Result: result, Phase: decisionlog.PhaseDecision, Outcome: decisionlog.OutcomeOK}
	if err := l.WriteDecision(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	line, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(line), []byte("\n")) // a context line, then the decision
	var members map[string]json.RawMessage
	if err := json.Unmarshal(lines[len(lines)-1], &members); err != nil {
		t.Fatal(err)
	}
	return members["result"]
}
