//go:build unix

package sandbox

import "syscall"

// ReadFlag is added when opening a file to read: opening a FIFO or device
// must not block the host, and reading a non-regular file is refused.
const ReadFlag = syscall.O_NONBLOCK
