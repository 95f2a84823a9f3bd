package errmap

import (
	"errors"
	"fmt"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/browser"
)

func TestBrowser(t *testing.T) {
	cause := errors.New("cause")
	for _, c := range []struct {
		name string
		err  error
		code protocol.Code
		msg  string
	}{
		{"not found", &browser.NotFoundError{Kind: browser.ErrNoOpener, Name: "xdg-open", Err: cause}, protocol.AppNotFound,
			"No program to open URLs was found (xdg-open); install it or open the URL yourself."},
		{"missing", fmt.Errorf("%w: %w", browser.ErrNoOpener, cause), protocol.AppNotFound,
			"The program that opens URLs is missing; install it or open the URL yourself."},
		{"failed", &browser.FailedError{Kind: browser.ErrFailed, Program: "xdg-open", Code: 3, Stderr: "xdg-open: no method available for opening 'https://example.com/'"},
			protocol.ExecutionFailed, `The URL was not opened: xdg-open said "xdg-open: no method available for opening 'https://example.com/'"; open the URL yourself.`},
		{"failed silently", &browser.FailedError{Kind: browser.ErrFailed, Program: "open", Code: 1}, protocol.ExecutionFailed,
			"The URL was not opened: open failed with status 1; open the URL yourself."},
		{"nul", fmt.Errorf("%w: %w", browser.ErrNUL, cause), protocol.InvalidURL, "The URL contains a NUL character; check it."},
		{"start", fmt.Errorf("%w: %w", browser.ErrStart, cause), protocol.ExecutionFailed, "The browser could not be started; open the URL yourself."},
		{"refused", fmt.Errorf("browser: %w: no host", browser.ErrRefusedURL), protocol.ExecutionFailed, "The browser could not be started; open the URL yourself."},
		{"opener's own", protocol.Errorf(protocol.InternalError, "own"), protocol.InternalError, "own"},
		{"other", cause, protocol.ExecutionFailed, "The browser could not be started; open the URL yourself."},
	} {
		if pe := Browser(c.err); pe.Code != c.code || pe.Message != c.msg {
			t.Errorf("%s: Browser = %s %q, want %s %q", c.name, pe.Code, pe.Message, c.code, c.msg)
		}
	}
}
