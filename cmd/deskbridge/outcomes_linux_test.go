package main

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
)

// logged is a decision and its outcome, as the decision log holds them.
type logged struct{ decision, outcome *decisionlog.Event }

// loggedRequests reads the decision log at path, by request id; a
// decision with an empty id (a frame that held no request) is listed under
// "" in order.
func loggedRequests(t *testing.T, path string) (byID map[string]logged, empty []logged) {
	t.Helper()
	byID = map[string]logged{}
	byDecision := map[string]*logged{}
	var order []string
	for ev, err := range decisionlog.Read(path) {
		if errors.Is(err, decisionlog.ErrMalformed) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Phase {
		case decisionlog.PhaseDecision:
			byDecision[ev.DecisionID] = &logged{decision: &ev}
			order = append(order, ev.DecisionID)
		case decisionlog.PhaseOutcome:
			if l := byDecision[ev.DecisionID]; l != nil {
				l.outcome = &ev
			}
		}
	}
	for _, id := range order {
		l := *byDecision[id]
		if l.decision.RequestID == "" {
			empty = append(empty, l)
		} else {
			byID[l.decision.RequestID] = l
		}
	}
	return byID, empty
}

// A command cancelled because its port closed is logged CANCELLED with the
// reason, not as a failed or timed-out command: served directly and warm.
func TestCommandCancelledByThePortIsLoggedCancelled(t *testing.T) {
	for _, via := range []string{"direct", "warm"} {
		t.Run(via, func(t *testing.T) {
			f := newFixture(t, nil)
			bin, args := binaryPath, []string{"--config", f.config, testOrigin}
			var env []string
			if via == "warm" {
				// after the configuration: its cleanup, which waits for the warm process, runs first
				w := newWarmEnv(t, "30s")
				waitWarmStatus(t, w, f.config)
				bin, _ = warmHostPath()
				env = w.env()
			}
			_, pidFile := spawner(t, f)
			p := startProgram(t, bin, args, env...)
			req, _ := json.Marshal(map[string]any{"version": 1, "id": "long", "action": "run_command",
				"arguments": map[string]any{"argv": []string{"node", "spawn.js"}, "cwd": f.ws}})
			p.send(frame(req))
			pid := readPid(t, pidFile)
			p.in.Close() // the browser closes the port
			if r := p.recv(); r.ID != "long" {
				t.Fatalf("answer %+v", r)
			}
			p.cmd.Wait()
			waitGone(t, pid)
			// A warm process goes on: its queued outcome is written by the
			// log's next grouped flush.
			var l logged
			proctest.WaitFor(func() bool { byID, _ := loggedRequests(t, f.log); l = byID["long"]; return l.outcome != nil })
			if l.decision == nil || l.decision.Outcome != decisionlog.OutcomeOK || l.outcome == nil {
				t.Fatalf("the command's decision and outcome are not both in the log: %+v", l)
			}
			if l.outcome.Outcome != decisionlog.OutcomeCancelled || l.outcome.Detail["reason"] != "the port closed" || l.outcome.Detail["timed_out"] != false {
				t.Errorf("outcome %s, detail %v; want CANCELLED, reason \"the port closed\", timed_out false", l.outcome.Outcome, l.outcome.Detail)
			}
		})
	}
}

// Frames that hold no request (length 0) are refused with INVALID_REQUEST
// and, like every refused request, leave a decision of the host and its
// outcome in the log.
func TestEmptyFramesLeaveADecisionAndAnOutcome(t *testing.T) {
	f := newFixture(t, nil)
	p := start(t, []string{"--config", f.config, testOrigin})
	for range 3 {
		p.send(frame(nil))
		if r := p.recv(); r.code() != "INVALID_REQUEST" {
			t.Fatalf("an empty frame was answered %s", r.code())
		}
	}
	p.closeAndWait()
	_, empty := loggedRequests(t, f.log)
	if len(empty) != 3 {
		t.Fatalf("%d refusals of empty frames in the log; want 3", len(empty))
	}
	for _, l := range empty {
		if l.decision.Path != decisionlog.HostPath || l.decision.Outcome != "INVALID_REQUEST" || l.outcome == nil || l.outcome.Outcome != "INVALID_REQUEST" {
			t.Errorf("decision %+v, outcome %+v; want the host's INVALID_REQUEST refusal and its outcome", l.decision, l.outcome)
		}
	}
}
