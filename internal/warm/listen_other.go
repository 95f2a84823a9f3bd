//go:build !linux && !darwin

package warm

import (
	"net"
	"os"
	"time"
)

// Listener is a warm process's socket; this platform has none (Dir).
type Listener struct{}

// ErrTaken means another warm process holds the socket.
var ErrTaken = ErrUnsupported

// Listen reports ErrUnsupported.
func Listen(string) (*Listener, error) { return nil, ErrUnsupported }

// Accept reports ErrUnsupported.
func (*Listener) Accept(time.Duration) (*net.UnixConn, error) { return nil, ErrUnsupported }

// Close does nothing.
func (*Listener) Close() error { return nil }

// Dial reports ErrUnsupported.
func Dial(string, string) (*net.UnixConn, error) { return nil, ErrUnsupported }

// SetDeadline reports ErrUnsupported.
func (*Listener) SetDeadline(time.Time) error { return ErrUnsupported }

// SendFiles reports ErrUnsupported.
func SendFiles(*net.UnixConn, ...*os.File) error { return ErrUnsupported }

// ReceiveFiles reports ErrUnsupported.
func ReceiveFiles(*net.UnixConn, int) ([]*os.File, error) { return nil, ErrUnsupported }
