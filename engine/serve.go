package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/deskbridge/deskbridge/engine/protocol"
	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/go-json-experiment/json"
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
	fr, fw := wire.NewReader(in), wire.NewWriter(out)
	jobs := make(chan []byte)
	var wg sync.WaitGroup
	workers := 0
	defer wg.Wait()
	defer close(jobs)
	defer cancel() // runs first: cancel in-flight work, then wait for it
	for {
		payload, err := fr.Next()
		if err != nil {
			if stop := h.frameError(fw, err); stop != nil || errors.Is(err, io.EOF) {
				return stop
			}
			continue
		}
		select {
		case jobs <- payload: // an idle worker took it
			continue
		default:
		}
		if workers < PoolSize {
			workers++
			wg.Go(func() { h.work(ctx, fw, jobs) })
		}
		jobs <- payload // waits while PoolSize requests are in flight
	}
}

// work answers requests from jobs until it is closed. Workers live as long
// as the port: a request then runs on a stack already grown by earlier ones
// (policy evaluation recurses deeply) instead of growing a new goroutine's
// stack, copying it each time, for every request.
func (h *Host) work(ctx context.Context, fw *wire.Writer, jobs <-chan []byte) {
	for payload := range jobs {
		h.write(fw, h.Handle(ctx, payload))
	}
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

// write encodes resp as one frame. A response that would pass the message
// cap is replaced by an error, so no frame over the cap is ever written.
func (h *Host) write(fw *wire.Writer, resp *protocol.Response) {
	b, err := Encode(resp)
	if err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: encoding a response: %v\n", err)
		b, _ = Encode(protocol.Failure(resp.ID, protocol.Errorf(protocol.InternalError, "DeskBridge could not encode its response; the details are in its log.")))
	}
	if len(b) > wire.MaxPayload {
		b, _ = Encode(protocol.Failure(resp.ID, protocol.Errorf(protocol.ExecutionFailed,
			"The result does not fit in one 1 MB message; ask for less (a smaller length or limit).")))
	}
	if err := fw.Write(b); err != nil {
		fmt.Fprintf(h.hostLog, "deskbridge: writing a response: %v\n", err)
	}
}

// Encode marshals a response as the wire carries it.
func Encode(resp *protocol.Response) ([]byte, error) {
	return json.Marshal(resp)
}
