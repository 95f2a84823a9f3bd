// Package atomicfile writes a file whole or not at all: a reader (or a
// process killed mid-write) sees the old file or the new one, never a
// part of the new one.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write writes b to path through a temporary file in path's folder,
// synced, then renamed over path. On any failure the temporary file is
// removed and path is left as it was. The file's mode is that of
// os.CreateTemp (0600).
func Write(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	err = errors.Join(werr, tmp.Sync(), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
