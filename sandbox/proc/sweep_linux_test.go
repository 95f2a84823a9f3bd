//go:build linux

package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// running reports whether pid is alive and not a zombie.
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || len(s) <= i+2 || (s[i+2] != 'Z' && s[i+2] != 'X')
}

// TestSweepKillsSetsidGrandchild: a grandchild that left the process group
// with setsid is killed at the timeout and when the child exits.
func TestSweepKillsSetsidGrandchild(t *testing.T) {
	for _, tc := range []struct {
		name, tail string
		timeout    time.Duration
	}{
		{"timeout", "; sleep 60", 500 * time.Millisecond},
		{"exit", "", 20 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			s := sh("setsid /usr/bin/sleep 300 </dev/null >/dev/null 2>&1 & echo $! > " + pidFile + tc.tail)
			s.Timeout = tc.timeout
			mustRun(t, s)
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			if running(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the setsid grandchild %d outlived the run", pid)
			}
		})
	}
}

// TestSweepSparesOthers: a process without the run's token is left alone.
func TestSweepSparesOthers(t *testing.T) {
	cmd := exec.Command("/usr/bin/sleep", "300")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sweep(newRunToken())
	if !running(cmd.Process.Pid) {
		t.Fatal("sweep killed a process of another run")
	}
}
