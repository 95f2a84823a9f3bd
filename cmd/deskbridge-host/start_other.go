//go:build !linux && !darwin && !windows

package main

// startWarm does nothing: this platform has no warm process yet.
func startWarm(_, _, _ string) bool { return false }
