package engine

import (
	"context"

	"github.com/deskbridge/deskbridge/protocol"
)

// unbuiltRule names the host's refusal of an unbuilt action in its log.
const unbuiltRule = "host.unbuilt"

// refuseUnbuilt answers a request for a v1 action that has no executor in
// this build, before the policy: the policy would judge facts (a URL, a
// path) that an unbuilt action never gathers, and refuse for a reason
// that is not the real one. The refusal is logged as a decision of the
// host (refuse).
func (h *Host) refuseUnbuilt(ctx context.Context, r *request) *protocol.Error {
	perr := protocol.Errorf(protocol.SkillRuntimeUnavailable,
		"%s is not built into this version of DeskBridge yet, so nothing was done; see get_skill_profile for what is available.",
		r.call.Request.Action)
	return h.refuse(ctx, r, r.call, unbuiltRule, perr)
}
