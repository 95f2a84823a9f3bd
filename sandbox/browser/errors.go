package browser

import (
	"errors"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// Sentinel kinds of an opener's failure; test them with errors.Is.
var (
	// ErrNoOpener reports that the program that opens URLs is missing.
	// When it was not found on the PATH the error is a *NotFoundError
	// naming it.
	ErrNoOpener = errors.New("browser: no program to open URLs")
	// ErrStart reports that the opener could not be started.
	ErrStart = errors.New("browser: the opener could not be started")
	// ErrFailed reports an opener that exited with a failure status, as
	// a *FailedError.
	ErrFailed = errors.New("browser: the opener failed")
	// ErrNUL reports a URL with a NUL character, which Windows cannot
	// take.
	ErrNUL = errors.New("browser: the URL contains a NUL character")
)

// NotFoundError reports an opener program that is not on the PATH; its
// Kind is ErrNoOpener.
type NotFoundError = proc.NotFoundError

// FailedError reports an opener that exited with a failure status (xdg-open
// without a display or a browser, for one); its Kind is ErrFailed.
type FailedError = proc.ExitError
