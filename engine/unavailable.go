package engine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/policy"

	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/protocol"
)

// ServeUnavailable serves a port when the host could not start (an invalid
// configuration or policy): every request is refused with
// ACTION_NOT_ALLOWED and a message that names the configuration problem
// (unavailableMessage) or sends the user to `deskbridge doctor`, and
// nothing runs without a policy.
func ServeUnavailable(ctx context.Context, cause error, in io.Reader, out io.Writer) error {
	return ServeUnavailableLogged(ctx, cause, nil, "", in, out)
}

// ruleUnavailable names the refusals of a host that could not start.
const ruleUnavailable = "host.unavailable"

// ServeUnavailableLogged is ServeUnavailable for a host whose
// configuration cfg loaded (its policy did not compile, say): each
// refusal is also written to the decision log, with the cause, as a
// refusal of the host (rule host.unavailable), so every request leaves an
// entry. With cfg nil, or the log off or not to be opened, nothing is
// logged.
func ServeUnavailableLogged(ctx context.Context, cause error, cfg *config.Config, origin string, in io.Reader, out io.Writer) error {
	fr, fw := wire.NewReader(in), wire.NewWriter(out)
	h := &Host{hostLog: io.Discard}
	msg := unavailableMessage(cause)
	var log *decisionlog.Log
	if cfg != nil {
		log, _ = openLog(cfg, nil)
	}
	if log != nil {
		defer log.Close()
	}
	for ctx.Err() == nil {
		payload, err := fr.Next()
		if err != nil {
			perr, stop := frameRefusal(err)
			if perr != nil {
				logUnavailable(ctx, log, protocol.Request{}, origin, perr, cause)
				h.write(fw, protocol.Failure("", perr))
			}
			if stop != nil || errors.Is(err, io.EOF) {
				return stop
			}
			continue
		}
		req, perr := envelope.Decode(payload)
		if perr == nil {
			perr = protocol.Wrap(protocol.ActionNotAllowed, cause, msg)
		}
		logUnavailable(ctx, log, req, origin, perr, cause)
		h.write(fw, protocol.Failure(req.ID, perr))
	}
	return ctx.Err()
}

// unavailableMessage is the message of every refusal of a host that could
// not start because of cause. For a configuration that does not load it
// names the file, the line and column and the member of the first problem
// and how many more there are; never the problem's words, which may quote
// a value of the file (a fleet URL with its credentials, say). Any other
// cause (a policy that does not compile, a log that cannot be opened)
// sends the user to `deskbridge doctor`.
func unavailableMessage(cause error) string {
	problems := config.Problems(cause)
	if len(problems) == 0 {
		return "DeskBridge could not load its configuration or policy, so it refuses every request; run `deskbridge doctor` to see why."
	}
	first := problems[0]
	where := first.File
	if first.Line > 0 {
		where += fmt.Sprintf(", line %d, column %d", first.Line, first.Column)
	}
	if first.Member != "" {
		where += ", member " + first.Member
	}
	more := ""
	if n := len(problems) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more problem(s))", n)
	}
	return fmt.Sprintf("DeskBridge could not load its configuration: the problem is at %s%s, so it refuses every request; run `deskbridge doctor` to see how to fix it.", where, more)
}

// logUnavailable writes the refusal of req, and its outcome, to log (if
// any), with the cause the host could not start.
func logUnavailable(ctx context.Context, log *decisionlog.Log, req protocol.Request, origin string, perr *protocol.Error, cause error) {
	if log == nil {
		return
	}
	if _, ok := protocol.Lookup(req.Action); !ok {
		req.Action = ""
	}
	den := policy.Denial{Code: perr.Code, Rule: ruleUnavailable, Message: fmt.Sprintf("%s (%v)", perr.Message, cause)}
	ev := decisionlog.Event{
		Path: decisionlog.HostPath, Result: map[string]any{"allow": false, "denials": []policy.Denial{den}},
		RequestID: req.ID, Action: req.Action, Origin: origin, Outcome: string(perr.Code),
	}
	if log.WriteDecision(ctx, &ev) == nil {
		log.WriteOutcome(&ev, string(perr.Code), 0, nil)
	}
}
