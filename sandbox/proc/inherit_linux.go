//go:build linux

package proc

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// markInheritedCloseOnExec sets close-on-exec on every descriptor from 3
// up, at the start of a process of the host's binary that is not a
// trampoline. Go opens its own files close-on-exec, but a descriptor the
// process inherited without the flag (one its launcher left open: a
// terminal's, a shell's pipe, a service manager's socket) would otherwise
// pass through exec.Cmd to every child, through the trampoline's exec and
// into a child that continues in the trampoline, open across the wall.
// What a child is meant to have is given to it (exec.Cmd's ExtraFiles,
// which it places whatever their flag); a process that reads a descriptor
// it was given still reads it, only its own children do not inherit it.
func markInheritedCloseOnExec() {
	if unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	// Before Linux 5.11: each open descriptor, from /proc.
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range fds {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd >= 3 {
			unix.CloseOnExec(fd)
		}
	}
}
