// Package engine runs DeskBridge's pipeline for each request:
//
//	frame → envelope → facts → decision → executor → response → log
//
// Handle is that pipeline in one short function; Serve reads frames from
// the browser and answers them concurrently with a bounded pool. The
// untrusted bytes are decoded by package envelope, facts come from package
// facts and each action's Facts function, the decision from package policy,
// the effect from each action's Run function through package sandbox, and
// every decision is written to the decision log before the effect, with
// its outcome after it.
package engine

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	_ "github.com/deskbridge/deskbridge/engine/actions" // registers the built actions
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// Channels a request can arrive on (input.request.channel).
const (
	// ChannelNative is Chrome Native Messaging; the origin is the caller's.
	ChannelNative = "native"
	// ChannelCLI is `deskbridge call`: the person at the keyboard.
	ChannelCLI = "cli"
)

// Host answers requests for one caller (an origin on a channel).
type Host struct {
	env     *action.Env
	decider Decider
	policy  *policy.Engine                // the compiled policy, for the log's masks; nil with a fake decider
	bundles map[string]decisionlog.Bundle // the deciding bundle, for the log
	log     *decisionlog.Log
	origin  string
	channel string
	hostLog io.Writer
	now     func() time.Time
}

// Handle runs one request payload through the whole pipeline and returns
// the response. It never panics: a bug becomes INTERNAL_ERROR, and a
// logged decision whose executor panicked gets an INTERNAL_ERROR outcome.
// The outcome is in the log when Handle returns.
func (h *Host) Handle(ctx context.Context, payload []byte) *protocol.Response {
	resp, out := h.handle(ctx, payload)
	h.logOutcome(out)
	return resp
}

// handle runs the pipeline up to the response. The outcome of a logged
// decision is returned instead of written, for logOutcome or, in a
// server, queueOutcome: the browser does not wait for the outcome's line,
// which records the effect that has already happened (the decision's line
// was written before it). Everything else is as Handle.
func (h *Host) handle(ctx context.Context, payload []byte) (resp *protocol.Response, out pending) {
	start := h.now()
	var req protocol.Request
	var rec record
	defer h.recoverInto(&resp, &req, &rec, start)
	req, perr := envelope.Decode(payload)
	if perr != nil {
		return protocol.Failure(req.ID, perr), pending{}
	}
	call, perr := h.prepare(ctx, req)
	if perr != nil {
		return protocol.Failure(req.ID, perr), pending{}
	}
	rec, perr = h.decide(ctx, call, start)
	if perr != nil {
		return protocol.Failure(req.ID, perr), h.pendingOutcome(&rec, perr, start)
	}
	data, perr := h.execute(ctx, call)
	if perr != nil {
		return protocol.Failure(req.ID, perr), h.pendingOutcome(&rec, perr, start)
	}
	return protocol.Success(req.ID, data), h.pendingOutcome(&rec, perr, start)
}

// pending is the outcome of a logged decision, not yet written.
type pending struct {
	rec  record
	perr *protocol.Error
	took time.Duration
}

// pendingOutcome takes rec's outcome out of the request, timed now, so
// that a panic after this point does not write it a second time.
func (h *Host) pendingOutcome(rec *record, perr *protocol.Error, start time.Time) pending {
	return pending{rec: rec.take(), perr: perr, took: h.now().Sub(start)}
}

// logOutcome writes a pending outcome (nothing when out holds none); it
// is in the log when logOutcome returns. queueOutcome leaves it to go out
// with the log's next write, for a server that has sent the response. A
// panic while writing it is reported to the host log, not raised: the
// response has been sent.
func (h *Host) logOutcome(out pending)   { h.finishOutcome(out, false) }
func (h *Host) queueOutcome(out pending) { h.finishOutcome(out, true) }

func (h *Host) finishOutcome(out pending, queue bool) {
	if !out.rec.logged {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(h.hostLog, "deskbridge: internal error writing an outcome: %v\n%s", r, debug.Stack())
		}
	}()
	h.outcomeTook(out.rec, out.perr, out.took, queue)
}

// execute runs an allowed call under the decision's timeout. The cause of
// a failure of the host, not of the request, goes to the host log.
func (h *Host) execute(ctx context.Context, call *action.Call) (any, *protocol.Error) {
	spec, built := action.Lookup(call.Request.Action)
	if !built {
		return nil, protocol.Errorf(protocol.SkillRuntimeUnavailable,
			"%s is not built into this version of DeskBridge yet; see get_skill_profile for what is available.", call.Request.Action)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(call.Limit("timeout_ms", 10_000))*time.Millisecond)
	defer cancel()
	data, perr := spec.Run(ctx, h.env, call)
	if perr != nil && perr.Err != nil && (perr.Code == protocol.ExecutionFailed || perr.Code == protocol.InternalError) {
		fmt.Fprintf(h.hostLog, "deskbridge: %s: %v\n", call.Request.Action, perr.Err) // redacted: see Start
	}
	return data, perr
}

// recoverInto turns a panic into an INTERNAL_ERROR response and, when the
// decision was logged but its outcome was not, logs that outcome, so an
// auditor never meets a decision without one.
func (h *Host) recoverInto(resp **protocol.Response, req *protocol.Request, rec *record, start time.Time) {
	if r := recover(); r != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: internal error: %v\n%s", r, debug.Stack())
		perr := protocol.Errorf(protocol.InternalError,
			"DeskBridge hit an internal error; the details are in its log. Please report it.")
		h.outcome(rec.take(), perr, start)
		*resp = protocol.Failure(req.ID, perr)
	}
}

// SyncLog writes the decision log's queued outcome lines and flushes it
// to stable storage; it does nothing when the log is off.
func (h *Host) SyncLog() error {
	if h.log == nil {
		return nil
	}
	return h.log.Sync()
}

// Close flushes and closes the decision log and the workspace handles.
func (h *Host) Close() error {
	h.env.Roots.Close()
	if h.log != nil {
		return h.log.Close()
	}
	return nil
}
