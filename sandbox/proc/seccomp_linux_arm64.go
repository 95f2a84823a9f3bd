package proc

import "golang.org/x/sys/unix"

// auditArch is the system call table the filter allows; arm64 has no
// second table sharing it.
const (
	auditArch = unix.AUDIT_ARCH_AARCH64
	foreignNr = 0
)
