package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/protocol"
)

// PoolSize bounds how many requests of one port are served at once; when
// the pool is full, reading waits (back-pressure on the browser).
const PoolSize = 8

// ErrCorruptStream ends Serve when a frame declares a length beyond 64 MiB.
var ErrCorruptStream = errors.New("engine: corrupt frame stream")

// ErrPortClosed is the cause of the work a port's end cancels: the
// browser closed the port (the end of the stream), or the program that
// handed the port over ended (a warm process's deskbridge-host). A request
// it cancelled is logged with the outcome CANCELLED and this reason.
var ErrPortClosed = errors.New("the port closed")

// Serve answers framed requests from in on out until the browser closes
// the port. Requests are served concurrently, PoolSize at most at once,
// and answered in whole frames, possibly out of order (clients match them
// by id). At EOF on a frame boundary in-flight work is cancelled and Serve
// returns nil; EOF inside a frame or a corrupt length returns an error
// after the same clean-up. When ctx ends (the host was told to stop), no
// request starts any more, the in-flight ones are cancelled, and Serve
// returns ctx's error once they have answered; a read in progress is left
// to end with the stream (the process is about to exit).
func (h *Host) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	inner, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	p := &port{h: h, ctx: inner, cancel: cancel, fw: wire.NewWriter(out), turn: make(chan *reading, 1), epoch: time.Now()}
	p.turn <- &reading{fr: wire.NewReader(in)}
	p.watch = time.AfterFunc(time.Hour, p.handOn)
	p.watch.Stop()
	defer p.watch.Stop()
	var wg sync.WaitGroup
	for range PoolSize {
		wg.Go(p.work)
	}
	ended := make(chan struct{})
	go func() { wg.Wait(); close(ended) }()
	select {
	case <-ended:
		return (<-p.turn).err
	case <-ctx.Done():
		p.inflight.close()
		return ctx.Err()
	}
}

// gate admits requests until it is closed, and then waits for the ones
// it admitted.
type gate struct {
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

// enter admits one request, or reports false once the gate is closed.
func (g *gate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.wg.Add(1)
	return true
}

// leave ends an admitted request.
func (g *gate) leave() { g.wg.Done() }

// close admits no more requests and waits for the admitted ones.
func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.wg.Wait()
}

// port is one served stream. PoolSize workers take turns reading: the
// reading side of the stream is a value that one goroutine owns at a
// time, passed on through the turn channel. A free worker takes it,
// waits for the next frame, then serves the request itself, so a request
// goes from read to response on one goroutine with no hand-off, and when
// every worker is busy nobody reads (back-pressure). A worker whose
// request is the only one out keeps the reading while it serves, for up
// to lendAfter (see serve); the port's timer passes it on when that
// passes. Workers live as long as the port: a request then runs on a stack
// already grown by earlier ones (policy evaluation recurses deeply)
// instead of growing a new goroutine's stack each time.
//
// This is faster than one reader goroutine handing each request to a
// worker, as net/http's Server.Serve does: for a sequential client, that
// wakes a second goroutine for every request (docs/benchmarks-history.md, "Serving and the log's encoder").
type port struct {
	h      *Host
	ctx    context.Context
	cancel context.CancelCauseFunc
	fw     *wire.Writer

	turn     chan *reading // holds the reading side when no goroutine owns it
	busy     atomic.Int32  // requests being served
	inflight gate          // closed when the host stops; see Serve
	lent     atomic.Pointer[reading]
	lentAt   atomic.Int64 // when the lend began, in ns since epoch
	epoch    time.Time    // the port's start, for lentAt (monotonic)
	watch    *time.Timer  // ends a lend after lendAfter (handOn); armed while set
	armed    atomic.Bool  // watch is set, or its callback is running
}

// reading is the reading side of a port: whoever holds it may read.
type reading struct {
	fr   *wire.Reader
	done bool  // the stream has ended
	err  error // what ended it, for Serve
}

// work answers requests until the stream ends.
func (p *port) work() {
	var rd *reading // owned by this worker while not nil
	for {
		if rd == nil {
			rd = <-p.turn
		}
		payload, ok := p.next(rd)
		if !ok {
			p.turn <- rd
			return
		}
		rd = p.serve(rd, payload)
	}
}

