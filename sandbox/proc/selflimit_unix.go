//go:build unix

package proc

import (
	"runtime/debug"

	"golang.org/x/sys/unix"
)

// LimitSelf lowers the calling process's own resource limits, for a
// child of the host's own binary (the document converter, the image
// worker) before it reads a byte of its input; they hold for the programs
// it starts too: its data memory (RLIMIT_DATA, which unlike RLIMIT_AS leaves the Go runtime its
// address-space reservations), CPU seconds, the size of a file it writes
// (its temporary folder only), open files, and no core dump; a limit of 0
// is left as it is. The Go memory limit makes the collector work hard well
// before the memory cap.
func LimitSelf(memory, cpu int64) error {
	if memory > 0 {
		debug.SetMemoryLimit(memory / 2)
		if err := setLimit(unix.RLIMIT_DATA, uint64(memory)); err != nil {
			return err
		}
	}
	if cpu > 0 {
		if err := setLimit(unix.RLIMIT_CPU, uint64(cpu)); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		res int
		max uint64
	}{{unix.RLIMIT_FSIZE, 256 << 20}, {unix.RLIMIT_NOFILE, 64}, {unix.RLIMIT_CORE, 0}} {
		if err := setLimit(l.res, l.max); err != nil {
			return err
		}
	}
	return nil
}

// setLimit lowers resource res to max (never raises it).
func setLimit(res int, max uint64) error {
	var cur unix.Rlimit
	if err := unix.Getrlimit(res, &cur); err != nil {
		return err
	}
	if cur.Max != unix.RLIM_INFINITY && cur.Max < max {
		max = cur.Max
	}
	return unix.Setrlimit(res, &unix.Rlimit{Cur: max, Max: max})
}
