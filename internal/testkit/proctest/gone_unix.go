//go:build unix

package proctest

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

// WaitGone waits until process pid has ended (killed or exited; a zombie
// waiting for its parent has ended too), and fails t if it still runs
// after Bound. A process that has ended cannot act any more.
func WaitGone(t testing.TB, pid int) {
	t.Helper()
	if err := waitGone(pid); err != nil {
		t.Fatalf("process %d is still running after %v: %v", pid, Bound, err)
	}
}

// Gone reports whether process pid has ended (a zombie has).
func Gone(pid int) bool {
	err := unix.Kill(pid, 0)
	return errors.Is(err, unix.ESRCH) || zombie(pid)
}

// errRunning is waitGone's answer when the bound passed.
var errRunning = errors.New("still running")

// pollGone waits for Gone by polling, where no event says so.
func pollGone(pid int) error {
	if WaitFor(func() bool { return Gone(pid) }) {
		return nil
	}
	return errRunning
}
