//go:build !windows

package localserve

import "syscall"

// detached starts the server in a session of its own, so that the
// browser's closing of the host's process group does not end it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
