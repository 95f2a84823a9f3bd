//go:build !linux

package proc

// ConfineSelf confines the calling process where the system offers a way
// (Linux: Landlock and seccomp); elsewhere it does nothing and says so.
func ConfineSelf(writable ...string) error { return ErrNoSelfConfinement }
