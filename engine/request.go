package engine

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
)

// request is one request on its way through the pipeline. Once its
// decision is in the log, Finish writes that decision's outcome: exactly
// once, whatever the pipeline did, a panic included, so an auditor never
// meets a decision without one.
type request struct {
	h     *Host
	start time.Time
	id    string       // the envelope's id, for the answer
	call  *action.Call // nil until the arguments are decoded

	decision *decisionlog.Event // the logged decision; nil when none is or its outcome is written
	perr     *protocol.Error    // the answer's error; nil for success
	took     time.Duration      // from start to the answer
}

func (h *Host) newRequest() *request {
	return &request{h: h, start: h.now()}
}

// logDecision writes the decision event ev before the effect; Finish
// writes its outcome. It does nothing when the host keeps no log.
func (r *request) logDecision(ctx context.Context, ev decisionlog.Event) *protocol.Error {
	if r.h.log == nil {
		return nil
	}
	if err := r.h.log.WriteDecision(ctx, &ev); err != nil {
		fmt.Fprintf(r.h.hostLog, "deskbridge: decision log: %v\n", err)
		return protocol.Wrap(protocol.ExecutionFailed, err,
			"DeskBridge could not write its decision log, so it acts on nothing; check the log folder's space and permissions.")
	}
	r.decision = &ev
	return nil
}

// answer makes the response to the request, data or perr, and times it:
// the outcome's duration_ns is taken when the response is ready.
func (r *request) answer(data any, perr *protocol.Error) *protocol.Response {
	r.perr, r.took = perr, r.h.now().Sub(r.start)
	if perr != nil {
		return protocol.Failure(r.id, perr)
	}
	return protocol.Success(r.id, data)
}

// recover turns a panic in the pipeline into an INTERNAL_ERROR answer,
// which Finish then logs as the outcome of a logged decision.
func (r *request) recover(resp **protocol.Response) {
	if v := recover(); v != nil {
		fmt.Fprintf(r.h.hostLog, "deskbridge: internal error: %v\n%s", v, debug.Stack())
		*resp = r.answer(nil, protocol.Errorf(protocol.InternalError,
			"DeskBridge hit an internal error; the details are in its log. Please report it."))
	}
}

// Finish writes the outcome of the request's logged decision, with the
// answer's code and the detail the executor left on the call
// (Call.Detail); it does nothing when no decision was logged, or the
// second time. With queue the line goes out with the log's next write
// (decisionlog.Log.QueueOutcome, no system call), for a server that is
// about to send the response; otherwise it is in the log when Finish
// returns. A panic while writing it is reported to the host log, not
// raised: the response is ready.
func (r *request) Finish(queue bool) {
	ev := r.decision
	if ev == nil {
		return
	}
	r.decision = nil
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(r.h.hostLog, "deskbridge: internal error writing an outcome: %v\n%s", v, debug.Stack())
		}
	}()
	code := decisionlog.OutcomeOK
	if r.perr != nil {
		code = string(r.perr.Code)
	}
	write := r.h.log.WriteOutcome
	if queue {
		write = r.h.log.QueueOutcome
	}
	if err := write(ev, code, r.took, r.call.Detail); err != nil {
		fmt.Fprintf(r.h.hostLog, "deskbridge: decision log outcome: %v\n", err)
	}
}
