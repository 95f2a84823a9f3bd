package decisionlog

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// sampleEvent is a decision event for request i.
func sampleEvent(i int) *Event {
	return &Event{
		Path:       "deskbridge/main/decision",
		RequestID:  fmt.Sprintf("req-%d", i),
		Action:     "read_file",
		Origin:     "chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
		Outcome:    OutcomeOK,
		PolicyHash: "policy-hash",
		ConfigHash: "config-hash",
		Input: map[string]any{"request": map[string]any{
			"id": fmt.Sprintf("req-%d", i), "action": "read_file",
			"arguments": map[string]any{"path": "/home/ann/Demo/a.txt"},
		}},
		Result:  map[string]any{"allow": true},
		Metrics: map[string]any{"timer_rego_query_eval_ns": 1200},
	}
}

// writePairs appends n decision/outcome pairs to l.
func writePairs(t testing.TB, l *Log, n int) {
	t.Helper()
	for i := range n {
		ev := sampleEvent(i)
		if err := l.WriteDecision(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		if err := l.WriteOutcome(ev, OutcomeOK, 1500, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// newLog writes n pairs to a fresh log and returns its path.
func newLog(t testing.TB, n int, opts Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	l, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	writePairs(t, l, n)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// readLines returns the lines of a file, each without its '\n'.
func readLines(t testing.TB, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// joinLines is the inverse of readLines.
func joinLines(lines [][]byte) []byte {
	return append(bytes.Join(lines, []byte("\n")), '\n')
}

// kinds returns the issues as "kind@line" strings.
func kinds(rep Report) []string {
	var out []string
	for _, is := range rep.Issues {
		out = append(out, fmt.Sprintf("%s@%d", is.Kind, is.Line))
	}
	return out
}

// contexts counts the context lines of the log at path (compact.go).
func contexts(t testing.TB, path string) uint64 {
	t.Helper()
	var n uint64
	for ev, err := range Read(path) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase == PhaseContext {
			n++
		}
	}
	return n
}