// lendAfter is how long a worker keeps the reading side while it serves
// the request it read, when that request is the only one out (nothing
// else being served, nothing more buffered). A sequential client sends its
// next request only after the answer, so passing the reading on at once
// would only wake another worker to find nothing to read (a thread
// wake-up, a read that would block and a sleep: tens of µs of CPU per
// request); a request that takes longer has it passed on when this
// passes, so requests that arrive meanwhile are read and served in
// parallel.
const lendAfter = 200 * time.Microsecond

// serve answers one request read with rd, which the worker owns on entry.
// It returns rd when the worker still owns it, so that the worker reads
// the next frame without waiting for its turn, or nil when it was passed
// on.
func (p *port) serve(rd *reading, payload []byte) *reading {
	if !p.inflight.enter() {
		return rd // the host is stopping: the request is not started
	}
	defer p.inflight.leave()
	defer p.busy.Add(-1)
	if p.busy.Add(1) > 1 || rd.fr.Buffered() > 0 {
		// The client has other requests out (in flight or already read):
		// let another worker read the next one now. Passing rd readies
		// that worker on this processor's run-next slot, where it would
		// wait for this request to be served unless an idle processor
		// steals it; yielding once lets it read at once, and this
		// worker goes on on whichever processor is free first (16 in
		// flight, benchhost: 21,277 → 24,268 requests/s, medians of three).
		p.turn <- rd
		runtime.Gosched()
		p.h.answer(p.ctx, p.fw, payload)
		return nil
	}
	// Lend rd to this request: whichever of the worker and the timer
	// ends the lend first (the swap that finds rd) decides who owns it.
	p.lentAt.Store(p.since())
	p.lent.Store(rd)
	p.arm()
	p.h.answer(p.ctx, p.fw, payload)
	if p.lent.CompareAndSwap(rd, nil) {
		return rd
	}
	return nil
}

// since is the time since the port began, for lentAt.
func (p *port) since() int64 { return int64(time.Since(p.epoch)) }

// arm sets the port's timer for a lend that has just begun, unless it is
// set already. The timer is not reset nor stopped per request: for a
// sequential client that cost about one thread switch in five requests
// and a sixth of the host's CPU (docs/benchmarks-history.md, "The request
// path"). Set once, it fires at most once per lendAfter while lends go
// on, and handOn sets it again for the lend it finds.
func (p *port) arm() {
	if !p.armed.Swap(true) {
		p.watch.Reset(lendAfter)
	}
}

// handOn is the port's timer: it passes a lent reading side on once the
// lend it finds has lasted lendAfter, and otherwise sets itself for when
// it will have. With no lend out it stays unset, and arm sets it for the
// next one; armed is cleared before lent is looked at, so that a lend
// that begins meanwhile is either seen here or arms the timer itself. A
// lend that ends and another that begins between the two loads of lentAt
// and lent only has the new one passed on early; it is passed on once per
// lend either way, by whoever ends the lend.
func (p *port) handOn() {
	p.armed.Store(false)
	for p.lent.Load() != nil {
		if left := lendAfter - time.Duration(p.since()-p.lentAt.Load()); left > 0 {
			if !p.armed.Swap(true) {
				p.watch.Reset(left)
			}
			return
		}
		if rd := p.lent.Swap(nil); rd != nil {
			p.turn <- rd
			return
		}
	}
}

// answer serves one request of a port: the outcome of its decision is
// queued for the log's next write (see Host.handle and
// decisionlog.Log.QueueOutcome: no system call), then the response goes
// out. Queued first, the outcome of every response the browser has seen
// is in the queue when SIGTERM or the end of the port writes it.
func (h *Host) answer(ctx context.Context, fw *wire.Writer, payload []byte) {
	resp, r := h.handle(ctx, payload)
	r.noteCancel(ctx)
	r.Finish(true)
	h.write(fw, resp)
}

