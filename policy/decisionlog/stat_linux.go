package decisionlog

import (
	"os"

	"golang.org/x/sys/unix"
)

// statPath returns the identity and size of the file at path: it runs on
// every append. It asks statx for the inode and size only. A stat that
// asks for the change time makes the kernel (Linux 6.13+, multigrain
// timestamps) give the file's next write a fine-grained time stamp, and
// so an inode update on every line; without that query the times stay
// coarse. Where statx is missing it falls back to stat.
func statPath(path string) (fileID, int64, error) {
	return statx(unix.AT_FDCWD, path, 0, func(st *unix.Stat_t) error { return unix.Stat(path, st) })
}

// statFile returns the identity and size of the open file f, encoded as
// statPath encodes them.
func statFile(f *os.File) (fileID, int64, error) {
	fd := int(f.Fd())
	return statx(fd, "", unix.AT_EMPTY_PATH, func(st *unix.Stat_t) error { return unix.Fstat(fd, st) })
}

const statxWant = unix.STATX_INO | unix.STATX_SIZE

func statx(dirfd int, path string, flags int, fallback func(*unix.Stat_t) error) (fileID, int64, error) {
	var stx unix.Statx_t
	err := unix.Statx(dirfd, path, flags|unix.AT_STATX_SYNC_AS_STAT, statxWant, &stx)
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
