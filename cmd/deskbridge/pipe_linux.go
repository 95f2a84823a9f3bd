//go:build linux

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// widenOutput asks for a 1 MiB pipe buffer when stdout is a pipe (as
// Chrome starts the host), so that a page-sized response is written in
// one go instead of in 64 KiB turns with the reader. It is best effort:
// the system's pipe-max-size may refuse it.
func widenOutput(out *os.File) {
	if fi, err := out.Stat(); err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
		if raw, err := out.SyscallConn(); err == nil {
			raw.Control(func(fd uintptr) { unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20) })
		}
	}
}