// next reads the next request with rd, answering framing errors on the
// way. At the end of the stream it cancels the in-flight work and reports
// false.
func (p *port) next(rd *reading) ([]byte, bool) {
	for !rd.done {
		payload, err := rd.fr.Next()
		if err == nil {
			return payload, true
		}
		perr, stop := frameRefusal(err)
		if perr != nil {
			p.h.refuseFrame(p.ctx, p.fw, perr)
		}
		if stop != nil || errors.Is(err, io.EOF) {
			rd.done, rd.err = true, stop
			p.cancel(cmp.Or(stop, ErrPortClosed))
		}
	}
	return nil, false
}

// frameRefusal is the answer to a framing error: the refusal to send (nil
// at the end of the stream), and the error that ends the stream (nil to
// read on; io.EOF also ends it, cleanly).
func frameRefusal(err error) (perr *protocol.Error, stop error) {
	switch {
	case errors.Is(err, io.EOF):
		return nil, nil
	case errors.Is(err, wire.ErrEmpty):
		return invalidFrame("The message is empty (length 0); send one JSON object per message."), nil
	case errors.Is(err, wire.ErrTooLarge):
		return invalidFrame("The message is larger than DeskBridge's 1 MB limit and was discarded; send smaller messages."), nil
	case errors.Is(err, wire.ErrCorrupt):
		return invalidFrame("The message length is beyond 64 MiB, so the stream is corrupt; DeskBridge is closing the port."), ErrCorruptStream
	}
	return nil, fmt.Errorf("engine: reading frames: %w", err)
}

func invalidFrame(msg string) *protocol.Error {
	return protocol.Errorf(protocol.InvalidRequest, "%s", msg)
}

// refuseFrame answers a frame that holds no request (empty, over the cap,
// a corrupt length) with perr, and logs the refusal as every refused
// request is: a decision of the host (rule host.envelope) and its outcome.
func (h *Host) refuseFrame(ctx context.Context, fw *wire.Writer, perr *protocol.Error) {
	r := h.newRequest()
	resp := r.answer(nil, h.refuse(ctx, r, h.bareCall(protocol.Request{}), ruleEnvelope, perr))
	r.Finish(true)
	h.write(fw, resp)
}

// write encodes resp as one frame, written with one write call. A
// response that would pass the message cap is replaced by an error, so no
// frame over the cap is ever written.
func (h *Host) write(fw *wire.Writer, resp *protocol.Response) {
	frame := frames.get()
	defer frames.put(frame)
	b, err := protocol.AppendResponse(frame.b[:wire.HeaderLen], resp)
	if err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: encoding a response: %v\n", err)
		b, _ = protocol.AppendResponse(frame.b[:wire.HeaderLen], protocol.Failure(resp.ID, protocol.Errorf(protocol.InternalError, "DeskBridge could not encode its response; the details are in its log.")))
	}
	if len(b)-wire.HeaderLen > wire.MaxPayload {
		b, _ = protocol.AppendResponse(b[:wire.HeaderLen], protocol.Failure(resp.ID, protocol.Errorf(protocol.ExecutionFailed,
			"The result does not fit in one 1 MB message; ask for less (a smaller length or limit).")))
	}
	frame.b = b
	if err := fw.WriteFrame(b); err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: writing a response: %v\n", err)
	}
}

// frameBuf is a reusable frame buffer.
type frameBuf struct{ b []byte }

// framePool keeps frame buffers, pages and listings included, so that a
// large response does not allocate and grow a new buffer each time; the
// pool lets go of idle buffers at garbage collection.
type framePool struct{ p sync.Pool }

// maxPooledFrame is the largest buffer framePool keeps: one that held a
// frame up to the cap (an over-cap attempt may have grown it further).
const maxPooledFrame = 2 * (wire.HeaderLen + wire.MaxPayload)

var frames framePool

func (fp *framePool) get() *frameBuf {
	if f, ok := fp.p.Get().(*frameBuf); ok {
		return f
	}
	return &frameBuf{b: make([]byte, 0, 4<<10)}
}

func (fp *framePool) put(f *frameBuf) {
	if cap(f.b) <= maxPooledFrame {
		fp.p.Put(f)
	}
}

// Encode marshals a response as the wire carries it.
func Encode(resp *protocol.Response) ([]byte, error) {
	return protocol.Marshal(resp)
}
