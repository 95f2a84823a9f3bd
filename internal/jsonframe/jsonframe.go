// Package jsonframe reads and writes JSON values framed as Native
// Messaging frames them: a 4-byte little-endian length, then the JSON.
// The warm process's hand-off (internal/warm) and the image worker's
// requests and answers (sandbox/worker) speak it.
package jsonframe

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
)

// Write writes v as one frame, in one write.
func Write(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	buf := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(b)), uint32(len(b)))
	_, err = w.Write(append(buf, b...))
	return err
}

// Read reads one frame of at most max bytes of JSON into v. The end of
// the stream before a frame is io.EOF; inside one, io.ErrUnexpectedEOF.
func Read(r io.Reader, v any, max uint32) error {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return err
	}
	size := binary.LittleEndian.Uint32(n[:])
	if size > max {
		return fmt.Errorf("a frame of %d bytes (at most %d)", size, max)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return json.Unmarshal(b, v)
}
