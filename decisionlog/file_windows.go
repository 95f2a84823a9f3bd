//go:build windows

package decisionlog

import (
	"os"

	"golang.org/x/sys/windows"
)

// openAppend opens the log file for appending and reading its tail. The
// handle shares delete access so that another process can rotate (rename)
// the file while this one holds it open.
func openAppend(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateFile(p,
		windows.GENERIC_READ|windows.FILE_APPEND_DATA,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_ALWAYS, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// lockFile blocks until this process holds the exclusive lock on f.
func lockFile(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol)
}

// tryLockFile takes the exclusive lock on f if nobody holds it, and
// reports whether it did.
func tryLockFile(f *os.File) (bool, error) {
	ol := new(windows.Overlapped)
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err == windows.ERROR_LOCK_VIOLATION {
		return false, nil
	}
	return err == nil, err
}

// unlockFile releases the lock taken by lockFile.
func unlockFile(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
}

// fileID identifies a file; on Windows os.SameFile compares the volume
// serial number and file index that os.Stat reads.
type fileID struct{ fi os.FileInfo }

// statPath returns the identity and size of the file at path.
func statPath(path string) (fileID, int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, 0, err
	}
	return fileID{fi}, fi.Size(), nil
}

// statFile returns the identity and size of the open file f.
func statFile(f *os.File) (fileID, int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return fileID{}, 0, err
	}
	return fileID{fi}, fi.Size(), nil
}

func sameFile(a, b fileID) bool { return a.fi != nil && b.fi != nil && os.SameFile(a.fi, b.fi) }
