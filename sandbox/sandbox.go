// Package sandbox is the executor: the only code that changes the file
// system on a request's behalf.
//
// Every file operation goes through an *os.Root of the approved workspace
// with the path the policy judged (canonical, relative to that root), so a
// symlink or junction swapped in after the check cannot lead out of the
// workspace. On top of that:
//   - reads and writes refuse a final component that became a symlink after
//     the check (see openChecked);
//   - writes are atomic: a temporary file in the same folder, fsync, rename;
//     a crash or kill leaves the old or the new content, never a torn file;
//   - create never overwrites.
package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"syscall"

	"github.com/deskbridge/deskbridge/protocol"
)

// Roots caches one *os.Root per workspace for the life of the process.
type Roots struct {
	mu sync.Mutex
	m  map[string]*os.Root
}

// rootDirs maps each *os.Root that Roots opened to the workspace folder
// itself, opened through that root, for the openat2 paths (readBeneath).
var rootDirs sync.Map

// rootDir returns the folder of a root from Roots, or nil.
func rootDir(root *os.Root) *os.File {
	if d, ok := rootDirs.Load(root); ok {
		return d.(*os.File)
	}
	return nil
}

// Open returns the root handle of the workspace folder dir.
func (r *Roots) Open(dir string) (*os.Root, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if root, ok := r.m[dir]; ok {
		return root, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	if d, err := root.Open("."); err == nil {
		rootDirs.Store(root, d)
	}
	if r.m == nil {
		r.m = map[string]*os.Root{}
	}
	r.m[dir] = root
	return root, nil
}

// Close closes every cached root.
func (r *Roots) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, root := range r.m {
		if d, ok := rootDirs.LoadAndDelete(root); ok {
			d.(*os.File).Close()
		}
		root.Close()
	}
	r.m = nil
}

// errIsDir is reported for a file operation on a folder.
var errIsDir error = syscall.EISDIR

// ErrSwapped reports that the target changed into a symlink between the
// policy's check and the operation.
var ErrSwapped = errors.New("sandbox: target changed after it was checked")

// ErrHardLink reports a file that gained a second hard link after the
// policy's check: it may be shared with a file outside the workspace.
var ErrHardLink = errors.New("sandbox: file has several hard links")

// ErrNotRegular reports a read or write of a FIFO, socket or device.
var ErrNotRegular = errors.New("sandbox: not a regular file")

// Classify turns an OS error from an operation into a protocol error with a
// recoverable message; what stands behind it stays in Err for the host log.
func Classify(err error) *protocol.Error {
	var pe *protocol.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pe):
		return pe
	case errors.Is(err, fs.ErrNotExist):
		return protocol.Wrap(protocol.FileNotFound, err, "The file or folder does not exist; check the path, or create it first.")
	case errors.Is(err, fs.ErrExist):
		return protocol.Wrap(protocol.FileAlreadyExists, err, "Something already exists at that path; choose another name or use write_file to replace a file.")
	case errors.Is(err, ErrSwapped), isEscape(err), errors.Is(err, syscall.ELOOP):
		return protocol.Wrap(protocol.WorkspaceViolation, err, "The path leads outside the workspace through a link; use a direct path inside the workspace.")
	case errors.Is(err, fs.ErrPermission):
		return protocol.Wrap(protocol.PermissionDenied, err, "The operating system refused access; check the file's permissions.")
	case errors.Is(err, syscall.EISDIR):
		return protocol.Wrap(protocol.InvalidRequest, err, "The path is a folder, not a file; use list_folder for folders.")
	case errors.Is(err, ErrHardLink):
		return protocol.Wrap(protocol.PermissionDenied, err, "The file has several hard links and may be shared with a file outside the workspace; copy it to a new file and use that.")
	case errors.Is(err, ErrNotRegular), errors.Is(err, syscall.ENXIO): // ENXIO: opening a socket file
		return protocol.Wrap(protocol.InvalidRequest, err, "The path is not a regular file (a pipe, socket or device), so DeskBridge does not read or replace it.")
	case errors.Is(err, syscall.ENOTDIR):
		return protocol.Wrap(protocol.FileNotFound, err, "A part of the path is a file, not a folder; check the path.")
	case errors.Is(err, syscall.ENOSPC):
		return protocol.Wrap(protocol.ExecutionFailed, err, "The disk is full; free some space and try again.")
	}
	return protocol.Wrap(protocol.ExecutionFailed, err, "The file operation failed; check the path and try again.")
}

// isEscape reports os.Root's refusal of a path that leaves the root.
func isEscape(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}
