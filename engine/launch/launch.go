// Package launch reads what a launcher answered (xdg-open, open, an
// editor, the browser's opener) into what a response may say of it
// (docs/protocol.md, "What opened means"), and opens a URL with the
// host's opener: the desktop actions, preview_web and open_deskbridge
// share it.
package launch

import (
	"context"
	"errors"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/browser"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// Launched is what a launcher's answer allows the response to say
// (docs/protocol.md, "What opened means"): Opened only when the launcher
// exited with status 0, which is its word that it handed its argument on;
// Pending, with the Launcher's name, when it was still running after its
// bounded wait, which says nothing yet (xdg-open falling through browsers
// that are not installed looks just like an editor run in the
// foreground). Any other answer is the launcher's failure.
type Launched struct {
	Opened   bool
	Pending  bool
	Launcher string
}

// Result reads a launcher's error: nil is opened; a *proc.PendingError
// is pending; any other error is returned, for the action to answer with
// its reason.
func Result(err error) (Launched, error) {
	var pe *proc.PendingError
	switch {
	case err == nil:
		return Launched{Opened: true}, nil
	case errors.As(err, &pe):
		return Launched{Pending: true, Launcher: pe.Program}, nil
	}
	return Launched{}, err
}

// OpenURL opens u with the host's opener and says what its launcher
// reported (Launched).
func OpenURL(ctx context.Context, env *action.Env, u string) (Launched, *protocol.Error) {
	o := env.Opener
	if o == nil {
		o = browser.System(cmdfacts.Native().Dirs)
	}
	l, err := Result(browser.Open(ctx, o, u))
	if err != nil {
		return l, errmap.Browser(err)
	}
	return l, nil
}
