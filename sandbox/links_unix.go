//go:build unix

package sandbox

import (
	"io/fs"
	"os"
	"syscall"
)

// LinkCount returns the hard-link count of the open file f.
func LinkCount(_ *os.File, fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
