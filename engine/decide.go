package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// Decider decides one request's input document: the compiled policy
// (*policy.Engine) in a running host, a fake in tests that need no Rego.
type Decider interface {
	// Decide returns the decision for in; an error refuses the request.
	Decide(ctx context.Context, in policy.InputDocument) (policy.Decision, error)
	// Hash identifies what decides, for the decision log.
	Hash() string
}

// record ties a decision to its outcome in the log.
type record struct {
	entry  *logEntry // the logged decision; nil when nothing was logged
	logged bool
	call   *action.Call
}

// take returns the record and marks its outcome as written, so a panic
// while writing it is not followed by a second outcome.
func (r *record) take() record {
	t := *r
	r.logged = false
	return t
}

// decide evaluates the call's input document and writes the decision to
// the log before anything happens. A denial is returned as the error of
// the first denial, with its record, whose outcome the caller logs; a
// failure to decide or to log refuses the request (no record).
func (h *Host) decide(ctx context.Context, call *action.Call, start time.Time) (record, *protocol.Error) {
	doc, err := buildInput(call, start)
	if err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: policy input: %v\n", err)
		return record{}, protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input; the details are in its log.")
	}
	evalStart := h.now()
	dec, err := h.decider.Decide(ctx, doc)
	if err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: policy: %v\n", err)
		return record{}, protocol.Wrap(protocol.ActionNotAllowed, err,
			"The policy could not decide this request, so it is refused; run `deskbridge policy check` to find the fault.")
	}
	call.Limits = dec.Limits
	entry, perr := h.logDecision(ctx, call, doc, dec, outcomeOf(dec), evalStart)
	if perr != nil {
		return record{}, perr
	}
	rec := record{entry: entry, logged: entry != nil, call: call}
	if !dec.Allow {
		return rec, dec.Error()
	}
	return rec, nil
}

// Metrics of the decision event: the policy evaluation time, and for a
// decision the policy answered from its memo (policy.Decision.Memo), a
// count of 1.
const (
	evalMetric = "timer_rego_query_eval_ns"
	memoMetric = "counter_decision_memo_hit"
)

// logEntry is one request's decision event, kept from the decision until
// its outcome is written (the outcome repeats its header) and then reused,
// so that logging a request allocates no event, metrics map or boxed
// input.
type logEntry struct {
	ev          decisionlog.Event
	doc         policy.InputDocument
	evalNS      int64
	metrics     map[string]any // {evalMetric: &evalNS}, made once
	memoMetrics map[string]any // the same and {memoMetric: 1}
}

var logEntries = sync.Pool{New: func() any { return newLogEntry() }}

func newLogEntry() *logEntry {
	e := &logEntry{}
	e.metrics = map[string]any{evalMetric: &e.evalNS}
	e.memoMetrics = map[string]any{evalMetric: &e.evalNS, memoMetric: 1}
	return e
}

// outcomeOf is the outcome a decision event records for dec.
func outcomeOf(dec policy.Decision) string {
	if !dec.Allow {
		return string(dec.Error().Code)
	}
	return decisionlog.OutcomeOK
}

// release returns e to the pool, holding no request's documents.
func (e *logEntry) release() {
	e.ev, e.doc = decisionlog.Event{}, policy.InputDocument{}
	logEntries.Put(e)
}

// logDecision writes the decision event and returns it for the outcome;
// it returns nil when the host keeps no log.
func (h *Host) logDecision(ctx context.Context, call *action.Call, doc policy.InputDocument, dec policy.Decision, outcome string, evalStart time.Time) (*logEntry, *protocol.Error) {
	if h.log == nil {
		return nil, nil
	}
	e := logEntries.Get().(*logEntry)
	h.fillDecision(e, call, doc, dec, outcome, evalStart)
	if err := h.log.WriteDecision(ctx, &e.ev); err != nil {
		e.release()
		fmt.Fprintf(h.hostLog, "deskbridge: decision log: %v\n", err)
		return nil, protocol.Wrap(protocol.ExecutionFailed, err,
			"DeskBridge could not write its decision log, so it acts on nothing; check the log folder's space and permissions.")
	}
	return e, nil
}

// fillDecision sets e's event to the decision event of call. Its
// decision_id is left for the log to draw (a random UUID).
func (h *Host) fillDecision(e *logEntry, call *action.Call, doc policy.InputDocument, dec policy.Decision, outcome string, evalStart time.Time) {
	e.doc, e.evalNS = doc, h.now().Sub(evalStart).Nanoseconds()
	metrics := e.metrics
	if dec.Memo {
		metrics = e.memoMetrics
	}
	e.ev = decisionlog.Event{
		Bundles:    h.bundles,
		Path:       "deskbridge/main/decision",
		Input:      &e.doc,
		Result:     dec.Result,
		Timestamp:  evalStart.UTC(),
		Metrics:    metrics,
		RequestID:  call.Request.ID,
		Action:     call.Request.Action,
		Origin:     call.Origin,
		Phase:      decisionlog.PhaseDecision,
		Outcome:    outcome,
		PolicyHash: h.decider.Hash(),
		ConfigHash: h.env.Info.ConfigHash,
	}
}

// outcome writes the result of an allowed or denied decision, with the
// detail the executor left on the call (Call.Detail).
func (h *Host) outcome(rec record, perr *protocol.Error, start time.Time) {
	h.outcomeTook(rec, perr, h.now().Sub(start), false)
}

// outcomeTook is outcome for a request that took took; queue leaves the
// line to go out with the log's next write (decisionlog.Log.QueueOutcome).
func (h *Host) outcomeTook(rec record, perr *protocol.Error, took time.Duration, queue bool) {
	if !rec.logged {
		return
	}
	code := decisionlog.OutcomeOK
	if perr != nil {
		code = string(perr.Code)
	}
	var err error
	if queue {
		err = h.log.QueueOutcome(&rec.entry.ev, code, took, rec.call.Detail)
	} else {
		err = h.log.WriteOutcome(&rec.entry.ev, code, took, rec.call.Detail)
	}
	rec.entry.release()
	if err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: decision log outcome: %v\n", err)
	}
}
