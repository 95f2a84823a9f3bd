package engine

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/protocol"
)

// prepareRule names the host's refusal of a request prepare failed: its
// arguments, or a fact it could not gather.
func prepareRule(perr *protocol.Error) string {
	if perr.Code == protocol.InvalidRequest {
		return ruleArguments
	}
	return ruleFacts
}

// prepare decodes the arguments strictly and computes the facts. The one
// decoded value it returns feeds both the policy input and the executor.
// When a fact could not be gathered it returns the call with its
// arguments and the facts gathered so far beside the error, so that the
// logged refusal says what was asked (a URL among them, masked as every
// logged input is); when the arguments did not decode, no call.
func (h *Host) prepare(ctx context.Context, req protocol.Request) (*action.Call, *protocol.Error) {
	skill, _ := protocol.Lookup(req.Action)
	call := &action.Call{Request: req, Skill: skill, Origin: h.origin, Channel: h.channel}
	spec, built := action.Lookup(req.Action)
	if !built {
		return call, nil
	}
	call.Args = spec.NewArgs()
	if err := envelope.DecodeArguments(req.Arguments, call.Args); err != nil {
		return nil, err
	}
	if spec.Facts != nil {
		if err := spec.Facts(ctx, h.env, call); err != nil {
			return call, err
		}
	}
	return call, nil
}

// refusedCall is the call a refusal of prepare logs: the call prepare
// returned (its arguments decoded), else the bare request.
func (h *Host) refusedCall(req protocol.Request, call *action.Call) *action.Call {
	if call == nil {
		return h.bareCall(req)
	}
	return call
}
