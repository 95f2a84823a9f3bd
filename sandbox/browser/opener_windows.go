package browser

import (
	"context"
	"fmt"

	"golang.org/x/sys/windows"
)

func systemOpener([]string) Opener { return shellExecuteOpener{} }

// shellExecuteOpener opens URLs with ShellExecute's "open" verb, which
// hands them to the registered browser without a command line.
type shellExecuteOpener struct{}

// openVerb is "open" in UTF-16, which holds no NUL.
var openVerb = &[]uint16{'o', 'p', 'e', 'n', 0}[0]

// OpenURL calls ShellExecute(0, "open", url, nil, nil, SW_SHOWNORMAL). A
// URL with a NUL wraps ErrNUL; a failed ShellExecute wraps ErrStart.
func (shellExecuteOpener) OpenURL(_ context.Context, url string) error {
	file, err := windows.UTF16PtrFromString(url)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNUL, err)
	}
	if err := windows.ShellExecute(0, openVerb, file, nil, nil, windows.SW_SHOWNORMAL); err != nil {
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	return nil
}
