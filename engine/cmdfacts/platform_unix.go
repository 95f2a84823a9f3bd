//go:build !windows

package cmdfacts

// Native returns the platform the host runs on.
func Native() Platform { return Unix() }
