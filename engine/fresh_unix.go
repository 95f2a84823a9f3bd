//go:build unix

package engine

import "golang.org/x/sys/unix"

// statSig stats path with no allocation but its name's.
func statSig(path string) fileSig {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return fileSig{}
	}
	return fileSig{size: st.Size, mtime: st.Mtim.Nano(), ino: int64(st.Ino), exists: true}
}
