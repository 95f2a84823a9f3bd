package engine

import (
	"context"

	"testing"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/protocol"
	"github.com/deskbridge/deskbridge/policy/decisionlog"
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
