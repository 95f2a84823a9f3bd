package decisionlog_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// The pipeline logs the decision before acting and the outcome after it.
func Example() {
	dir, _ := os.MkdirTemp("", "decisionlog")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "decisions.jsonl")

	l, err := decisionlog.Open(path, decisionlog.Options{MaxBytes: 100 << 20, Keep: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	ev := &decisionlog.Event{
		Path:      "deskbridge/main/decision",
		RequestID: "req-1",
		Action:    "get_status",
		Outcome:   decisionlog.OutcomeOK, // the policy allowed it
		Input:     map[string]any{"request": map[string]any{"action": "get_status"}},
		Result:    map[string]any{"allow": true},
	}
	if err := l.WriteDecision(context.Background(), ev); err != nil {
		fmt.Println(err) // do not act on a decision that was not logged
		return
	}
	// … the action runs here …
	l.WriteOutcome(ev, decisionlog.OutcomeOK, 2*time.Millisecond, nil)
	l.Close()

	rep, _ := decisionlog.VerifyFile(path)
	fmt.Println(rep.OK(), rep.Lines) // a context line, the decision, its outcome
	// Output: true 3
}
