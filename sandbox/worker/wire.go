package worker

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/deskbridge/deskbridge/internal/jsonframe"
)

// A request and a response are each a header and a body: the header's
// length (4 bytes, little-endian), the header (JSON), then as many bytes
// of body as the header says.

// maxHeader caps a header, both ways.
const maxHeader = 1 << 20

// request is the header of a job sent to a child; the input follows.
type request struct {
	Job        string          `json:"job"`
	Params     json.RawMessage `json:"params"`
	InputLen   int64           `json:"input_len"`
	DeadlineMS int64           `json:"deadline_ms"` // time left; 0: none
}

// response is the header of a child's answer; the output follows.
type response struct {
	Meta      json.RawMessage `json:"meta"`
	OutputLen int64           `json:"output_len"`
	// Error is the child's own failure (an unknown job, a panic): the job
	// gave no meta.
	Error string `json:"error,omitempty"`
}

// writeMessage writes header h and body.
func writeMessage(w io.Writer, h any, body []byte) error {
	if err := jsonframe.Write(w, h); err != nil {
		return err
	}
	_, err := w.Write(body)
	return err
}

// readHeader reads a header into h.
func readHeader(r io.Reader, h any) error { return jsonframe.Read(r, h, maxHeader) }

// readBody reads a body of n bytes, refusing one over max.
func readBody(r io.Reader, n, max int64) ([]byte, error) {
	if n < 0 || n > max {
		return nil, fmt.Errorf("a body of %d bytes, over %d", n, max)
	}
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return b, noEOF(err)
}

// noEOF turns the end of the stream inside a message into
// io.ErrUnexpectedEOF.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
