//go:build unix

package proc

import (
	"context"
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// A launcher's verdict: an exit within the wait is its status (a failure
// unless 0, or 0 with only its standard error left open); one still
// running after the wait has launched; a cancelled wait says so.
func TestWaitBrieflyAndExitStatus(t *testing.T) {
	run := func(script string, wait time.Duration) (bool, error) {
		t.Helper()
		cmd := exec.Command("/bin/sh", "-c", script)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })
		return WaitBriefly(context.Background(), cmd, wait)
	}
	if exited, err := run("exit 3", 10*time.Second); !exited {
		t.Fatalf("exit 3: exited %v, %v", exited, err)
	} else if code, failed := ExitStatus(err); !failed || code != 3 {
		t.Fatalf("exit 3: status %d, failed %v", code, failed)
	}
	if exited, err := run("exit 0", 10*time.Second); !exited {
		t.Fatalf("exit 0: exited %v", exited)
	} else if _, failed := ExitStatus(err); failed {
		t.Fatalf("exit 0 read as a failure: %v", err)
	}
	if exited, err := run("sleep 30", 50*time.Millisecond); exited || err != nil {
		t.Fatalf("a program still running: exited %v, %v; want launched", exited, err)
	}
	if _, failed := ExitStatus(fmt.Errorf("wait: %w", exec.ErrWaitDelay)); failed {
		t.Fatal("only the standard error left open read as a failure")
	}
	if code, failed := ExitStatus(fmt.Errorf("signal: killed")); !failed || code != -1 {
		t.Fatalf("a killed program: status %d, failed %v; want -1", code, failed)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cmd := exec.Command("/bin/sh", "-c", "sleep 30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if exited, err := WaitBriefly(ctx, cmd, 10*time.Second); exited || err != context.Canceled {
		t.Fatalf("a cancelled wait: exited %v, %v", exited, err)
	}
}
