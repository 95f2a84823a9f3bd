// Package errmap turns the executor's typed errors into protocol errors:
// the one place where a failure of sandbox/... gets the code the browser
// extension sees and the message the user reads. The error itself stays in
// the protocol error's Err, for the host log.
//
// There is one function per executor package or operation: File and Copy
// (package sandbox), Download (sandbox/netguard), Browser (sandbox/browser),
// Desktop (sandbox/desktop),
// Workspace (sandbox/wsview), Run (sandbox/runstore) and Git (sandbox/proc),
// and URL for engine/urlfacts. Each tests the sentinel kinds with
// errors.Is and the typed errors with errors.As, never the error's text.
package errmap

import (
	"errors"

	"github.com/deskbridge/deskbridge/protocol"
)

// rule maps one sentinel kind to a code and a message.
type rule struct {
	kind error
	code protocol.Code
	msg  string
}

// match returns the protocol error of the first rule whose kind err
// matches, or nil.
func match(err error, rules []rule) *protocol.Error {
	for _, r := range rules {
		if errors.Is(err, r.kind) {
			return protocol.Wrap(r.code, err, r.msg)
		}
	}
	return nil
}

// asProtocol returns the *protocol.Error inside err, made by the engine's
// own steps, if there is one.
func asProtocol(err error) (*protocol.Error, bool) {
	var pe *protocol.Error
	ok := errors.As(err, &pe)
	return pe, ok
}

// URL maps an error of urlfacts.Gather, which words its own refusals.
func URL(err error) *protocol.Error {
	if err == nil {
		return nil
	}
	if pe, ok := asProtocol(err); ok {
		return pe
	}
	return protocol.Wrap(protocol.InvalidURL, err, "The URL could not be read; check it and try again.")
}
