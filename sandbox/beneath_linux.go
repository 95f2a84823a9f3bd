//go:build linux

package sandbox

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// openat2Missing is set once openat2 turned out to be unavailable (a
// kernel before 5.6, or a seccomp filter that refuses it); the portable
// checked walk is used from then on.
var openat2Missing atomic.Bool

// readBeneath is ReadAt in one openat2, one fstat, the reads and a close,
// where the portable path walks folder by folder through os.Root (about
// ten calls more). It enforces the same: RESOLVE_BENEATH keeps the
// resolution inside the workspace folder dir, RESOLVE_NO_SYMLINKS refuses
// a symlink in any component, the last included, atomically (where the
// walk compares an lstat with what it opened); O_NONBLOCK keeps a FIFO
// from blocking the open; the open file must be regular and have one
// link. ok is false when the open did not succeed (openat2 missing, or a
// symlink, a missing file or a refusal on the way): the caller then takes
// the checked walk, which decides and words the error as it always did
// (TestReadBeneathAgreesWithWalk).
func readBeneath(dir *os.File, rel string, off, max int64) (buf []byte, size int64, ok bool, err error) {
	fd, ok := openBeneath(dir, rel, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if !ok {
		return nil, 0, false, nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return nil, 0, true, &fs.PathError{Op: "read", Path: rel, Err: err}
	}
	if err := checkRegular(rel, st.Mode, uint64(st.Nlink)); err != nil {
		return nil, 0, true, err
	}
	if off >= st.Size {
		return []byte{}, st.Size, true, nil
	}
	buf = make([]byte, min(max, st.Size-off))
	n, err := preadFull(fd, buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, true, &fs.PathError{Op: "read", Path: rel, Err: err}
	}
	return buf[:n], st.Size, true, nil
}

// checkRegular refuses what openRegular refuses: a folder, anything but a
// regular file, a file with several hard links.
func checkRegular(rel string, mode uint32, nlink uint64) error {
	switch {
	case mode&unix.S_IFMT == unix.S_IFDIR:
		return &fs.PathError{Op: "read", Path: rel, Err: errIsDir}
	case mode&unix.S_IFMT != unix.S_IFREG:
		return &fs.PathError{Op: "read", Path: rel, Err: ErrNotRegular}
	case nlink > 1:
		return &fs.PathError{Op: "read", Path: rel, Err: ErrHardLink}
	}
	return nil
}

// openBeneath opens rel below the folder dir with openat2 (see
// readBeneath). It succeeds only where the path resolves inside dir
// without meeting a symlink, so exactly where the checked walk would open
// the same file; otherwise ok is false and the walk decides.
func openBeneath(dir *os.File, rel string, flags int) (fd int, ok bool) {
	if openat2Missing.Load() {
		return -1, false
	}
	raw, err := dir.SyscallConn()
	if err != nil {
		return -1, false
	}
	how := unix.OpenHow{Flags: uint64(flags), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS}
	cerr := raw.Control(func(dirfd uintptr) {
		err = ignoringEINTR(func() error {
			fd, err = unix.Openat2(int(dirfd), rel, &how)
			return err
		})
	})
	switch {
	case cerr == nil && err == nil:
		return fd, true
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.E2BIG):
		openat2Missing.Store(true)
	}
	// Any failure (a symlink on the way, a missing file, a refusal, a
	// rename racing the lookup) is left to the checked walk, which
	// decides it and words the error as before.
	return -1, false
}

// preadFull reads len(buf) bytes from offset off, or up to the end of the
// file, as os.File.ReadAt does.
func preadFull(fd int, buf []byte, off int64) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := unix.Pread(fd, buf[n:], off+int64(n))
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return n, err
		case m == 0:
			return n, io.EOF
		}
		n += m
	}
	return n, nil
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}
