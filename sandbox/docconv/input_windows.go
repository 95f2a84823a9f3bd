package docconv

import (
	"bytes"
	"io"
	"os"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// attachInput hands the document to the child on its standard input:
// os/exec passes no other descriptor on Windows. The host reads it whole
// (it is within MaxInput).
func attachInput(s *proc.Spec, f *os.File, size int64) error {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return err
	}
	s.Stdin = b
	return nil
}

// input is the document as the child reads it.
type input struct{ *bytes.Reader }

// openInput reads the document from standard input.
func openInput() (input, int64, error) {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		return input{}, 0, err
	}
	return input{Reader: bytes.NewReader(b)}, int64(len(b)), nil
}
