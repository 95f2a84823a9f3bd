//go:build !windows

package engine

import "golang.org/x/sys/unix"

// writable reports whether this process may write p (a folder: create in
// it), as the kernel's access check answers, without writing.
func writable(p string) error {
	return unix.Access(p, unix.W_OK)
}
