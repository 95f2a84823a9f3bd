package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// Serve answers framed requests from in on out until the browser closes
// the port. Requests are served concurrently and answered in whole frames,
// possibly out of order (clients match them by id). At EOF on a frame
// boundary in-flight work is cancelled and Serve returns nil; EOF inside a
// frame or a corrupt length returns an error after the same clean-up.
func (h *Host) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := &port{h: h, ctx: ctx, cancel: cancel, fr: wire.NewReader(in), fw: wire.NewWriter(out)}
	p.watch = time.AfterFunc(time.Hour, p.handOn)
	p.watch.Stop()
	defer p.watch.Stop()
	var wg sync.WaitGroup
	for range PoolSize {
		wg.Go(p.work)
	}
	wg.Wait()
	return p.err
}

// port is one served stream. PoolSize workers take turns reading: a free
// worker holds the read lock while it waits for the next frame, then
// serves the request itself, so a request goes from read to response on
// one goroutine with no hand-off, and when every worker is busy nobody
// reads (back-pressure). A worker whose request is the only one out keeps
// the lock while it serves, for up to lendAfter (see serve); one timer per
// port hands it on when that passes. Workers live as long as the port: a
// request then runs on a stack already grown by earlier ones (policy
// evaluation recurses deeply) instead of growing a new goroutine's stack
// each time.
type port struct {
	h      *Host
	ctx    context.Context
	cancel context.CancelFunc
	fw     *wire.Writer

	busy  atomic.Int32 // requests being served
	lent  atomic.Bool  // the read lock is lent to the request being served
	watch *time.Timer  // hands a lent lock on after lendAfter (handOn)

	mu   sync.Mutex // guards fr, done and err
	fr   *wire.Reader
	done bool
	err  error
}

// work answers requests until the stream ends.
func (p *port) work() {
	holding := false
	for {
		payload, ok := p.next(holding)
		if !ok {
			return
		}
		holding = p.serve(payload)
	}
}

// lendAfter is how long a worker keeps the read lock while it serves the
// request it read, when that request is the only one out (nothing else
// being served, nothing more buffered). A sequential client sends its next
// request only after the answer, so handing the lock on at once would only
// wake another worker to find nothing to read (a thread wake-up, a read
// that would block and a sleep: tens of µs of CPU per request); a request
// that takes longer hands it on when this passes, so requests that arrive
// meanwhile are read and served in parallel.
const lendAfter = 200 * time.Microsecond

// serve answers one request read under the read lock, which it holds on
// entry. It reports whether it still holds the lock, so that the worker
// reads the next frame without taking it again.
func (p *port) serve(payload []byte) (holding bool) {
	defer p.busy.Add(-1)
	if p.busy.Add(1) > 1 || p.fr.Buffered() > 0 {
		// The client has other requests out (in flight or already read):
		// let another worker read the next one now.
		p.mu.Unlock()
		p.answer(payload)
		return false
	}
	p.lent.Store(true)
	p.watch.Reset(lendAfter)
	p.answer(payload)
	if p.lent.CompareAndSwap(true, false) {
		p.watch.Stop()
		return true
	}
	return false
}

// answer serves one request: the outcome of its decision is queued for
// the log's next write (see Host.handle and decisionlog.Log.QueueOutcome:
// no system call), then the response goes out. Queued first, the outcome
// of every response the browser has seen is in the queue when SIGTERM or
// the end of the port writes it.
func (p *port) answer(payload []byte) {
	resp, r := p.h.handle(p.ctx, payload)
	r.Finish(true)
	p.h.write(p.fw, resp)
}

// handOn releases the read lock if it is lent: the port's timer calls it
// when lendAfter has passed. A late call (the timer fired just as the
// lend ended, and another lend began) only hands the lock on early; the
// lock is released once per lend either way, by whoever ends the lend.
func (p *port) handOn() {
	if p.lent.CompareAndSwap(true, false) {
		p.mu.Unlock()
	}
}

// next reads the next request, answering framing errors on the way; it
// takes the read lock unless holding, and returns with it held. At the end
// of the stream it cancels the in-flight work, releases the lock and
// reports false.
func (p *port) next(holding bool) ([]byte, bool) {
	if !holding {
		p.mu.Lock()
	}
	for !p.done {
		payload, err := p.fr.Next()
		if err == nil {
			return payload, true
		}
		if stop := p.h.frameError(p.fw, err); stop != nil || errors.Is(err, io.EOF) {
			p.done, p.err = true, stop
			p.cancel()
		}
	}
	p.mu.Unlock()
	return nil, false
}

// frameError answers a framing error. It returns the error that ends the
// stream, or nil to read on (io.EOF also ends it, cleanly).
func (h *Host) frameError(fw *wire.Writer, err error) error {
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case errors.Is(err, wire.ErrEmpty):
		h.write(fw, invalidFrame("The message is empty (length 0); send one JSON object per message."))
		return nil
	case errors.Is(err, wire.ErrTooLarge):
		h.write(fw, invalidFrame("The message is larger than DeskBridge's 1 MB limit and was discarded; send smaller messages."))
		return nil
	case errors.Is(err, wire.ErrCorrupt):
		h.write(fw, invalidFrame("The message length is beyond 64 MiB, so the stream is corrupt; DeskBridge is closing the port."))
		return ErrCorruptStream
	}
	return fmt.Errorf("engine: reading frames: %w", err)
}

func invalidFrame(msg string) *protocol.Response {
	return protocol.Failure("", protocol.Errorf(protocol.InvalidRequest, "%s", msg))
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
