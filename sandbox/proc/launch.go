package proc

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"
)

// The launchers (sandbox/browser's URL opener, sandbox/desktop's folder,
// application and editor launchers) start a program that hands the work
// on and exits, or that stays: what they share is here.

// WithPath returns env with PATH set to path and no other PATH.
func WithPath(env []string, path string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+path)
}

// WaitBriefly waits up to wait for the started cmd to exit. It reports
// exited with cmd.Wait's error when it did; exited false and nil when it
// still runs then (a launcher still running has launched; it is reaped in
// the background); ctx's error when ctx ends first.
func WaitBriefly(ctx context.Context, cmd *exec.Cmd, wait time.Duration) (exited bool, err error) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case err := <-done:
		return true, err
	case <-timer.C:
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// ExitStatus reads cmd.Wait's (or Run's) error: failed is false for
// status 0, also when only the program's standard error was left open
// (exec.ErrWaitDelay: a program it started holds it); otherwise code is
// the exit status, -1 when the program was killed or never ran.
func ExitStatus(err error) (code int, failed bool) {
	if err == nil || errors.Is(err, exec.ErrWaitDelay) {
		return 0, false
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), true
	}
	return -1, true
}
