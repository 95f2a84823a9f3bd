package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// Sentinel kinds of a *PathError besides fs.ErrNotExist, fs.ErrExist and
// fs.ErrPermission, which keep their io/fs meaning.
var (
	// ErrOutside reports a path that leads outside the workspace through a
	// link: os.Root refused it, a symlink loop, or ErrSwapped.
	ErrOutside = errors.New("sandbox: path leads outside the workspace")
	// ErrIsDir reports a file operation on a folder.
	ErrIsDir = errors.New("sandbox: is a folder")
	// ErrNotDir reports a path with a file where a folder should be.
	ErrNotDir = errors.New("sandbox: a part of the path is not a folder")
	// ErrNoSpace reports a full disk.
	ErrNoSpace = errors.New("sandbox: no space left on the device")
)

// ErrSwapped reports that the target changed into a symlink between the
// policy's check and the operation. Its kind is ErrOutside.
var ErrSwapped = errors.New("sandbox: target changed after it was checked")

// ErrHardLink reports a file that gained a second hard link after the
// policy's check: it may be shared with a file outside the workspace.
var ErrHardLink = errors.New("sandbox: file has several hard links")

// ErrNotRegular reports a read or write of a FIFO, socket or device.
var ErrNotRegular = errors.New("sandbox: not a regular file")

// ErrChanged reports a write refused because the target no longer holds
// the content the caller expected (WriteOptions.ExpectedSHA256).
var ErrChanged = errors.New("sandbox: the file changed since it was read")

// errIsDir is reported for a file operation on a folder.
var errIsDir error = syscall.EISDIR

// PathError records a failed operation on a path, as os.PathError does,
// and says which kind of failure it is.
type PathError struct {
	Op   string // "open", "read", "write", "mkdir", "list" or "copy"
	Path string // the path as the caller gave it
	// Kind is one of fs.ErrNotExist, fs.ErrExist, fs.ErrPermission,
	// ErrOutside, ErrIsDir, ErrNotDir, ErrHardLink, ErrNotRegular,
	// ErrNoSpace, ErrTooLarge and ErrChanged, or nil for any other failure.
	Kind error
	Err  error // what the OS or the check reported
}

// Error implements error.
func (e *PathError) Error() string { return "sandbox: " + e.Op + " " + e.Path + ": " + e.Err.Error() }

// Unwrap returns Kind (when set) and Err, so that errors.Is matches both.
func (e *PathError) Unwrap() []error {
	if e.Kind == nil {
		return []error{e.Err}
	}
	return []error{e.Kind, e.Err}
}

// wrap replaces a non-nil *err with a *PathError naming its kind, unless
// it is one already.
func wrap(op, path string, err *error) {
	if *err == nil {
		return
	}
	var pe *PathError
	if errors.As(*err, &pe) {
		return
	}
	*err = &PathError{Op: op, Path: path, Kind: kindOf(*err), Err: *err}
}

// kindOf returns the sentinel kind of err, or nil.
func kindOf(err error) error {
	switch {
	case errors.Is(err, ErrTooLarge):
		return ErrTooLarge
	case errors.Is(err, ErrChanged):
		return ErrChanged
	case errors.Is(err, fs.ErrNotExist):
		return fs.ErrNotExist
	case errors.Is(err, fs.ErrExist):
		return fs.ErrExist
	case errors.Is(err, ErrSwapped), isEscape(err), errors.Is(err, syscall.ELOOP):
		return ErrOutside
	case errors.Is(err, fs.ErrPermission):
		return fs.ErrPermission
	case errors.Is(err, syscall.EISDIR):
		return ErrIsDir
	case errors.Is(err, ErrHardLink):
		return ErrHardLink
	case errors.Is(err, ErrNotRegular), errors.Is(err, syscall.ENXIO): // ENXIO: opening a socket file
		return ErrNotRegular
	case errors.Is(err, syscall.ENOTDIR):
		return ErrNotDir
	case errors.Is(err, syscall.ENOSPC):
		return ErrNoSpace
	}
	return nil
}

// isEscape reports os.Root's refusal of a path that leaves the root.
func isEscape(err error) bool {
	var pe *fs.PathError
	esc := rootEscape()
	return esc != nil && errors.As(err, &pe) && pe.Err == esc
}

// rootEscape is the error value os.Root reports for a path that leaves the
// root, which package os does not export: it is taken, once, from the
// refusal of an absolute name, which os.Root refuses before any system call.
var rootEscape = sync.OnceValue(func() error {
	r, err := os.OpenRoot(os.TempDir())
	if err != nil {
		return nil
	}
	defer r.Close()
	_, err = r.Lstat(string(os.PathSeparator))
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return nil
})
