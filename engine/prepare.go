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
			return nil, err
		}
	}
	return call, nil
}
