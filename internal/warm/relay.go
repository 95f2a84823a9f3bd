package warm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// The relay: where a port's handles cannot be passed to the warm process
// (Windows), deskbridge-host copies them over the connection after the
// hello, as chunks of one kind byte, a 4-byte little-endian length and
// that many bytes. It copies bytes and reads no frame of the messages.
const (
	// chunkIn carries bytes of the browser's port (deskbridge-host's
	// standard input) to the warm process.
	chunkIn byte = 'i'
	// chunkInEnd says the browser closed its end of the port.
	chunkInEnd byte = 'e'
	// chunkOut carries the warm process's answers to standard output.
	chunkOut byte = 'o'
	// chunkErr carries host log lines to standard error.
	chunkErr byte = 'r'
	// chunkDone ends the relay with the exit status (4 bytes).
	chunkDone byte = 'd'
)

// maxChunk caps a chunk's bytes; longer writes are split.
const maxChunk = 64 << 10

// errRelay is a chunk that breaks the relay's rules.
var errRelay = errors.New("warm: a broken relay chunk")

// writeChunk writes one chunk of kind holding b (at most maxChunk bytes)
// with one Write.
func writeChunk(w io.Writer, kind byte, b []byte) error {
	buf := make([]byte, 5, 5+len(b))
	buf[0] = kind
	binary.LittleEndian.PutUint32(buf[1:], uint32(len(b)))
	_, err := w.Write(append(buf, b...))
	return err
}

// readChunk reads one chunk into buf (maxChunk bytes) and returns its
// kind and bytes; a chunk longer than maxChunk is an error.
func readChunk(r io.Reader, buf []byte) (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	n := binary.LittleEndian.Uint32(head[1:])
	if n > maxChunk {
		return 0, nil, fmt.Errorf("%w: %d bytes", errRelay, n)
	}
	if _, err := io.ReadFull(r, buf[:n]); err != nil {
		return 0, nil, err
	}
	return head[0], buf[:n], nil
}

// chunkWriter writes each Write as chunks of one kind on a connection
// shared by several writers.
type chunkWriter struct {
	mu   *sync.Mutex
	conn io.Writer
	kind byte
}

// Write sends b as chunks of at most maxChunk bytes.
func (w chunkWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for sent := 0; sent < len(b); {
		n := min(len(b)-sent, maxChunk)
		if err := writeChunk(w.conn, w.kind, b[sent:sent+n]); err != nil {
			return sent, err
		}
		sent += n
	}
	return len(b), nil
}

// relayPort is the warm process's end of a relayed port: In is what
// deskbridge-host copies from its standard input, Out and Err go back to
// its standard output and error. Gone closes when the connection breaks
// (deskbridge-host ended) or breaks the relay's rules, even while the
// host is not reading its input.
func relayPort(conn net.Conn) *Port {
	conn.SetReadDeadline(time.Time{})
	in := &inbox{chunks: make(chan []byte, inboxChunks), closed: make(chan struct{})}
	gone := make(chan struct{})
	var mu sync.Mutex
	go func() {
		readInput(conn, in)
		close(gone)
	}()
	return &Port{
		In:    in,
		Out:   chunkWriter{&mu, conn, chunkOut},
		Err:   chunkWriter{&mu, conn, chunkErr},
		gone:  gone,
		close: in.Close,
		done: func(status int) error {
			mu.Lock()
			defer mu.Unlock()
			return writeChunk(conn, chunkDone, binary.LittleEndian.AppendUint32(nil, uint32(status)))
		},
	}
}

// readInput puts chunkIn chunks from conn into in until chunkInEnd,
// which ends in, and then reads on until the connection ends (deskbridge-
// host closed it, or ended). Any other chunk, or input after the end,
// breaks the relay.
func readInput(conn io.Reader, in *inbox) {
	buf := make([]byte, maxChunk)
	ended := false
	for {
		kind, b, err := readChunk(conn, buf)
		switch {
		case err == nil && kind == chunkIn && !ended:
			in.push(append([]byte(nil), b...))
			continue
		case err == nil && kind == chunkInEnd && !ended:
			ended = true
			in.end(io.EOF)
			continue
		case err == nil:
			err = fmt.Errorf("%w: kind %q", errRelay, kind)
		}
		if !ended {
			in.end(err)
		}
		return
	}
}

// inboxChunks is how many chunks of input (64 KiB each) wait for the host
// to read them; past that, readInput waits too.
const inboxChunks = 16

// inbox is a relayed port's input: the chunks readInput received, read
// in order by the host.
type inbox struct {
	chunks chan []byte   // closed by end, after err is set
	closed chan struct{} // closed by Close: the host reads no more
	once   sync.Once
	err    error
	rest   []byte
}

// push queues b, or drops it once the host reads no more.
func (q *inbox) push(b []byte) {
	select {
	case q.chunks <- b:
	case <-q.closed:
	}
}

// end ends the input with err (io.EOF when the browser closed the port).
func (q *inbox) end(err error) {
	q.err = err
	close(q.chunks)
}

// Read reads the input in order.
func (q *inbox) Read(p []byte) (int, error) {
	for len(q.rest) == 0 {
		select {
		case b, ok := <-q.chunks:
			if !ok {
				return 0, q.err
			}
			q.rest = b
		case <-q.closed:
			return 0, io.ErrClosedPipe
		}
	}
	n := copy(p, q.rest)
	q.rest = q.rest[n:]
	return n, nil
}

// Close stops the reading: Read returns io.ErrClosedPipe.
func (q *inbox) Close() { q.once.Do(func() { close(q.closed) }) }

// relayHandOver is deskbridge-host's end of a relayed port: it copies
// stdin to the warm process and the warm process's chunks to stdout and
// stderr until the chunkDone, whose status it returns.
func relayHandOver(conn net.Conn, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	conn.SetReadDeadline(time.Time{})
	go copyInput(conn, stdin)
	buf := make([]byte, maxChunk)
	for {
		kind, b, err := readChunk(conn, buf)
		if err != nil {
			return 1, fmt.Errorf("the warm process ended: %w", err)
		}
		switch {
		case kind == chunkOut:
			_, err = stdout.Write(b)
		case kind == chunkErr:
			stderr.Write(b) // as a host's own: a closed stderr stops nothing
		case kind == chunkDone && len(b) == 4:
			return int(int32(binary.LittleEndian.Uint32(b))), nil
		default:
			err = fmt.Errorf("%w: kind %q", errRelay, kind)
		}
		if err != nil {
			return 1, err
		}
	}
}

// copyInput sends stdin to the warm process as chunkIn chunks, then
// chunkInEnd once stdin ends (the browser closed the port).
func copyInput(conn io.Writer, stdin io.Reader) {
	buf := make([]byte, maxChunk)
	for {
		n, err := stdin.Read(buf)
		if n > 0 {
			if writeChunk(conn, chunkIn, buf[:n]) != nil {
				return
			}
		}
		if err != nil {
			writeChunk(conn, chunkInEnd, nil)
			return
		}
	}
}
