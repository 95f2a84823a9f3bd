//go:build unix

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// statNames lstats each name in the open folder f (dir, the same folder
// as a root, is not needed here), one fstatat on f's descriptor per name
// (no symlink followed), into stats[i]; a name gone since it was read is
// left as the zero entryStat. The names come from
// reading f, so each is a single component and the call cannot leave f:
// it is what os.Root.Lstat does for such a name, without the path checks,
// the FileInfo allocation and the interface calls it pays per entry.
func statNames(_ *os.Root, f *os.File, names []string, stats []entryStat) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var statErr error
	ctlErr := rc.Control(func(fd uintptr) {
		var st unix.Stat_t
		for i, name := range names {
			err := unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
			for err == unix.EINTR {
				err = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
			}
			switch {
			case err == nil:
				stats[i] = entryStat{ok: true, mode: fileMode(uint32(st.Mode)), size: st.Size, modified: time.Unix(st.Mtim.Unix())}
			case !errors.Is(err, unix.ENOENT):
				statErr = &fs.PathError{Op: "lstat", Path: name, Err: err}
				return
			}
		}
	})
	return errors.Join(ctlErr, statErr)
}

// fileMode converts a stat mode as os.Lstat does (os/stat_linux.go,
// fillFileStatFromSys).
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}
