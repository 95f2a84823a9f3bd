package panel

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// TestRowsOfACompactLog: the panel lists each decision once, with its
// outcome, and not the context lines of a compact log.
func TestRowsOfACompactLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	l, err := decisionlog.Open(path, decisionlog.Options{Labels: decisionlog.Labels{ID: "h", Version: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, hash := range []string{"p1", "p2"} { // two contexts
		ev := &decisionlog.Event{Action: "read_file", Origin: "o", RequestID: "r", PolicyHash: hash, ConfigHash: "c",
			Outcome: decisionlog.OutcomeOK, Input: map[string]any{"request": map[string]any{"id": "r"}}}
		if err := l.WriteDecision(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		if err := l.WriteOutcome(ev, "FILE_NOT_FOUND", time.Duration(i+1)*time.Millisecond, nil); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	p := NewServer(Spec{LogPath: path}, "/t/")
	rows, err := p.rows()
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %+v, %v; want the two decisions", rows, err)
	}
	for _, r := range rows {
		if r.Action != "read_file" || r.Origin != "o" || r.Outcome != "FILE_NOT_FOUND" {
			t.Errorf("row %+v", r)
		}
	}
}
