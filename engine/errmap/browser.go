package errmap

import (
	"errors"
	"fmt"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/browser"
)

// browserRules are the kinds of an opener's failure after the
// *browser.NotFoundError, which names the program.
var browserRules = []rule{
	{browser.ErrNoOpener, protocol.AppNotFound, "The program that opens URLs is missing; install it or open the URL yourself."},
	{browser.ErrNUL, protocol.InvalidURL, "The URL contains a NUL character; check it."},
	{browser.ErrStart, protocol.ExecutionFailed, "The browser could not be started; open the URL yourself."},
	{browser.ErrRefusedURL, protocol.ExecutionFailed, "The browser could not be started; open the URL yourself."},
}

// Browser maps an error of browser.Open to its protocol error.
func Browser(err error) *protocol.Error {
	if err == nil {
		return nil
	}
	if pe, ok := asProtocol(err); ok { // an Opener of the engine's caller
		return pe
	}
	var (
		nf *browser.NotFoundError
		fe *browser.FailedError
	)
	switch {
	case errors.As(err, &nf):
		return protocol.Wrap(protocol.AppNotFound, err,
			"No program to open URLs was found ("+nf.Name+"); install it or open the URL yourself.")
	case errors.As(err, &fe) && fe.Stderr != "":
		return protocol.Wrap(protocol.ExecutionFailed, err,
			fmt.Sprintf("The URL was not opened: %s said %q; open the URL yourself.", fe.Program, fe.Stderr))
	case errors.As(err, &fe):
		return protocol.Wrap(protocol.ExecutionFailed, err,
			fmt.Sprintf("The URL was not opened: %s failed with status %d; open the URL yourself.", fe.Program, fe.Code))
	}
	if pe := match(err, browserRules); pe != nil {
		return pe
	}
	return protocol.Wrap(protocol.ExecutionFailed, err, "The browser could not be started; open the URL yourself.")
}
