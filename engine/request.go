package engine

import (
	"context"
	"fmt"
	"maps"
	"runtime/debug"
	"sync"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// request is one request on its way through the pipeline. Once its
// decision is in the log, Finish writes that decision's outcome: exactly
// once, whatever the pipeline did, a panic included, so an auditor never
// meets a decision without one.
//
// Requests are pooled: one is taken per request payload and put back by
// Finish, with the decision event, its input document and its metrics
// (the per-request values a decision's log line is encoded from) kept
// inside it, so that logging a decision allocates none of them. Nothing
// holds a request after Finish: the log encodes an outcome line before
// Finish returns, queued or not (decisionlog.Log.QueueOutcome).
type request struct {
	h     *Host
	start time.Time
	id    string       // the envelope's id, for the answer
	call  *action.Call // nil until the arguments are decoded

	ev     decisionlog.Event    // the decision event, logged when logged is set
	doc    policy.InputDocument // ev's input
	logged bool                 // ev is in the log and its outcome is not
	perr   *protocol.Error      // the answer's error; nil for success
	took   time.Duration        // from start to the answer

	executing bool   // the decision allowed it and the executor ran it
	cancelled string // why its failed effect was cancelled (noteCancel); "" when it was not

	evalNS      int64          // the policy evaluation's time, for ev's metrics
	metrics     map[string]any // {evalMetric: &evalNS}, made once per pooled request
	memoMetrics map[string]any // the same and {memoMetric: 1}
}

var requests = sync.Pool{New: func() any {
	r := &request{}
	r.metrics = map[string]any{evalMetric: &r.evalNS}
	r.memoMetrics = map[string]any{evalMetric: &r.evalNS, memoMetric: 1}
	return r
}}

func (h *Host) newRequest() *request {
	r := requests.Get().(*request)
	r.h, r.start = h, h.now()
	return r
}

// release puts r back in the pool, holding nothing of its request.
func (r *request) release() {
	metrics, memoMetrics := r.metrics, r.memoMetrics
	*r = request{metrics: metrics, memoMetrics: memoMetrics}
	requests.Put(r)
}

// decisionMetrics are the metrics of a decision evaluated in eval (from
// its memo when memo is set), held by r.
func (r *request) decisionMetrics(eval time.Duration, memo bool) map[string]any {
	r.evalNS = eval.Nanoseconds()
	if memo {
		return r.memoMetrics
	}
	return r.metrics
}

// logDecision writes the decision event r.ev before the effect; Finish
// writes its outcome. It does nothing when the host keeps no log.
func (r *request) logDecision(ctx context.Context) *protocol.Error {
	if r.h.log == nil {
		return nil
	}
	if err := r.h.log.WriteDecision(ctx, &r.ev); err != nil {
		fmt.Fprintf(r.h.hostLog, "deskbridge: decision log: %v\n", err)
		return protocol.Wrap(protocol.ExecutionFailed, err,
			"DeskBridge could not write its decision log, so it acts on nothing; check the log folder's space and permissions.")
	}
	r.logged = true
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

// noteCancel marks a request whose effect failed because the work of its
// port or host was cancelled under it (ctx's cause: the port closed,
// ErrPortClosed, or the host was told to stop): its outcome is then
// CANCELLED with that reason, not the error the interrupted effect
// returned (a command killed when its port closed is not a failure of the
// command, nor a timeout).
func (r *request) noteCancel(ctx context.Context) {
	if r.executing && r.perr != nil && ctx.Err() != nil {
		r.cancelled = context.Cause(ctx).Error()
	}
}

// Finish writes the outcome of the request's logged decision, with the
// answer's code and the detail the executor left on the call
// (Call.Detail), and puts the request back in the pool; it writes nothing
// when no decision was logged. The request must not be used after it. With queue the line goes out with the log's next write
// (decisionlog.Log.QueueOutcome, no system call), for a server that is
// about to send the response; otherwise it is in the log when Finish
// returns. A panic while writing it is reported to the host log, not
// raised: the response is ready.
func (r *request) Finish(queue bool) {
	defer r.release()
	if !r.logged {
		return
	}
	r.logged = false
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(r.h.hostLog, "deskbridge: internal error writing an outcome: %v\n%s", v, debug.Stack())
		}
	}()
	code, detail := decisionlog.OutcomeOK, r.call.Detail
	if r.perr != nil {
		code = string(r.perr.Code)
	}
	if r.cancelled != "" {
		code, detail = decisionlog.OutcomeCancelled, withReason(detail, r.cancelled)
	}
	write := r.h.log.WriteOutcome
	if queue {
		write = r.h.log.QueueOutcome
	}
	if err := write(&r.ev, code, r.took, detail); err != nil {
		fmt.Fprintf(r.h.hostLog, "deskbridge: decision log outcome: %v\n", err)
	}
}

// withReason is detail with reason added (a copy: the call's own detail
// is the executor's).
func withReason(detail map[string]any, reason string) map[string]any {
	out := make(map[string]any, len(detail)+1)
	maps.Copy(out, detail)
	out["reason"] = reason
	return out
}
