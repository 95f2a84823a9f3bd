package proc

import "syscall"

// dieWithParent sets the parent-death signal: the kernel sends the child
// SIGKILL when the thread that started it ends. Go threads end only with
// the process (the runtime does not retire a thread that was not locked),
// so in practice the child dies with the host. The signal survives the
// trampoline's exec of the program (it is cleared only for set-user-ID
// programs, which a confined command never runs).
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
