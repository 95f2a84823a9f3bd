package engine

import (
	"context"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// unbuiltRule names the host's refusal of an unbuilt action in its log.
const unbuiltRule = "host.unbuilt"

// refuseUnbuilt answers a request for a v1 action that has no executor in
// this build, before the policy: the policy would judge facts (a URL, a
// path) that an unbuilt action never gathers, and refuse for a reason
// that is not the real one. The refusal is logged as a decision of the
// host (path decisionlog.HostPath, result the one denial) whose outcome
// Finish writes, so the log still shows every request that was answered
// after its arguments were read.
func (h *Host) refuseUnbuilt(ctx context.Context, r *request) *protocol.Error {
	call := r.call
	perr := protocol.Errorf(protocol.SkillRuntimeUnavailable,
		"%s is not built into this version of DeskBridge yet, so nothing was done; see get_skill_profile for what is available.",
		call.Request.Action)
	doc, err := buildInput(call, r.start)
	if err != nil {
		return protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input; the details are in its log.")
	}
	den := policy.Denial{Code: perr.Code, Rule: unbuiltRule, Message: perr.Message}
	r.ev = decisionlog.Event{
		Bundles:    h.bundles,
		Path:       decisionlog.HostPath,
		Input:      &doc,
		Result:     map[string]any{"allow": false, "denials": []policy.Denial{den}},
		Timestamp:  r.start.UTC(),
		RequestID:  call.Request.ID,
		Action:     call.Request.Action,
		Origin:     call.Origin,
		Outcome:    string(perr.Code),
		PolicyHash: h.decider.Hash(),
		ConfigHash: h.env.Info.ConfigHash,
	}
	if lerr := r.logDecision(ctx); lerr != nil {
		return lerr
	}
	return perr
}
