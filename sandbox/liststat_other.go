//go:build !unix

package sandbox

import (
	"errors"
	"io/fs"
	"os"
)

// statNames lstats each name of the folder dir into stats[i] through the
// root (f, the same folder open, is not needed here); a name gone since it
// was read is left as the zero entryStat.
func statNames(dir *os.Root, _ *os.File, names []string, stats []entryStat) error {
	for i, name := range names {
		fi, err := dir.Lstat(name)
		switch {
		case err == nil:
			stats[i] = entryStat{ok: true, mode: fi.Mode(), size: fi.Size(), modified: fi.ModTime()}
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
	}
	return nil
}
