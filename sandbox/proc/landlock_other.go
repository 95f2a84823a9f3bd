//go:build !linux

package proc

import "runtime"

func landlockStatus() (bool, string) {
	return false, "Landlock exists only on Linux, not on " + runtime.GOOS
}

// MaybeRunTrampoline must be called first thing in the host's main. Off
// Linux there is no trampoline; it only records that main calls it.
func MaybeRunTrampoline() { trampolineReady = true }

func wrap(path string, argv, _ []string, _ bool) (string, []string, bool, error) {
	return path, argv, false, nil
}
