package wsview

import (
	"errors"
	"fmt"
)

// Sentinel kinds of the view's errors, besides fs.ErrNotExist (no such
// path) and context.Canceled and context.DeadlineExceeded (the request
// ran out of time); test them with errors.Is. A failure on a path is a
// *PathError.
var (
	// ErrBadChar reports a path with a NUL, a backslash or a colon.
	ErrBadChar = errors.New("wsview: path holds a character the agent may not use")
	// ErrAbsolute reports a path that starts with "/".
	ErrAbsolute = errors.New("wsview: path is not relative")
	// ErrOutside reports a path whose ".." elements lead out of the
	// workspace.
	ErrOutside = errors.New("wsview: path leads out of the workspace")
	// ErrLink reports a path through a symbolic link.
	ErrLink = errors.New("wsview: path goes through a symbolic link")
	// ErrWithheld reports a path hidden by .git, the Classifier or an
	// ignore rule.
	ErrWithheld = errors.New("wsview: path is withheld")
	// ErrIsDir reports a Read of the workspace root.
	ErrIsDir = errors.New("wsview: the workspace root is a folder")
	// ErrNotRegular reports a Read of anything but a regular file.
	ErrNotRegular = errors.New("wsview: not a regular file")
	// ErrNotDir reports a List of a file.
	ErrNotDir = errors.New("wsview: not a folder")
	// ErrBinary reports a Read of a file with a NUL byte.
	ErrBinary = errors.New("wsview: binary file")
	// ErrHardLink reports a file with several hard links, which may be
	// shared with a file outside the workspace.
	ErrHardLink = errors.New("wsview: file has several hard links")
	// ErrChanged reports a path that changed while it was being opened.
	ErrChanged = errors.New("wsview: path changed while it was opened")
	// ErrRead reports a file whose content could not be read.
	ErrRead = errors.New("wsview: file could not be read")
	// ErrWalk reports a folder of the workspace that could not be read.
	ErrWalk = errors.New("wsview: workspace folder could not be read")
	// ErrQuery reports a search query that is empty or longer than
	// MaxQueryChars.
	ErrQuery = errors.New("wsview: search query length out of range")
	// ErrRegex reports a search query that is not an RE2 expression.
	ErrRegex = errors.New("wsview: search query is not a valid regular expression")
	// ErrGlob reports a search glob that is not a valid pattern.
	ErrGlob = errors.New("wsview: search glob is not a valid pattern")
	// ErrRequestType reports a Request whose Type is none of the four;
	// the error is a *TypeError.
	ErrRequestType = errors.New("wsview: unknown request type")
)

// PathError records a failed operation on a workspace path, as
// os.PathError does. Err is or wraps one of the sentinel kinds.
type PathError struct {
	Op   string // "list", "read", "search" or "info"
	Path string // the request path, cleaned when it was valid
	Err  error
}

// Error implements error.
func (e *PathError) Error() string { return "wsview: " + e.Op + " " + e.Path + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *PathError) Unwrap() error { return e.Err }

// TypeError reports a Request whose Type is none of the four.
type TypeError struct{ Type string }

// Error implements error.
func (e *TypeError) Error() string { return fmt.Sprintf("wsview: unknown request type %q", e.Type) }

// Is reports whether target is ErrRequestType.
func (e *TypeError) Is(target error) bool { return target == ErrRequestType }

// pathError returns a *PathError of kind for op on path.
func pathError(op, path string, kind error) error {
	return &PathError{Op: op, Path: path, Err: kind}
}

// causeError returns a *PathError of kind for op on path that keeps cause.
func causeError(op, path string, kind, cause error) error {
	return &PathError{Op: op, Path: path, Err: fmt.Errorf("%w: %w", kind, cause)}
}

// walkError returns the error an operation fails with when its walk
// failed: the context's error as it is, anything else as ErrWalk.
func walkError(op, path string, err error) error {
	if ctxErr(err) {
		return &PathError{Op: op, Path: path, Err: err}
	}
	return causeError(op, path, ErrWalk, err)
}
