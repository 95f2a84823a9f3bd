package proc

import (
	"context"
	"errors"
	"fmt"
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
// still runs then (nothing is known of a launcher still running: see
// PendingError; it is reaped in the background); ctx's error when ctx
// ends first.
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

// PendingError is a launcher that was still running when its bounded wait
// ended: it has not said that it opened what it was given (an exit with
// status 0) nor that it failed, so neither is known. xdg-open falling
// through browsers that are not installed looks just like an editor run
// in the foreground. The program is left running (reaped in the
// background); callers report it as pending, never as opened.
type PendingError struct {
	Program string        // the launcher's name (xdg-open, code …)
	Wait    time.Duration // how long it was waited for
}

func (e *PendingError) Error() string {
	return fmt.Sprintf("%s is still running after %s; whether it opened anything is not known yet", e.Program, e.Wait)
}

// Pending returns the outcome of a launcher WaitBriefly left running:
// ctx's error when that ended the wait, else a *PendingError.
func Pending(program string, wait time.Duration, waitErr error) error {
	if waitErr != nil {
		return waitErr
	}
	return &PendingError{Program: program, Wait: wait}
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

// ExitError reports a launcher that exited with a failure status. Kind is
// the caller's sentinel (browser.ErrFailed, desktop.ErrFailed), which
// errors.Is matches, as the project's typed errors do (internal/kinderr).
type ExitError struct {
	Kind    error
	Program string
	Code    int    // the exit status; -1 when it was killed
	Stderr  string // the first line of its standard error, if any
}

// Error implements error.
func (e *ExitError) Error() string {
	msg := fmt.Sprintf("%s exited with status %d", e.Program, e.Code)
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// Is reports whether target is the error's Kind.
func (e *ExitError) Is(target error) bool { return target != nil && target == e.Kind }

// Exited reads a launcher's wait error (ExitStatus): nil for status 0,
// else an *ExitError of kind with the first line of its standard error.
func Exited(kind error, program string, waitErr error, stderr string) error {
	if code, failed := ExitStatus(waitErr); failed {
		return &ExitError{Kind: kind, Program: program, Code: code, Stderr: FirstLine(stderr)}
	}
	return nil
}

// NotFoundError reports a program or application that is not installed.
// Kind is the caller's sentinel (browser.ErrNoOpener, desktop.ErrNotFound),
// which errors.Is matches besides Err.
type NotFoundError struct {
	Kind error
	Name string // the program or application asked for
	Err  error  // where it was looked for, or why it does not count
}

// Error implements error.
func (e *NotFoundError) Error() string { return e.Name + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *NotFoundError) Unwrap() error { return e.Err }

// Is reports whether target is the error's Kind.
func (e *NotFoundError) Is(target error) bool { return target != nil && target == e.Kind }
