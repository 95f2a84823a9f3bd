package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
)

// TestSlowRequestDoesNotHoldUpTheNext: a request sent while a slow one is
// being served (here a command that sleeps) is read and answered at once,
// not after the slow one: the worker serving the slow request passes the
// reading on (engine.port.serve lends it for lendAfter at most).
func TestSlowRequestDoesNotHoldUpTheNext(t *testing.T) {
	sleep := `["sleep","3"]`
	if runtime.GOOS == "windows" { // no sleep.exe: ping waits a second between echoes
		sleep = `["ping","-n","4","127.0.0.1"]`
	}
	cfg, ws := writeConfig(t, `,"commands":{"allow":["sleep","ping"]}`)
	p := start(t, []string{"--config", cfg, origin})
	p.send(frame([]byte(fmt.Sprintf(`{"version":1,"id":"slow","action":"run_command","arguments":{"argv":%s,"cwd":%q}}`, sleep, ws))))
	waitForChild(t, p.cmd.Process.Pid) // the slow request is being served, nothing else is buffered
	p.send(frame([]byte(`{"version":1,"id":"quick","action":"get_status","arguments":{}}`)))
	first := p.recv()
	if first.ID != "quick" || !first.Success {
		t.Fatalf("first answer %+v, want the quick get_status before the sleeping command", first)
	}
	if second := p.recv(); second.ID != "slow" || !second.Success {
		t.Fatalf("second answer %+v, want the command's", second)
	}
	if code := p.closeAndWait(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
}

// waitForChild waits until process pid has a child process, as Linux
// lists them in /proc/PID/task/*/children. Where that list does not
// exist it returns at once.
func waitForChild(t *testing.T, pid int) {
	t.Helper()
	lists, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if len(lists) == 0 {
		return
	}
	started := proctest.WaitFor(func() bool {
		lists, _ = filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
		for _, name := range lists {
			if b, _ := os.ReadFile(name); strings.TrimSpace(string(b)) != "" {
				return true
			}
		}
		return false
	})
	if !started {
		t.Fatalf("host %d started no child process within %v", pid, proctest.Bound)
	}
}
