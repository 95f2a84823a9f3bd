// Package wire reads and writes Chrome Native Messaging frames: a 4-byte
// unsigned little-endian payload length followed by that many bytes.
//
// The bytes come from the browser and are hostile. The reader never buffers
// more than MaxPayload bytes of one frame (plus a fixed 64 KiB read-ahead):
// an over-cap payload up to MaxBrowserPayload is read and discarded in
// bounded memory, and a length beyond that means the stream is corrupt.
package wire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

// MaxPayload is DeskBridge's cap on one message's payload, both ways: 1 MB.
const MaxPayload = 1 << 20

// MaxBrowserPayload is Chrome's own cap on a browser→host message: 64 MiB.
// A declared length beyond it can only come from a corrupt stream.
const MaxBrowserPayload = 64 << 20

// Reader errors. ErrEmpty and ErrTooLarge leave the stream in sync: the
// caller answers INVALID_REQUEST and reads on. ErrCorrupt and
// io.ErrUnexpectedEOF end the stream. io.EOF is a clean close at a frame
// boundary.
var (
	ErrEmpty    = errors.New("wire: frame with length 0")
	ErrTooLarge = errors.New("wire: frame over the 1 MB cap was discarded")
	ErrCorrupt  = errors.New("wire: declared length beyond 64 MiB; the stream is corrupt")
	ErrOverCap  = errors.New("wire: refusing to write a frame over the 1 MB cap")
)

// Reader reads frames from a stream. It is not safe for concurrent use.
type Reader struct {
	r   io.Reader
	hdr [4]byte
}

// readBuffer is the Reader's read-ahead: small frames (a header and its
// payload, or several frames sent together) arrive in one read call.
const readBuffer = 64 << 10

// NewReader returns a Reader that reads frames from r. It reads ahead at
// most readBuffer bytes beyond the current frame.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, readBuffer)} }

// Buffered reports how many bytes of the stream have been read from the
// underlying reader but not yet returned as frames.
func (fr *Reader) Buffered() int {
	if b, ok := fr.r.(*bufio.Reader); ok {
		return b.Buffered()
	}
	return 0
}

// Next returns the next frame's payload. The slice is newly allocated and
// owned by the caller.
func (fr *Reader) Next() ([]byte, error) {
	n, err := fr.length()
	if err != nil {
		return nil, err
	}
	switch {
	case n == 0:
		return nil, ErrEmpty
	case n > MaxBrowserPayload:
		return nil, ErrCorrupt
	case n > MaxPayload:
		return nil, fr.discard(int64(n))
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(fr.r, buf); err != nil {
		return nil, unexpected(err)
	}
	return buf, nil
}

// length reads the 4-byte header; EOF before any byte is a clean close.
func (fr *Reader) length() (uint32, error) {
	if _, err := io.ReadFull(fr.r, fr.hdr[:]); err != nil {
		if err == io.EOF {
			return 0, io.EOF
		}
		return 0, unexpected(err)
	}
	return binary.LittleEndian.Uint32(fr.hdr[:]), nil
}

// discard skips an over-cap payload with a fixed-size buffer.
func (fr *Reader) discard(n int64) error {
	if _, err := io.CopyN(io.Discard, fr.r, n); err != nil {
		return unexpected(err)
	}
	return ErrTooLarge
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Writer writes whole frames; it is safe for concurrent use, and frames
// written concurrently never interleave.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer that writes frames to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// HeaderLen is the length of a frame's header: the payload length.
const HeaderLen = 4

// WriteFrame writes frame, whose first HeaderLen bytes are reserved for
// the header and the rest is the payload, as one frame with one write
// call; it fills in the header. A payload over MaxPayload is refused with
// ErrOverCap and nothing is written.
func (fw *Writer) WriteFrame(frame []byte) error {
	if len(frame) < HeaderLen || len(frame)-HeaderLen > MaxPayload {
		return ErrOverCap
	}
	binary.LittleEndian.PutUint32(frame, uint32(len(frame)-HeaderLen))
	fw.mu.Lock()
	defer fw.mu.Unlock()
	_, err := fw.w.Write(frame)
	return err
}

// Append returns dst with payload appended as one frame (length header and
// bytes); test harnesses and clients use it to build streams.
func Append(dst, payload []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
	return append(dst, payload...)
}
