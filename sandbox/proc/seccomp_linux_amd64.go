package proc

import "golang.org/x/sys/unix"

// auditArch is the system call table the filter allows; foreignNr the
// first number of x32's, which shares it.
const (
	auditArch = unix.AUDIT_ARCH_X86_64
	foreignNr = 0x40000000
)
