//go:build linux

package proc

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// A confined child also runs under a seccomp filter, for what Landlock
// (up to ABI 7) does not cover: connecting to a Unix socket that has a
// path (a session bus at /run/user/<uid>/bus, a tmux or screen server, an
// ssh or gpg agent, the docker socket), through which a service outside
// the wall would act for the child. The filter refuses creating an
// AF_UNIX socket at all (socketpair stays: it reaches nobody), SysV
// shared memory, message queues and semaphores (reachable across the wall
// by key), and io_uring (whose operations bypass system call filters),
// and answers ENOSYS to a system call of another table (int 0x80 on
// amd64, x32) so none of these can be reached by another number.

// refusedCalls are the system calls the filter refuses outright, with the
// error each gets.
var refusedCalls = []struct {
	nr    uint32
	errno unix.Errno
}{
	{unix.SYS_SHMGET, unix.EPERM}, {unix.SYS_SHMAT, unix.EPERM},
	{unix.SYS_MSGGET, unix.EPERM}, {unix.SYS_SEMGET, unix.EPERM},
	{unix.SYS_IO_URING_SETUP, unix.ENOSYS}, {unix.SYS_IO_URING_ENTER, unix.ENOSYS},
	{unix.SYS_IO_URING_REGISTER, unix.ENOSYS},
}

// Offsets in struct seccomp_data.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // the low 32 bits of args[0] (little-endian)
)

// seccompProgram returns the filter; ok is false where this architecture
// has none (auditArch is 0). With noNet the filter refuses creating a
// socket of any family (Spec.NoNetwork), so the child reaches no network.
func seccompProgram(noNet ...bool) (insts []bpf.Instruction, ok bool) {
	if auditArch == 0 {
		return nil, false
	}
	ret := func(errno unix.Errno) bpf.Instruction {
		return bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(errno)}
	}
	insts = []bpf.Instruction{
		bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: auditArch, SkipTrue: 1},
		ret(unix.ENOSYS),
		bpf.LoadAbsolute{Off: offNr, Size: 4},
	}
	if foreignNr != 0 { // x32's numbers on amd64
		insts = append(insts, bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: foreignNr, SkipFalse: 1}, ret(unix.ENOSYS))
	}
	for _, c := range refusedCalls {
		insts = append(insts, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: c.nr, SkipTrue: 1}, ret(c.errno))
	}
	if len(noNet) > 0 && noNet[0] {
		return append(insts,
			bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: unix.SYS_SOCKET, SkipTrue: 1},
			ret(unix.EACCES),
			bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW},
		), true
	}
	return append(insts,
		bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: unix.SYS_SOCKET, SkipTrue: 3},
		bpf.LoadAbsolute{Off: offArg0, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: unix.AF_UNIX, SkipTrue: 1},
		ret(unix.EACCES),
		bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW},
	), true
}

// loadSeccomp installs the filter on every thread of the process (TSYNC),
// the calling one locked: the trampoline then execs from this very
// thread, and the filter stays with the program, or goes on as a child of
// its own executable with the filter on all its threads. Where this
// architecture has no filter it does nothing.
func loadSeccomp(noNet bool) error {
	runtime.LockOSThread()
	return installSeccomp(noNet)
}

// installSeccomp sets no_new_privs on the calling thread and installs the
// filter on every thread of the process (TSYNC, which carries
// no_new_privs to them too). The caller keeps its goroutine locked to its
// thread. Where this architecture has no filter it does nothing.
func installSeccomp(noNet bool) error {
	insts, ok := seccompProgram(noNet)
	if !ok {
		return nil
	}
	prog, err := bpf.Assemble(insts)
	if err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	filter := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		filter[i] = unix.SockFilter{Code: in.Op, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	// TSYNC: on every thread of the process, not only this one, for a
	// trampoline that goes on as the child (Spec.SelfChild) rather than
	// exec it, whose runtime's other threads would otherwise be free. A
	// thread that cannot take it (one under a filter of its own) is named
	// by a positive return, and then no thread has the filter: that must
	// fail, never pass for confined.
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	if errno != 0 {
		return errno
	}
	if r != 0 {
		return fmt.Errorf("thread %d cannot take the filter", r)
	}
	return nil
}
