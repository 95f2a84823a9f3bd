package docconv

import "runtime/debug"

// limitSelf sets the Go memory limit; Windows has no resource limits a
// process sets on itself (a job object would be the host's to make), so
// the timeout and the converter's own caps are the bounds here.
func limitSelf(memory, _ int64) error {
	if memory > 0 {
		debug.SetMemoryLimit(memory / 2)
	}
	return nil
}
