package sandbox

import (
	"io/fs"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// procFDs reports whether /proc/self/fd is there: linking an unnamed file
// into place goes through it (linkat with AT_EMPTY_PATH needs a
// capability the host does not have).
var procFDs = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/fd")
	return err == nil
})

// createUnnamed opens an unnamed file in the folder dir (O_TMPFILE); ok
// is false where the kernel, the file system or /proc does not allow it.
func createUnnamed(dir *os.Root, perm fs.FileMode) (*os.File, bool) {
	if !procFDs() {
		return nil, false
	}
	d, err := dir.Open(".")
	if err != nil {
		return nil, false
	}
	defer d.Close()
	fd, err := unix.Openat(int(d.Fd()), ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, uint32(perm))
	if err != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), "(unnamed temporary file)"), true
}

// linkUnnamed links the unnamed file f into the folder dir as name; it
// fails with fs.ErrExist when name exists.
func linkUnnamed(f *os.File, dir *os.Root, name string) error {
	d, err := dir.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	src := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	if err := unix.Linkat(unix.AT_FDCWD, src, int(d.Fd()), name, unix.AT_SYMLINK_FOLLOW); err != nil {
		return &os.LinkError{Op: "link", Old: "(unnamed temporary file)", New: name, Err: err}
	}
	return nil
}
