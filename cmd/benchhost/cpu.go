package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// clockTick is the unit of utime and stime in /proc/PID/stat (USER_HZ,
// 100 on every Linux configuration Go supports).
const clockTick = 10 * time.Millisecond

// cpuTime returns the CPU time (user plus system, all threads) the
// process pid has used so far, from /proc/PID/stat; ok is false where
// that file does not exist (not Linux).
func cpuTime(pid int) (d time.Duration, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name (field 2) is in parentheses and may hold spaces;
	// utime and stime are fields 14 and 15, the 12th and 13th after it.
	end := bytes.LastIndexByte(b, ')')
	if end < 0 {
		return 0, false
	}
	fields := bytes.Fields(b[end+1:])
	if len(fields) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(string(fields[11]), 10, 64)
	stime, err2 := strconv.ParseInt(string(fields[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * clockTick, true
}

// perRequest is the server's CPU time per request over a run of n
// requests that began when it had used before; zero when unknown.
func (p *proc) perRequest(before time.Duration, n int) time.Duration {
	after, ok := cpuTime(p.cmd.Process.Pid)
	if !ok || n == 0 {
		return 0
	}
	return (after - before) / time.Duration(n)
}

// cpuNow is the server's CPU time so far (zero when unknown).
func (p *proc) cpuNow() time.Duration {
	d, _ := cpuTime(p.cmd.Process.Pid)
	return d
}

// us formats a duration in microseconds, or "-" for zero.
func us(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f µs", float64(d.Nanoseconds())/1000)
}
