package errmap

import (
	"errors"
	"fmt"

	"github.com/deskbridge/deskbridge/internal/kinderr"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

// desktopRules word the sentinel kinds of package desktop that carry no
// detail of their own.
var desktopRules = []rule{
	{desktop.ErrTooLarge, protocol.InvalidRequest, "The content is too large for one message; give a destination file, a region or a smaller max_width."},
	{desktop.ErrOutside, protocol.InvalidRequest, "The region does not lie on the display; give x, y, width and height inside it."},
	{desktop.ErrNoMonitor, protocol.InvalidRequest, "No monitor has that name or index; monitors are numbered from 0, and get_active_window names the one a window is on."},
	{desktop.ErrNoWindow, protocol.ExecutionFailed, "No window is active on the display."},
	{desktop.ErrTimeout, protocol.ExecutionFailed, "The display or the clipboard's owner did not answer in time; try again."},
	{desktop.ErrEntry, protocol.ExecutionFailed, "The application's desktop entry is not valid (its Exec line breaks the specification), so it is not started."},
	{desktop.ErrStart, protocol.ExecutionFailed, "The program could not be started."},
}

// Desktop maps an error of package desktop to its protocol error. what
// names the thing started or read, for the messages ("The folder", "The
// clipboard").
func Desktop(err error, what string) *protocol.Error {
	if err == nil {
		return nil
	}
	if pe, ok := asProtocol(err); ok {
		return pe
	}
	var (
		ue *kinderr.Error
		nf *desktop.NotFoundError
		fe *desktop.FailedError
	)
	switch {
	case errors.As(err, &ue) && ue.Kind == desktop.ErrUnavailable:
		return protocol.Wrap(protocol.SkillRuntimeUnavailable, err, "Not available here: "+ue.Msg+".")
	case errors.As(err, &nf):
		return protocol.Wrap(protocol.AppNotFound, err, fmt.Sprintf("%s is not installed (%s).", quoteName(nf.Name), nf.Err))
	case errors.As(err, &fe) && fe.Stderr != "":
		return protocol.Wrap(protocol.ExecutionFailed, err, fmt.Sprintf("%s failed: %s said %q.", what, fe.Program, fe.Stderr))
	case errors.As(err, &fe):
		return protocol.Wrap(protocol.ExecutionFailed, err, fmt.Sprintf("%s failed: %s exited with status %d.", what, fe.Program, fe.Code))
	}
	if pe := match(err, desktopRules); pe != nil {
		return pe
	}
	return protocol.Wrap(protocol.ExecutionFailed, err, what+" failed.")
}

// quoteName is name in quotes, or "The program" for none.
func quoteName(name string) string {
	if name == "" {
		return "The program"
	}
	return fmt.Sprintf("%q", name)
}
