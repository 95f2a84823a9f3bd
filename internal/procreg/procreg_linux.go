package procreg

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Identity reads pid's start time and program from /proc.
func Identity(pid int) (ProcID, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ProcID{}, err
	}
	ticks, err := startTicks(b)
	if err != nil {
		return ProcID{}, err
	}
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return ProcID{}, err
	}
	return ProcID{StartTicks: ticks, Exe: exe}, nil
}

// startTicks is field 22 of a /proc/PID/stat line. The command name
// (field 2) may hold spaces and parentheses, so fields are counted after
// its last ')'.
func startTicks(stat []byte) (uint64, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("procreg: malformed stat")
	}
	f := bytes.Fields(stat[i+1:]) // f[0] is field 3
	if len(f) < 20 {
		return 0, errors.New("procreg: malformed stat")
	}
	return strconv.ParseUint(string(f[19]), 10, 64)
}

// owner is the user that owns pid's /proc entry, -1 if unknown.
func owner(pid int) int {
	fi, err := os.Stat("/proc/" + strconv.Itoa(pid))
	if err != nil {
		return -1
	}
	return int(fi.Sys().(*syscall.Stat_t).Uid)
}

// stop takes a pidfd of r's pid, checks that the process is r's, and
// signals through the pidfd: a process that ended after the pidfd was
// taken cannot hand its pid's signal to another.
func stop(r Record, grace time.Duration) error {
	fd, err := unix.PidfdOpen(r.PID, 0)
	if errors.Is(err, unix.ESRCH) {
		return ErrNotOurs
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if !Running(r) {
		return ErrNotOurs
	}
	if err := unix.PidfdSendSignal(fd, unix.SIGTERM, nil, 0); err != nil {
		return err
	}
	if ended(fd, grace) {
		return nil
	}
	if err := unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0); err != nil && !errors.Is(err, unix.ESRCH) {
		return err
	}
	if !ended(fd, grace) {
		return errors.New("still running after SIGKILL")
	}
	return nil
}

// ended waits up to d for the pidfd to say its process has ended.
func ended(fd int, d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	end := time.Now().Add(d)
	for {
		n, err := unix.Poll(fds, int(max(time.Until(end).Milliseconds(), 0)))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil && n > 0
	}
}
