//go:build linux

package proc

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
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
	insts, ok := seccompProgram(true)
	if !ok {
		return nil
	}
	prog, err := bpf.Assemble(insts)
	if err != nil {
		return err
	}
	filter := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		filter[i] = unix.SockFilter{Code: in.Op, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	// no_new_privs on this thread, then the filter on every thread
	// (TSYNC, which carries no_new_privs to them too).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("seccomp: %w", errno)
	}
	return nil
}
