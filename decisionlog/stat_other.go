//go:build unix && !linux

package decisionlog

import (
	"os"

	"golang.org/x/sys/unix"
)

// statPath returns the identity and size of the file at path, without the
// allocations of os.Stat: it runs on every append.
func statPath(path string) (fileID, int64, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fileID{}, 0, err
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, st.Size, nil
}

// statFile returns the identity and size of the open file f.
func statFile(f *os.File) (fileID, int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileID{}, 0, err
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, st.Size, nil
}
