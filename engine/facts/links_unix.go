//go:build unix

package facts

import (
	"io/fs"
	"syscall"
)

// linkCount returns the hard-link count of a regular file.
func linkCount(_ string, fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Nlink)
	}
	return 1
}
