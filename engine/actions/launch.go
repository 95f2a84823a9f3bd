package actions

import (
	"errors"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// launched is what a launcher's answer allows the response to say
// (docs/protocol.md, "What opened means"): Opened only when the launcher
// exited with status 0, which is its word that it handed its argument on;
// Pending, with the Launcher's name, when it was still running after its
// bounded wait, which says nothing yet (xdg-open falling through browsers
// that are not installed looks just like an editor run in the
// foreground). Any other answer is the launcher's failure.
type launched struct {
	Opened   bool
	Pending  bool
	Launcher string
}

// launchResult reads a launcher's error: nil is opened; a
// *proc.PendingError is pending; any other error is returned, for the
// action to answer with its reason.
func launchResult(err error) (launched, error) {
	var pe *proc.PendingError
	switch {
	case err == nil:
		return launched{Opened: true}, nil
	case errors.As(err, &pe):
		return launched{Pending: true, Launcher: pe.Program}, nil
	}
	return launched{}, err
}
