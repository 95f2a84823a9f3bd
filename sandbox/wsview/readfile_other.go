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
// refused unless it is the regular, singly-linked file lstat saw.
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
	if lst.Size() > int64(limit) {
		return buf, true, false
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
