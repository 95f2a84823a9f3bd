//go:build unix

package engine

import "syscall"

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }

// mksock makes a socket file (no listener behind it).
func mksock(p string) error { return syscall.Mknod(p, syscall.S_IFSOCK|0o644, 0) }
