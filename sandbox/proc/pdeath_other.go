//go:build unix && !linux

package proc

import "syscall"

// dieWithParent does nothing here: only Linux has a parent-death signal.
// The host still kills the child's process group when it ends normally.
func dieWithParent(*syscall.SysProcAttr) {}
