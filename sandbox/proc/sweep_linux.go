//go:build linux

package proc

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// maxSweeps bounds the rounds of sweep: a process may fork between rounds.
const maxSweeps = 8

// deathWait bounds how long sweep waits for one killed process to exit.
const deathWait = 2000 // milliseconds

// sweep kills every process that still carries the run's token. It pins
// each one with a pidfd and checks the token again before signalling, so a
// reused pid is never killed, and waits on the pidfd until the process has
// exited (SIGKILL is delivered asynchronously), so a swept process is gone
// when sweep returns.
func sweep(token string) {
	needle := []byte(RunVar + "=" + token)
	for range maxSweeps {
		if sweepOnce(needle) == 0 {
			return
		}
	}
}

func sweepOnce(needle []byte) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	self, killed := os.Getpid(), 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || !carries(pid, needle) {
			continue
		}
		if killPinned(pid, needle) {
			killed++
		}
	}
	return killed
}

func killPinned(pid int, needle []byte) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	if !carries(pid, needle) {
		return false
	}
	if unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) != nil {
		return false
	}
	awaitExit(fd)
	return true
}

// awaitExit waits until the process behind pidfd fd has exited (the pidfd
// becomes readable), for at most deathWait.
func awaitExit(fd int) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(fds, deathWait)
		if err != unix.EINTR {
			return
		}
	}
}

// carries reports whether process pid's environment holds needle.
func carries(pid int, needle []byte) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		if bytes.Equal(kv, needle) {
			return true
		}
	}
	return false
}
