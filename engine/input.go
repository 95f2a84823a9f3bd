package engine

import (
	"context"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// InputVersion is the version of the input document's shape.
const InputVersion = policy.InputVersion

// buildInput builds the input document from the call's decoded arguments
// and facts.
func buildInput(call *action.Call, now time.Time) (policy.InputDocument, error) {
	in := inputOf(call, now)
	return in.Document()
}

// inputOf is the call's typed input document.
func inputOf(call *action.Call, now time.Time) policy.Input {
	in := policy.Input{
		Version: policy.InputVersion,
		TimeNS:  now.UnixNano(),
		Request: policy.Request{
			ID: call.Request.ID, Action: call.Request.Action, Skill: string(call.Skill),
			Origin: call.Origin, Channel: call.Channel, Arguments: call.Args,
		},
		Paths:   call.Paths,
		URL:     call.URL,
		Command: call.Command,
		Import:  call.Import,
		Run:     call.Run,
		Write:   call.Write,
	}
	if spec, ok := action.Lookup(call.Request.Action); ok {
		in.Request.Digest = spec.Digest
	}
	return in
}

// Input returns the policy input document the host would build for the
// request payload, without deciding and without any effect: the envelope
// is decoded, the arguments checked and the facts gathered as Handle does.
func (h *Host) Input(ctx context.Context, payload []byte) (map[string]any, *protocol.Error) {
	_, doc, perr := h.prepareInput(ctx, payload)
	if perr != nil {
		return nil, perr
	}
	in, err := doc.Map()
	if err != nil {
		return nil, protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input.")
	}
	return in, nil
}

// LoggedInput returns the input document of the request payload as the
// decision log would record it, and the members masking erased and
// masked: the request is decided (without any effect, and without being
// logged) so that the policy's own system.log.mask sees the event it
// would see, then masked as the log masks it (secretMasker, then the
// policy's mask). The input is nil when masking erased it whole.
func (h *Host) LoggedInput(ctx context.Context, payload []byte) (input any, masked, erased []string, perr *protocol.Error) {
	call, doc, perr := h.prepareInput(ctx, payload)
	if perr != nil {
		return nil, nil, nil, perr
	}
	evalStart := h.now()
	dec, err := h.decider.Decide(ctx, doc)
	if err != nil {
		return nil, nil, nil, protocol.Wrap(protocol.ActionNotAllowed, err, "The policy could not decide this request; run `deskbridge policy check` to find the fault.")
	}
	metrics := map[string]any{evalMetric: h.now().Sub(evalStart).Nanoseconds()}
	if dec.Memo {
		metrics[memoMetric] = 1
	}
	ev := h.decisionEvent(call, &doc, dec, evalStart, metrics) // the event the log would mask
	if m := logMasker(h.env.Config, h.policy); m != nil {
		decisionlog.MaskEvent(ctx, m, &ev)
	}
	if d, ok := ev.Input.(*policy.InputDocument); ok { // nothing was masked
		in, err := d.Map()
		if err != nil {
			return nil, nil, nil, protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input.")
		}
		ev.Input = in
	}
	return ev.Input, ev.Masked, ev.Erased, nil
}

// prepareInput decodes payload, gathers its facts and builds its input
// document, as Handle does before deciding.
func (h *Host) prepareInput(ctx context.Context, payload []byte) (*action.Call, policy.InputDocument, *protocol.Error) {
	req, perr := envelope.Decode(payload)
	if perr != nil {
		return nil, policy.InputDocument{}, perr
	}
	call, perr := h.prepare(ctx, req)
	if perr != nil {
		return nil, policy.InputDocument{}, perr
	}
	doc, err := buildInput(call, h.now())
	if err != nil {
		return nil, policy.InputDocument{}, protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input.")
	}
	return call, doc, nil
}
