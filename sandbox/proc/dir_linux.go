//go:build linux

package proc

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// HoldDir opens the folder at path, which must be canonical (no symlink in
// any component: the open refuses one), and returns a handle for
// Spec.DirHandle, or nil when this system cannot hold it (no openat2):
// the child then changes into Spec.Dir by name.
func HoldDir(path string) (*os.File, error) {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
		switch err {
		case nil:
			return os.NewFile(uintptr(fd), path), nil
		case unix.EINTR:
			continue
		case unix.ENOSYS, unix.E2BIG:
			return nil, nil
		}
		return nil, &os.PathError{Op: "openat2", Path: path, Err: err}
	}
}

// childDir is the folder the child changes into: the held folder itself
// through /proc/self/fd when there is a handle (the child changes folder
// after fork and before exec, while it still has the descriptor), so a
// folder swapped for a symlink after the check cannot move it; else dir.
func childDir(dir string, held *os.File) string {
	if held == nil {
		return dir
	}
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		return dir
	}
	return "/proc/self/fd/" + strconv.Itoa(int(held.Fd()))
}
