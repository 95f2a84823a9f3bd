package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/envelope"
)

// TestPooledDecisionEventLogsAsBefore holds the pooled decision event
// (input and eval timer by pointer, outcome from the kept event) to the
// event the host built before (input and timer by value, a fresh metrics
// map, the outcome found by decision id): the same requests give the same
// log, byte for byte.
func TestPooledDecisionEventLogsAsBefore(t *testing.T) {
	h, ws, _ := newLogHost(t, "")
	name := filepath.Join(ws, "a.txt")
	if err := os.WriteFile(name, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	reqs := []string{
		`{"version":1,"id":"r1","action":"read_file","arguments":{"path":` + jsonString(name) + `}}`,
		`{"version":1,"id":"r2","action":"read_file","arguments":{"path":"/etc/passwd"}}`,
		`{"version":1,"id":"r3","action":"get_status","arguments":{}}`,
	}
	dir := t.TempDir()
	pooled, plain := openFixedLog(t, filepath.Join(dir, "pooled.jsonl")), openFixedLog(t, filepath.Join(dir, "plain.jsonl"))
	ctx := context.Background()
	for _, r := range reqs {
		start := time.Now()
		req, perr := envelope.Decode([]byte(r))
		if perr != nil {
			t.Fatal(perr)
		}
		call, perr := h.prepare(ctx, req)
		if perr != nil {
			t.Fatal(perr)
		}
		doc, err := buildInput(call, start)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := h.policy.Decide(ctx, doc)
		if err != nil {
			t.Fatal(err)
		}
		call.Detail = map[string]any{"bytes": 5}
		e := logEntries.Get().(*logEntry)
		h.fillDecision(e, call, doc, dec, decisionlog.OutcomeOK, start)
		e.ev.DecisionID = "00000000-0000-4000-8000-" + req.ID + "0000000000" // the log draws one when empty
		before := e.ev
		before.Input, before.Metrics = doc, map[string]any{evalMetric: e.evalNS}
		if err := pooled.WriteDecision(ctx, &e.ev); err != nil {
			t.Fatal(err)
		}
		if err := plain.Decision(ctx, &before); err != nil {
			t.Fatal(err)
		}
		if err := pooled.WriteOutcome(&e.ev, "PERMISSION_DENIED", time.Millisecond, call.Detail); err != nil {
			t.Fatal(err)
		}
		if err := plain.OutcomeDetail(before.DecisionID, "PERMISSION_DENIED", time.Millisecond, call.Detail); err != nil {
			t.Fatal(err)
		}
		e.release()
	}
	for _, l := range []*decisionlog.Log{pooled, plain} {
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, "pooled.jsonl"))
	b, _ := os.ReadFile(filepath.Join(dir, "plain.jsonl"))
	if !bytes.Equal(a, b) || bytes.Count(a, []byte("\n")) != 2*len(reqs) {
		t.Fatalf("pooled event logged\n%s\nthe host's former event logged\n%s", a, b)
	}
}

// openFixedLog opens a decision log whose clock gives the same times to
// every log opened alike.
func openFixedLog(t *testing.T, path string) *decisionlog.Log {
	t.Helper()
	now := time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC)
	l, err := decisionlog.Open(path, decisionlog.Options{Now: func() time.Time { now = now.Add(time.Millisecond); return now }})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
