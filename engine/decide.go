package engine

import (
	"context"
	"fmt"
	"strings"
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

// decide evaluates the call's input document and writes the decision to
// the log before anything happens, into r, whose Finish writes its
// outcome. A denial is returned as the error of the first denial; a
// failure to decide, or a decided limit the action does not enforce,
// refuses the request as a logged refusal of the host (refuse); a
// failure to log refuses it with nothing logged.
func (h *Host) decide(ctx context.Context, r *request) *protocol.Error {
	call, start := r.call, r.start
	doc, err := buildInput(call, start)
	if err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: policy input: %v\n", err)
		return h.refuse(ctx, r, h.bareCall(call.Request), rulePolicyFailed,
			protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input; the details are in its log."))
	}
	evalStart := h.now()
	dec, err := h.decider.Decide(ctx, doc)
	if err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: policy: %v\n", err)
		return h.refuse(ctx, r, call, rulePolicyFailed, protocol.Wrap(protocol.ActionNotAllowed, err,
			"The policy could not decide this request, so it is refused; run `deskbridge policy check` to find the fault."))
	}
	if bad := action.Unenforced(call.Request.Action, dec.Limits); dec.Allow && len(bad) > 0 {
		return h.refuse(ctx, r, call, ruleLimitUnenforced, protocol.Errorf(protocol.ActionNotAllowed,
			"The policy set the limit %s = %d for %s, which %s cannot enforce (it enforces %s, each from 1 up), so the request is refused; run `deskbridge policy check` to find the rule.",
			bad[0], dec.Limits[bad[0]], call.Request.Action, call.Request.Action, strings.Join(action.Enforced(call.Request.Action), ", ")))
	}
	call.Limits = dec.Limits
	r.doc = doc
	r.ev = h.decisionEvent(call, &r.doc, dec, evalStart, r.decisionMetrics(h.now().Sub(evalStart), dec.Memo))
	if perr := r.logDecision(ctx); perr != nil {
		return perr
	}
	if !dec.Allow {
		return dec.Error()
	}
	return nil
}

// Metrics of the decision event: the policy evaluation time, and for a
// decision the policy answered from its memo (policy.Decision.Memo), a
// count of 1.
const (
	evalMetric = "timer_rego_query_eval_ns"
	memoMetric = "counter_decision_memo_hit"
)

// outcomeOf is the outcome a decision event records for dec.
func outcomeOf(dec policy.Decision) string {
	if !dec.Allow {
		return string(dec.Error().Code)
	}
	return decisionlog.OutcomeOK
}

// decisionEvent is the decision event of call, with its input document
// doc and its metrics. Its decision_id is left
// for the log to draw (a random UUID).
func (h *Host) decisionEvent(call *action.Call, doc *policy.InputDocument, dec policy.Decision, evalStart time.Time, metrics map[string]any) decisionlog.Event {
	return decisionlog.Event{
		Bundles:    h.bundles,
		Path:       decisionlog.PolicyPath,
		Input:      doc,
		Result:     dec.Result,
		Timestamp:  evalStart.UTC(),
		Metrics:    metrics,
		RequestID:  call.Request.ID,
		Action:     call.Request.Action,
		Origin:     call.Origin,
		Phase:      decisionlog.PhaseDecision,
		Outcome:    outcomeOf(dec),
		PolicyHash: h.decider.Hash(),
		ConfigHash: h.env.Info.ConfigHash,
	}
}
