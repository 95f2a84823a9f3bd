//go:build unix

package decisionlog

import "syscall"

// processCPU is the user and system CPU time this process has used, in
// nanoseconds: on a shared machine it varies less with load than the
// wall-clock time per operation.
func processCPU() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
