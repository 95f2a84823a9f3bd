//go:build !linux

package proc

import "runtime"

func landlockStatus() (bool, string) {
	return false, "Landlock exists only on Linux, not on " + runtime.GOOS
}

// MaybeRunTrampoline must be called first thing in the host's main. Off
// Linux there is no trampoline; it only records that main calls it.
func MaybeRunTrampoline() { trampolineReady = true }

// wallOpts are the trampoline's options (Linux only).
type wallOpts struct {
	noNet bool
	reads []string
	self  bool
}

func wrap(path string, argv, _ []string, _ wallOpts) (string, []string, bool, error) {
	return path, argv, false, nil
}
