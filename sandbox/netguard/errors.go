package netguard

import (
	"errors"
	"fmt"
	"net/netip"

	"github.com/deskbridge/deskbridge/internal/ipclass"
)

// Sentinel kinds of the errors of CheckURL, the client, the Dialer and
// Download; test them with errors.Is. Several come as a typed error that
// carries the detail: *BlockedError, *StatusError, *ContentTypeError,
// *TooLargeError and *HashError.
var (
	// ErrBlocked reports an address the Policy does not open.
	ErrBlocked = errors.New("netguard: address not allowed")
	// ErrScheme reports a URL whose scheme is not http or https.
	ErrScheme = errors.New("netguard: scheme is not http or https")
	// ErrURL reports a URL that does not parse.
	ErrURL = errors.New("netguard: URL does not parse")
	// ErrURLForm reports a URL that is not absolute, has no host, or has
	// user info.
	ErrURLForm = errors.New("netguard: URL is not an absolute address without user info")
	// ErrIPv4 reports a host written as a number that is no IPv4 address.
	ErrIPv4 = errors.New("netguard: host is not a valid IPv4 address")
	// ErrIPForm reports a host that is an IPv4 address in a form other
	// than dotted decimal.
	ErrIPForm = errors.New("netguard: host is an IP address in a non-standard form")
	// ErrRedirects reports a redirect past the hop limit.
	ErrRedirects = errors.New("netguard: too many redirects")
	// ErrStatus reports an answer outside 2xx.
	ErrStatus = errors.New("netguard: server answered with an error status")
	// ErrContentType reports a body whose type does not suit the file name.
	ErrContentType = errors.New("netguard: content type does not suit the file name")
	// ErrTooLarge reports a body over the byte limit.
	ErrTooLarge = errors.New("netguard: body larger than the limit")
	// ErrHash reports a body whose SHA-256 is not the one expected.
	ErrHash = errors.New("netguard: body does not have the expected SHA-256")
	// ErrTimeout reports a deadline that passed, inside a *DownloadError.
	ErrTimeout = errors.New("netguard: timed out")
)

// BlockedError is the refusal of an address the Policy does not open.
type BlockedError struct {
	Addr  netip.Addr
	Class ipclass.Class // the address's class, as ipclass.Classify names it
}

// Error implements error.
func (e *BlockedError) Error() string { return fmt.Sprintf("netguard: %s is %s", e.Addr, e.Class) }

// Is reports whether target is ErrBlocked.
func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }

// StatusError is an answer outside 2xx.
type StatusError struct{ Code int }

// Error implements error.
func (e *StatusError) Error() string { return fmt.Sprintf("netguard: status %d", e.Code) }

// Is reports whether target is ErrStatus.
func (e *StatusError) Is(target error) bool { return target == ErrStatus }

// ContentTypeError is a body whose sniffed media type does not suit the
// kind of file its name says.
type ContentTypeError struct {
	Sent string // the sniffed media type, such as "text/html"
	Want string // the file kind the name's extension asks for, such as "image"
}

// Error implements error.
func (e *ContentTypeError) Error() string {
	return fmt.Sprintf("netguard: %s content for a %s file", e.Sent, e.Want)
}

// Is reports whether target is ErrContentType.
func (e *ContentTypeError) Is(target error) bool { return target == ErrContentType }

// TooLargeError is a body, declared or counted, over Limit bytes.
type TooLargeError struct{ Limit int64 }

// Error implements error.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("netguard: body larger than %d bytes", e.Limit)
}

// Is reports whether target is ErrTooLarge.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// HashError is a body whose SHA-256 is not the one expected.
type HashError struct {
	Want, Got string // lower-case hex digests
}

// Error implements error.
func (e *HashError) Error() string {
	return fmt.Sprintf("netguard: body has SHA-256 %s, not %s", e.Got, e.Want)
}

// Is reports whether target is ErrHash.
func (e *HashError) Is(target error) bool { return target == ErrHash }

// Steps of Download named by a *DownloadError's Op.
const (
	OpCheck   = "check"   // checking that the destination name is free
	OpConnect = "connect" // sending the request and waiting for the answer
	OpReceive = "receive" // reading the body
	OpCreate  = "create"  // creating the temporary file
	OpSave    = "save"    // flushing the temporary file
	OpRename  = "rename"  // moving it into place
)

// DownloadError records a step of Download that failed for a reason other
// than one of the sentinel kinds: the network or the destination's file
// system. Err wraps ErrTimeout when a deadline passed.
type DownloadError struct {
	Op  string // one of the Op constants
	Err error
}

// Error implements error.
func (e *DownloadError) Error() string { return "netguard: " + e.Op + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *DownloadError) Unwrap() error { return e.Err }

// refused reports whether err is one of the sentinel kinds, which Download
// returns as they are.
func refused(err error) bool {
	for _, k := range []error{ErrBlocked, ErrScheme, ErrURL, ErrURLForm, ErrIPv4, ErrIPForm, ErrRedirects, ErrStatus, ErrContentType, ErrTooLarge, ErrHash, ErrUnjudged} {
		if errors.Is(err, k) {
			return true
		}
	}
	var he *HopError
	return errors.As(err, &he)
}
