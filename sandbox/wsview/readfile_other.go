//go:build !unix

package wsview

import (
	"io"
	"os"
)

// dirFD is unused where there is no openat.
func dirFD(*os.File) int { return -1 }

// readFileIn reads the regular file name in the folder d into buf when it
// holds at most limit bytes. large reports a file over the limit; ok a
// file read. The file is opened through the folder's *os.Root and
// refused if a second lstat shows another file (a link swapped in).
func readFileIn(d *dirNode, name string, limit int, buf []byte) (data []byte, large, ok bool) {
	f, err := d.root.Open(name)
	if err != nil {
		return buf, false, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return buf, false, false
	}
	if fi.Size() > int64(limit) {
		return buf, true, false
	}
	if lst, err := d.root.Lstat(name); err != nil || !os.SameFile(fi, lst) {
		return buf, false, false
	}
	data, err = io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return buf, false, false
	}
	if len(data) > limit {
		return buf, true, false
	}
	return data, false, true
}
