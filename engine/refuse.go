package engine

import (
	"context"
	"slices"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// Rules of the refusals the host makes itself, without the policy or
// before it (decisionlog.HostPath). Every request leaves a decision in
// the log, these included, with the rule and the reason.
const (
	// ruleEnvelope: the message is not a well-formed request.
	ruleEnvelope = "host.envelope"
	// ruleArguments: the arguments are not valid for the action.
	ruleArguments = "host.arguments"
	// ruleFacts: a fact could not be gathered (a path, a DNS answer, a
	// program), so there is nothing the policy could judge.
	ruleFacts = "host.facts"
	// ruleOrigin: the origin is not in allowed_origins. The host checks it
	// natively, before any fact is gathered, whatever the policy says: a
	// policy folder without origins.rego cannot serve every origin.
	ruleOrigin = "origins.not_allowed"
	// rulePolicyFailed: the policy failed at run time (an error, a
	// malformed decision), so the request is refused.
	rulePolicyFailed = "host.policy_failed"
	// ruleLimitUnenforced: the decision set a limit the action does not
	// enforce, which would be ignored, so the request is refused.
	ruleLimitUnenforced = "host.limit_unenforced"
	// ruleChanged: the configuration or policy changed since the host
	// started (fresh.go), so it decides nothing more.
	ruleChanged = "host.config_changed"
)

// originAllowed reports whether the host may serve its caller: a request
// from `deskbridge call` (the person at the keyboard), or from an origin
// named in allowed_origins.
func originAllowed(channel, origin string, allowed []string) bool {
	return channel == ChannelCLI || (origin != "" && slices.Contains(allowed, origin))
}

// originError is the answer to a request from an origin the host does not
// serve.
func originError() *protocol.Error {
	perr := protocol.Errorf(protocol.PermissionDenied,
		"This extension's origin is not in allowed_origins; add it to the DeskBridge configuration (deskbridge install --extension-id).")
	perr.Rule = ruleOrigin
	return perr
}

// changedError is the answer to a request a host receives after its
// configuration or policy changed.
func changedError() *protocol.Error {
	perr := protocol.Errorf(protocol.ActionNotAllowed,
		"DeskBridge's configuration or policy changed since this port opened; open a new port (reconnect) to be served under the new one.")
	perr.Rule = ruleChanged
	return perr
}

// bareCall is the call of a request refused before its arguments were
// decoded: the request, its skill and caller, no arguments, no facts.
func (h *Host) bareCall(req protocol.Request) *action.Call {
	if _, ok := protocol.Lookup(req.Action); !ok {
		req.Action = "" // an unknown name is the caller's text, not an action
	}
	req.Arguments = nil
	skill, _ := protocol.Lookup(req.Action)
	return &action.Call{Request: req, Skill: skill, Origin: h.origin, Channel: h.channel}
}

// refuse answers r with perr, decided by the host under rule, and logs
// that refusal as a decision of the host (path decisionlog.HostPath,
// result the one denial) whose outcome Finish writes, so the log shows
// every request, the ones refused before or without the policy included.
// It returns perr, or the log's error when the refusal could not be
// logged.
func (h *Host) refuse(ctx context.Context, r *request, call *action.Call, rule string, perr *protocol.Error) *protocol.Error {
	r.call = call
	den := policy.Denial{Code: perr.Code, Rule: rule, Message: perr.Message}
	r.ev = decisionlog.Event{
		Bundles:    h.bundles,
		Path:       decisionlog.HostPath,
		Result:     map[string]any{"allow": false, "denials": []policy.Denial{den}},
		Timestamp:  r.start.UTC(),
		RequestID:  call.Request.ID,
		Action:     call.Request.Action,
		Origin:     call.Origin,
		Phase:      decisionlog.PhaseDecision,
		Outcome:    string(perr.Code),
		PolicyHash: h.decider.Hash(),
		ConfigHash: h.env.Info.ConfigHash,
	}
	if doc, err := buildInput(call, r.start); err == nil {
		r.doc = doc
		r.ev.Input = &r.doc
	}
	if lerr := r.logDecision(ctx); lerr != nil {
		return lerr
	}
	return perr
}
