//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// portInput returns the host's input stream. When stdin is a pipe (as
// Chrome starts the host) it is switched to non-blocking mode and read
// through Go's poller: a worker waiting for the next frame then parks
// instead of holding a thread in read(2), which the runtime's monitor
// otherwise keeps retaking every 20 µs. restore puts the pipe back into
// blocking mode. Any other stdin is used as it is.
func portInput() (in io.Reader, restore func()) {
	fi, err := os.Stdin.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return os.Stdin, func() {}
	}
	fd := int(os.Stdin.Fd())
	if syscall.SetNonblock(fd, true) != nil {
		return os.Stdin, func() {}
	}
	return os.NewFile(uintptr(fd), "/dev/stdin"), func() { syscall.SetNonblock(fd, false) }
}
