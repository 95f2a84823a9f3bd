//go:build linux

package facts

import (
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// openat2Missing is set once openat2 turned out to be unavailable; every
// path then takes canonicalize.
var openat2Missing atomic.Bool

// resolveDirect is the common case of canonicalize and stat in one openat2
// (O_PATH, RESOLVE_NO_SYMLINKS), one fstat and a close, where
// canonicalize lstats every component: when the clean absolute path
// resolves without meeting a symlink in any component, the last included,
// it is its own canonical form (EvalSymlinks would return it unchanged),
// and the fstat of what was opened is the lstat of that path. ok is false
// otherwise (a symlink anywhere, a missing component, an error, or no
// openat2), and the caller takes canonicalize and stat
// (TestResolveDirectAgreesWithCanonicalize).
func resolveDirect(p *Path) (ok bool) {
	if openat2Missing.Load() {
		return false
	}
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	var fd int
	var err error
	for {
		if fd, err = unix.Openat2(unix.AT_FDCWD, p.Canonical, &how); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		if err == unix.ENOSYS || err == unix.E2BIG {
			openat2Missing.Store(true)
		}
		return false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return false
	}
	p.Exists = true
	p.Modified = modified(time.Unix(st.Mtim.Unix()))
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		p.Type, p.Links, p.Size = TypeFile, int(st.Nlink), st.Size
	case unix.S_IFDIR:
		p.Type = TypeFolder
	default:
		p.Type = TypeOther
	}
	return true
}
