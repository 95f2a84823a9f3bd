//go:build !unix && !windows

package proc

import "runtime/debug"

// LimitSelf sets the Go memory limit; this system has no resource limits
// a process sets on itself, so the timeout and the child's own caps are
// the bounds here.
func LimitSelf(memory, _ int64) error {
	if memory > 0 {
		debug.SetMemoryLimit(memory / 2)
	}
	return nil
}
