//go:build !unix

package wsview

import (
	"io"
	"os"
)

// dirFD is unused where there is no openat.
func dirFD(*os.File) int { return -1 }

// readFileIn reads the regular file name in the folder d, at most limit
// bytes of it: large reports a file over the limit, of which data is the
// head; ok a file read. The file is opened through the folder's *os.Root
// and refused unless it is the regular, singly-linked file lstat saw.
func readFileIn(d *dirNode, name string, limit int, buf []byte) (data []byte, large, ok bool) {
	lst, err := d.root.Lstat(name)
	if err != nil {
		return buf, false, false
	}
	f, err := openRegular(d.root, name, lst)
	if err != nil {
		return buf, false, false
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return buf, false, false
	}
	if len(data) > limit {
		return data[:limit], true, true
	}
	return data, false, true
}
