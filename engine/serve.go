package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/deskbridge/deskbridge/engine/protocol"
	"github.com/deskbridge/deskbridge/engine/wire"
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
// reads (back-pressure). Workers live as long as the port: a request then
// runs on a stack already grown by earlier ones (policy evaluation
// recurses deeply) instead of growing a new goroutine's stack each time.
type port struct {
	h      *Host
	ctx    context.Context
	cancel context.CancelFunc
	fw     *wire.Writer

	mu   sync.Mutex // guards fr, done and err
	fr   *wire.Reader
	done bool
	err  error
}

// work answers requests until the stream ends.
func (p *port) work() {
	for {
		payload, ok := p.next()
		if !ok {
			return
		}
		p.h.write(p.fw, p.h.Handle(p.ctx, payload))
	}
}

// next reads the next request, answering framing errors on the way. At
// the end of the stream it cancels the in-flight work and reports false.
func (p *port) next() ([]byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
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
