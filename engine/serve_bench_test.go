//go:build unix

package engine

import (
	"context"
	"encoding/binary"
	"io"
	"os"
	"syscall"
	"testing"

	"github.com/deskbridge/deskbridge/engine/wire"
)

// BenchmarkServeReadFile is a sequential client of Serve over real pipes,
// as the browser is of the host: one 1 KiB read_file, its answer read
// before the next is sent. Next to BenchmarkHandleReadFile it adds the
// serving (frames, the read lock, the pipes and the wake-ups of both
// sides); allocs/op counts the client's few too. The pipes block, as the
// host's stdin and stdout do.
func BenchmarkServeReadFile(b *testing.B) {
	h, root := benchHost(b, 0)
	inR, inW := blockingPipe(b)
	outR, outW := blockingPipe(b)
	done := make(chan error, 1)
	go func() {
		done <- h.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	frame := wire.Append(nil, readRequest(root))
	answer := make([]byte, 0, 4<<10)
	call := func() {
		if _, err := inW.Write(frame); err != nil {
			b.Fatal(err)
		}
		var header [wire.HeaderLen]byte
		if _, err := io.ReadFull(outR, header[:]); err != nil {
			b.Fatal(err)
		}
		answer = answer[:binary.LittleEndian.Uint32(header[:])]
		if _, err := io.ReadFull(outR, answer); err != nil {
			b.Fatal(err)
		}
	}
	for range 100 {
		call()
	}
	timed(b, call)
	inW.Close()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}

// blockingPipe returns a pipe in blocking mode (os.Pipe's ends are
// non-blocking and read through the poller).
func blockingPipe(b *testing.B) (r, w *os.File) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		b.Fatal(err)
	}
	r, w = os.NewFile(uintptr(fds[0]), "pipe-r"), os.NewFile(uintptr(fds[1]), "pipe-w")
	b.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}
