//go:build unix

package docconv

import (
	"errors"
	"os"
	"syscall"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// inputFD is the descriptor the child reads the document from.
const inputFD = 3

// attachInput hands the open document to the child as descriptor 3.
func attachInput(s *proc.Spec, f *os.File, _ int64) error {
	s.ExtraFiles = []*os.File{f}
	return nil
}

// input is the document as the child reads it.
type input struct{ file *os.File }

// ReadAt implements io.ReaderAt.
func (i input) ReadAt(b []byte, off int64) (int, error) { return i.file.ReadAt(b, off) }

// openInput opens the inherited descriptor.
func openInput() (input, int64, error) {
	f := os.NewFile(inputFD, "document")
	if f == nil {
		return input{}, 0, errors.New("no document descriptor")
	}
	syscall.CloseOnExec(inputFD) // the OCR programs it starts get no handle on the workspace
	fi, err := f.Stat()
	if err != nil {
		return input{}, 0, err
	}
	if !fi.Mode().IsRegular() {
		return input{}, 0, errors.New("the document is not a regular file")
	}
	return input{file: f}, fi.Size(), nil
}
