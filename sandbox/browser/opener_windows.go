package browser

import (
	"context"

	"golang.org/x/sys/windows"

	"github.com/deskbridge/deskbridge/protocol"
)

var systemOpener Opener = shellExecuteOpener{}

// shellExecuteOpener opens URLs with ShellExecute's "open" verb, which
// hands them to the registered browser without a command line.
type shellExecuteOpener struct{}

// OpenURL calls ShellExecute(0, "open", url, nil, nil, SW_SHOWNORMAL).
func (shellExecuteOpener) OpenURL(_ context.Context, url string) error {
	verb, err := windows.UTF16PtrFromString("open")
	if err != nil {
		return protocol.Wrap(protocol.InternalError, err, "The URL could not be opened; open it yourself.")
	}
	file, err := windows.UTF16PtrFromString(url)
	if err != nil {
		return protocol.Wrap(protocol.InvalidURL, err, "The URL contains a NUL character; check it.")
	}
	if err := windows.ShellExecute(0, verb, file, nil, nil, windows.SW_SHOWNORMAL); err != nil {
		return protocol.Wrap(protocol.ExecutionFailed, err, "The browser could not be started; open the URL yourself.")
	}
	return nil
}
