package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/protocol"
)

// TestPanickingExecutorLogsOutcome: an executor that panics answers
// INTERNAL_ERROR and its logged decision gets an INTERNAL_ERROR outcome,
// so the log holds no decision without an outcome.
func TestPanickingExecutorLogsOutcome(t *testing.T) {
	th := newTestHost(t, nil)
	spec, ok := action.Lookup("get_status")
	if !ok {
		t.Fatal("get_status is not registered")
	}
	run := spec.Run
	spec.Run = func(_ context.Context, env *action.Env, call *action.Call) (any, *protocol.Error) {
		panic("executor bug")
	}
	t.Cleanup(func() { spec.Run = run })
	mustCode(t, th.call(t, "get_status", map[string]any{}), string(protocol.InternalError))
	th.h.Close()
	outcomes := map[string]string{}
	var decisions []string
	for ev, err := range decisionlog.Read(th.logPath) {
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Phase {
		case decisionlog.PhaseDecision:
			decisions = append(decisions, ev.DecisionID)
		case decisionlog.PhaseOutcome:
			outcomes[ev.DecisionID] = ev.Outcome
		}
	}
	if len(decisions) != 1 {
		t.Fatalf("%d decisions logged, want 1", len(decisions))
	}
	if got := outcomes[decisions[0]]; got != string(protocol.InternalError) {
		t.Fatalf("outcome %q, want %s", got, protocol.InternalError)
	}
}

// TestServeLogsEveryOutcome: Serve sends each response before it logs the
// outcome of its decision (Host.handle), so this checks that the outcome
// is still written, once, with the response's code: for an allowed read,
// a read that fails in the executor, a denied read and an executor that
// panics.
func TestServeLogsEveryOutcome(t *testing.T) {
	th := newTestHost(t, nil)
	file := filepath.Join(th.ws, "a.txt")
	write(t, file, "hello\n")
	spec, ok := action.Lookup("get_status")
	if !ok {
		t.Fatal("get_status is not registered")
	}
	run := spec.Run
	spec.Run = func(context.Context, *action.Env, *action.Call) (any, *protocol.Error) { panic("executor bug") }
	t.Cleanup(func() { spec.Run = run })
	reqs := []struct {
		action string
		args   map[string]any
		want   string
	}{
		{"read_file", map[string]any{"path": file}, decisionlog.OutcomeOK},
		{"read_file", map[string]any{"path": filepath.Join(th.ws, "missing.txt")}, string(protocol.FileNotFound)},
		{"read_file", map[string]any{"path": filepath.Join(th.out, "x.txt")}, string(protocol.WorkspaceViolation)},
		{"get_status", map[string]any{}, string(protocol.InternalError)},
	}
	var in []byte
	for i, r := range reqs {
		b, err := json.Marshal(map[string]any{"version": 1, "id": fmt.Sprint(i), "action": r.action, "arguments": r.args})
		if err != nil {
			t.Fatal(err)
		}
		in = wire.Append(in, b)
	}
	// The input stays open until every answer is in: at the end of the
	// input Serve cancels the work still in flight.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- th.h.Serve(context.Background(), inR, outW) }()
	go inW.Write(in)
	answers := map[string]string{}
	fr := wire.NewReader(outR)
	for range reqs {
		p, err := fr.Next()
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			ID    string `json:"id"`
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(p, &resp); err != nil {
			t.Fatal(err)
		}
		answers[resp.ID] = cmp.Or(resp.Error.Code, decisionlog.OutcomeOK)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	th.h.Close()
	byRequest := map[string][]string{}
	for ev, err := range decisionlog.Read(th.logPath) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase == decisionlog.PhaseOutcome {
			byRequest[ev.RequestID] = append(byRequest[ev.RequestID], ev.Outcome)
		}
	}
	for i, r := range reqs {
		id := fmt.Sprint(i)
		if answers[id] != r.want {
			t.Errorf("request %s (%s): answered %q, want %q", id, r.action, answers[id], r.want)
		}
		if got := byRequest[id]; len(got) != 1 || got[0] != r.want {
			t.Errorf("request %s (%s): outcomes logged %q, want one %q", id, r.action, got, r.want)
		}
	}
}
