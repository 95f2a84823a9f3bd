package engine

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/protocol"
)

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
