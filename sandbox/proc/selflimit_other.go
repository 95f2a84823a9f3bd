//go:build !unix

package proc

import "runtime/debug"

// LimitSelf sets the Go memory limit; Windows has no resource limits a
// process sets on itself (its job object is the host's to make), so the
// timeout and the child's own caps are the bounds here.
func LimitSelf(memory, _ int64) error {
	if memory > 0 {
		debug.SetMemoryLimit(memory / 2)
	}
	return nil
}
