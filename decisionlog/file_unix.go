//go:build unix

package decisionlog

import (
	"os"

	"golang.org/x/sys/unix"
)

// openAppend opens the log file for appending and reading its tail.
func openAppend(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
}

// lockFile blocks until this process holds the exclusive lock on f.
func lockFile(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			return err
		}
	}
}

// tryLockFile takes the exclusive lock on f if nobody holds it, and
// reports whether it did.
func tryLockFile(f *os.File) (bool, error) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch err {
		case nil:
			return true, nil
		case unix.EWOULDBLOCK:
			return false, nil
		case unix.EINTR:
			continue
		}
		return false, err
	}
}

// unlockFile releases the lock taken by lockFile.
func unlockFile(f *os.File) error {
	return unix.Flock(int(f.Fd()), unix.LOCK_UN)
}

// fileID identifies a file: its device and inode.
type fileID struct{ dev, ino uint64 }

func sameFile(a, b fileID) bool { return a == b }
