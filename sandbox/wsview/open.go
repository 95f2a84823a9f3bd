package wsview

import (
	"errors"
	"os"

	"github.com/deskbridge/deskbridge/sandbox"
)

// errHardLink reports a file with more than one name.
var errHardLink = errors.New("wsview: file has several hard links")

// errChanged reports a file that is not the one lstat saw a moment before.
var errChanged = errors.New("wsview: file changed while it was opened")

// openRegular opens name in dir for reading without blocking (a FIFO
// swapped in after lstat cannot hang the round) and returns it only when
// it is the regular file lstat saw, with a single name: a hard link to a
// file outside the workspace (a key, say) is withheld.
func openRegular(dir *os.Root, name string, lstat os.FileInfo) (*os.File, error) {
	f, err := dir.OpenFile(name, os.O_RDONLY|sandbox.ReadFlag, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular() || !os.SameFile(fi, lstat):
		err = errChanged
	case sandbox.LinkCount(f, fi) > 1:
		err = errHardLink
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
