//go:build !windows

package desktop

import "syscall"

// detached puts a launched program in a session of its own, so that
// nothing the host's process group receives reaches it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
