package engine

import (
	"context"
	"errors"
	"io"

	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/protocol"
)

// ServeUnavailable serves a port when the host could not start (an invalid
// configuration or policy): every request is refused with
// ACTION_NOT_ALLOWED and a message that sends the user to `deskbridge
// doctor`, and nothing runs without a policy.
func ServeUnavailable(ctx context.Context, cause error, in io.Reader, out io.Writer) error {
	fr, fw := wire.NewReader(in), wire.NewWriter(out)
	h := &Host{hostLog: io.Discard}
	msg := "DeskBridge could not load its configuration or policy, so it refuses every request; run `deskbridge doctor` to see why."
	for ctx.Err() == nil {
		payload, err := fr.Next()
		if err != nil {
			if stop := h.frameError(fw, err); stop != nil || errors.Is(err, io.EOF) {
				return stop
			}
			continue
		}
		req, perr := envelope.Decode(payload)
		if perr == nil {
			perr = protocol.Wrap(protocol.ActionNotAllowed, cause, msg)
		}
		h.write(fw, protocol.Failure(req.ID, perr))
	}
	return ctx.Err()
}
