package localserve

import "syscall"

// detached starts the server without a console, in a process group of
// its own (DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP), so it outlives
// the host Chrome started.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: 0x00000008 | 0x00000200, HideWindow: true}
}
