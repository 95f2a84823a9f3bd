package decisionlog

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// statName is the log's path made ready once for the stat of every
// append: NUL-terminated, so that no append copies it again.
type statName struct {
	path string
	c    *byte
}

func newStatName(path string) (statName, error) {
	c, err := unix.BytePtrFromString(path)
	return statName{path: path, c: c}, err
}

// stat is statPath of the name's path.
func (n statName) stat() (fileID, int64, error) {
	return statx(unix.AT_FDCWD, n.c, 0, func(st *unix.Stat_t) error { return unix.Stat(n.path, st) })
}

// emptyName is the empty path statx is given with AT_EMPTY_PATH.
var emptyName = [1]byte{0}

// statPath returns the identity and size of the file at path: it runs on
// every append (as statName.stat). It asks statx for the inode and size only. A stat that
// asks for the change time makes the kernel (Linux 6.13+, multigrain
// timestamps) give the file's next write a fine-grained time stamp, and
// so an inode update on every line; without that query the times stay
// coarse. Where statx is missing it falls back to stat.
func statPath(path string) (fileID, int64, error) {
	n, err := newStatName(path)
	if err != nil {
		return fileID{}, 0, err
	}
	return n.stat()
}

// statFile returns the identity and size of the open file f, encoded as
// statPath encodes them.
func statFile(f *os.File) (fileID, int64, error) {
	fd := int(f.Fd())
	return statx(fd, &emptyName[0], unix.AT_EMPTY_PATH, func(st *unix.Stat_t) error { return unix.Fstat(fd, st) })
}

const statxWant = unix.STATX_INO | unix.STATX_SIZE

// statx is unix.Statx for a path already NUL-terminated.
func statx(dirfd int, path *byte, flags int, fallback func(*unix.Stat_t) error) (fileID, int64, error) {
	var stx unix.Statx_t
	var err error
	_, _, errno := unix.Syscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(path)),
		uintptr(flags|unix.AT_STATX_SYNC_AS_STAT), uintptr(statxWant), uintptr(unsafe.Pointer(&stx)), 0)
	if errno != 0 {
		err = errno
	}
	if err == nil && stx.Mask&statxWant == statxWant {
		return fileID{dev: unix.Mkdev(stx.Dev_major, stx.Dev_minor), ino: stx.Ino}, int64(stx.Size), nil
	}
	if err != nil && err != unix.ENOSYS && err != unix.EPERM {
		return fileID{}, 0, err
	}
	var st unix.Stat_t
	if err := fallback(&st); err != nil {
		return fileID{}, 0, err
	}
	return fileID{unix.Mkdev(unix.Major(st.Dev), unix.Minor(st.Dev)), st.Ino}, st.Size, nil
}
