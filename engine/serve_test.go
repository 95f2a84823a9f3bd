package engine

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/deskbridge/deskbridge/engine/wire"
)

// TestServeLendsAndPassesOnTheReading drives Serve over real pipes as a
// browser does: sequential requests (each the only one out, so the
// worker keeps the reading side while it serves, and the port's timer
// passes it on when a request runs past lendAfter, which under the race
// detector happens often), interleaved with pairs sent together (the
// reading side is passed on at once). Every answer must come back, once,
// with its id; a reading side passed on twice (the timer and the worker
// both ending one lend) would let two workers read at once, and one kept
// by nobody stops the port. Run it with -race too.
func TestServeLendsAndPassesOnTheReading(t *testing.T) {
	th := newTestHost(t, nil)
	file := filepath.Join(th.ws, "small.txt")
	write(t, file, "hello\n")
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- th.h.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	// A port whose reading side nobody holds stops answering: fail then
	// instead of waiting for the test binary's timeout.
	outR.SetReadDeadline(time.Now().Add(time.Minute))
	out := bufio.NewReader(outR)
	request := func(id string) []byte {
		b, err := json.Marshal(map[string]any{"version": 1, "id": id, "action": "read_file", "arguments": map[string]any{"path": file}})
		if err != nil {
			t.Fatal(err)
		}
		return wire.Append(nil, b)
	}
	answered := func() string {
		t.Helper()
		var header [wire.HeaderLen]byte
		if _, err := io.ReadFull(out, header[:]); err != nil {
			t.Fatalf("reading an answer (the port stopped answering?): %v", err)
		}
		payload := make([]byte, binary.LittleEndian.Uint32(header[:]))
		if _, err := io.ReadFull(out, payload); err != nil {
			t.Fatalf("reading an answer: %v", err)
		}
		var r result
		if err := json.Unmarshal(payload, &r); err != nil {
			t.Fatalf("answer %s: %v", payload, err)
		}
		if !r.Success {
			t.Fatalf("answer %s, want success", payload)
		}
		return r.ID
	}
	for i := range 300 {
		id := fmt.Sprint("seq-", i)
		if i%10 == 9 { // two at once: the second is buffered or in flight
			pair := append(request(id+"a"), request(id+"b")...)
			if _, err := inW.Write(pair); err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{answered(): true, answered(): true}
			if !got[id+"a"] || !got[id+"b"] {
				t.Fatalf("answers %v, want %sa and %sb", got, id, id)
			}
			continue
		}
		if _, err := inW.Write(request(id)); err != nil {
			t.Fatal(err)
		}
		if got := answered(); got != id {
			t.Fatalf("answer for %q, want %q", got, id)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if b, _ := io.ReadAll(out); len(b) != 0 {
		t.Fatalf("%d bytes after the last answer", len(b))
	}
}

// TestHandOnKeepsAYoungLend checks the port's timer against the lend it
// finds: set for an earlier lend, it fires during a lend that has not
// lasted lendAfter yet, and must set itself again for that lend instead
// of passing the reading side on (or forgetting the lend, which would
// then keep the reading side however long it runs); once the lend is
// lendAfter old it passes it on, once. The lend's start is set far ahead
// or behind, so that no timing of the machine decides the outcome.
func TestHandOnKeepsAYoungLend(t *testing.T) {
	p := &port{turn: make(chan *reading, 1), epoch: time.Now()}
	p.watch = time.AfterFunc(time.Hour, func() {})
	defer p.watch.Stop()
	rd := &reading{}
	p.lentAt.Store(p.since() + int64(time.Hour)) // younger than lendAfter whenever handOn looks
	p.lent.Store(rd)
	p.armed.Store(true) // the timer, set for an earlier lend, fires
	p.handOn()
	if len(p.turn) != 0 || p.lent.Load() != rd {
		t.Fatal("the timer passed on a lend younger than lendAfter")
	}
	if !p.armed.Load() {
		t.Fatal("the timer did not set itself again for the lend it found")
	}
	p.lentAt.Store(p.since() - int64(lendAfter)) // now the lend is lendAfter old
	p.handOn()
	if len(p.turn) != 1 || <-p.turn != rd || p.lent.Load() != nil {
		t.Fatal("the timer did not pass on a lend of lendAfter")
	}
	p.handOn() // no lend out: nothing to pass on, and nothing set
	if len(p.turn) != 0 || p.armed.Load() {
		t.Fatalf("with no lend out the timer passed on %d, set %v", len(p.turn), p.armed.Load())
	}
}
