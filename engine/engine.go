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
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
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
	// originOK is set when the caller may be served (originAllowed),
	// checked natively before anything else.
	originOK bool
	hostLog  io.Writer
	now      func() time.Time
	// fresh says whether the configuration or policy changed since the
	// host started (fresh.go); nil when no file holds them.
	fresh *freshness
}

// Handle runs one request payload through the whole pipeline and returns
// the response. It never panics: a bug becomes INTERNAL_ERROR, and a
// logged decision whose executor panicked gets an INTERNAL_ERROR outcome.
// The outcome is in the log when Handle returns.
func (h *Host) Handle(ctx context.Context, payload []byte) *protocol.Response {
	resp, r := h.handle(ctx, payload)
	r.noteCancel(ctx)
	r.Finish(false)
	return resp
}

// handle runs the pipeline up to the response and returns the request,
// whose Finish writes the outcome of its logged decision: Handle writes
// it at once; a server queues it and then sends the response, since the
// browser need not wait for a line that records an effect that has
// already happened (the decision's line was written before it).
func (h *Host) handle(ctx context.Context, payload []byte) (resp *protocol.Response, r *request) {
	return h.handleWith(ctx, payload, nil)
}

// runFunc carries out an allowed call (action.Spec.Run's shape).
type runFunc func(ctx context.Context, env *action.Env, call *action.Call) (any, *protocol.Error)

// handleWith is handle with run in place of the action's executor (nil:
// the action's own): a server that serves what an action would return
// (the preview's files, read_file's) runs the same pipeline, decision and
// log, and only the last step differs.
func (h *Host) handleWith(ctx context.Context, payload []byte, run runFunc) (resp *protocol.Response, r *request) {
	r = h.newRequest()
	defer r.recover(&resp)
	req, perr := envelope.Decode(payload)
	r.id = req.ID
	if perr != nil {
		return r.answer(nil, h.refuse(ctx, r, h.bareCall(req), ruleEnvelope, perr)), r
	}
	if h.fresh.Changed() {
		return r.answer(nil, h.refuse(ctx, r, h.bareCall(req), ruleChanged, changedError())), r
	}
	if !h.originOK {
		return r.answer(nil, h.refuse(ctx, r, h.bareCall(req), ruleOrigin, originError())), r
	}
	if r.call, perr = h.prepare(ctx, req); perr != nil {
		return r.answer(nil, h.refuse(ctx, r, h.refusedCall(req, r.call), prepareRule(perr), perr)), r
	}
	if _, built := action.Lookup(req.Action); !built {
		return r.answer(nil, h.refuseUnbuilt(ctx, r)), r
	}
	if perr := h.decide(ctx, r); perr != nil {
		return r.answer(nil, perr), r
	}
	if perr := h.resolveAndDecide(ctx, r); perr != nil {
		return r.answer(nil, perr), r
	}
	if r.call.URL != nil {
		r.call.JudgeRedirect = r.judgeRedirect
	}
	r.executing = true
	return r.answer(h.execute(ctx, r.call, run)), r
}

// execute runs an allowed call under the decision's timeout, with run or,
// when nil, the action's executor. The cause of a failure of the host,
// not of the request, goes to the host log.
func (h *Host) execute(ctx context.Context, call *action.Call, run runFunc) (any, *protocol.Error) {
	spec, _ := action.Lookup(call.Request.Action) // built: handle refused the others
	if run == nil {
		run = spec.Run
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(call.Limit("timeout_ms"))*time.Millisecond)
	defer cancel()
	data, perr := run(ctx, h.env, call)
	if perr == nil {
		data, perr = h.wall(ctx, call, spec, data)
	}
	if perr != nil && perr.Err != nil && (perr.Code == protocol.ExecutionFailed || perr.Code == protocol.InternalError) {
		fmt.Fprintf(h.hostLog, "deskbridge: %s: %v\n", call.Request.Action, perr.Err) // redacted: see Start
	}
	return data, perr
}

// Close flushes and closes the decision log and the workspace handles.
func (h *Host) Close() error {
	h.env.Roots.Close()
	if h.log != nil {
		return h.log.Close()
	}
	return nil
}
