//go:build unix && !linux

package proctest

// waitGone polls: only Linux has pidfds.
func waitGone(pid int) error { return pollGone(pid) }

// zombie is false: without /proc, a zombie is gone once reaped.
func zombie(int) bool { return false }
