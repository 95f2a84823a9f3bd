package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/protocol"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/policy/decisionlog"
)

// record ties a decision to its outcome in the log.
type record struct {
	decisionID string
	logged     bool
	call       *action.Call
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
// the first denial; a failure to decide or to log refuses the request.
func (h *Host) decide(ctx context.Context, call *action.Call, start time.Time) (record, *protocol.Error) {
	doc, err := buildInput(call, start)
	if err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: policy input: %v\n", err)
		return record{}, protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input; the details are in its log.")
	}
	evalStart := h.now()
	dec, err := h.policy.Decide(ctx, doc.value)
	if err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: policy: %v\n", err)
		return record{}, protocol.Wrap(protocol.ActionNotAllowed, err,
			"The policy could not decide this request, so it is refused; run `deskbridge policy check` to find the fault.")
	}
	call.Limits = dec.Limits
	rec := record{decisionID: newDecisionID(), call: call}
	outcome := decisionlog.OutcomeOK
	if !dec.Allow {
		outcome = string(dec.Error().Code)
	}
	if err := h.logDecision(ctx, call, doc, dec, rec.decisionID, outcome, evalStart); err != nil {
		return record{}, err
	}
	rec.logged = h.log != nil
	if !dec.Allow {
		h.outcome(rec, dec.Error(), start)
		return record{}, dec.Error()
	}
	return rec, nil
}

func (h *Host) logDecision(ctx context.Context, call *action.Call, doc inputDoc, dec policy.Decision, id, outcome string, evalStart time.Time) *protocol.Error {
	if h.log == nil {
		return nil
	}
	ev := &decisionlog.Event{
		DecisionID: id,
		Bundles:    h.policy.Bundles(),
		Path:       "deskbridge/main/decision",
		Input:      doc,
		Result:     dec.Result,
		Timestamp:  evalStart.UTC(),
		Metrics:    map[string]any{"timer_rego_query_eval_ns": h.now().Sub(evalStart).Nanoseconds()},
		RequestID:  call.Request.ID,
		Action:     call.Request.Action,
		Origin:     call.Origin,
		Phase:      decisionlog.PhaseDecision,
		Outcome:    outcome,
		PolicyHash: h.policy.Hash(),
		ConfigHash: h.env.Info.ConfigHash,
	}
	if err := h.log.Decision(ctx, ev); err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: decision log: %v\n", err)
		return protocol.Wrap(protocol.ExecutionFailed, err,
			"DeskBridge could not write its decision log, so it acts on nothing; check the log folder's space and permissions.")
	}
	return nil
}

// outcome writes the result of an allowed or denied decision, with the
// detail the executor left on the call (Call.Detail).
func (h *Host) outcome(rec record, perr *protocol.Error, start time.Time) {
	if !rec.logged {
		return
	}
	code := decisionlog.OutcomeOK
	if perr != nil {
		code = string(perr.Code)
	}
	if err := h.log.OutcomeDetail(rec.decisionID, code, h.now().Sub(start), rec.call.Detail); err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: decision log outcome: %v\n", err)
	}
}

// newDecisionID returns a random UUID (version 4).
func newDecisionID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	s := hex.EncodeToString(b[:])
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}
