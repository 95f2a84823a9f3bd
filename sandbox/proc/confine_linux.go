//go:build linux

package proc

import (
	"fmt"
	"runtime"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// ConfineSelf confines the calling process, every thread of it, for the
// rest of its life, as a confined child is: Landlock lets it read, run or
// change nothing in the file system but below writable (where the kernel
// has Landlock), and the seccomp filter refuses it every new socket and
// what the wall's filter refuses. For a detached helper of the host's own
// binary (the clipboard owner) once it holds what it needs: its display
// connection and its content.
func ConfineSelf(writable ...string) error {
	cfg := landlock.Config{HandledAccessFS: writeRights | readRights, Scoped: scopes}.BestEffort()
	if err := cfg.Restrict(landlock.PathAccess(writeRights|readRights, writable...).IgnoreIfMissing()); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	// The filter on every thread (installSeccomp: a thread that could not
	// take it fails the call), no_new_privs with it; the calling thread
	// locked only while it is installed.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := installSeccomp(true); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return nil
}
