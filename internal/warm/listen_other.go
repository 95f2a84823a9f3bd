//go:build !linux && !darwin && !windows

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
func (*Listener) Accept(time.Duration) (net.Conn, error) { return nil, ErrUnsupported }

// Close does nothing.
func (*Listener) Close() error { return nil }

func dial(string) (net.Conn, error) { return nil, ErrUnsupported }

// DialWait reports ErrUnsupported.
func DialWait(string, string, time.Duration) (net.Conn, error) { return nil, ErrUnsupported }

// SendFiles reports ErrUnsupported.
func SendFiles(net.Conn, ...*os.File) error { return ErrUnsupported }

// ReceiveFiles reports ErrUnsupported.
func ReceiveFiles(net.Conn, int) ([]*os.File, error) { return nil, ErrUnsupported }

// TakePort reports ErrUnsupported.
func TakePort(net.Conn) (*Port, error) { return nil, ErrUnsupported }

// HandOver reports ErrUnsupported.
func HandOver(net.Conn, *os.File, *os.File, *os.File) (int, error) { return 1, ErrUnsupported }
