// Package kinderr is DeskBridge's one pattern for typed errors below the
// engine: a package declares its sentinel kinds
//
//	var ErrCorrupt = errors.New("docconv: document is damaged")
//
// and fails with a *Error that carries one of them and a sentence. A
// caller tests the kind with errors.Is and reads the sentence with
// errors.As; only engine/errmap turns kinds into protocol codes and
// messages. A failure that carries more than a sentence (an address, an
// exit status) is a type of its own whose Is method names its kind, as
// netguard.BlockedError and sandbox.PathError are.
package kinderr

import "fmt"

// Error is a failure of a sentinel Kind, told in Msg.
type Error struct {
	Kind error  // one of the failing package's sentinels
	Msg  string // a sentence about this failure a person can act on
}

// New returns a *Error of kind with a message made from format and args.
func New(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Error returns the message, or the kind's text when there is none.
func (e *Error) Error() string {
	if e.Msg == "" {
		return e.Kind.Error()
	}
	return e.Msg
}

// Unwrap returns the kind, so that errors.Is(err, kind) holds.
func (e *Error) Unwrap() error { return e.Kind }
