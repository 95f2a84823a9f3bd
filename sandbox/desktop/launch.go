package desktop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// LaunchWait bounds how long a launcher is waited for. A file manager or
// opener (xdg-open, open) hands its argument to a running program and
// exits, and its exit status says whether that worked; a program still
// running after LaunchWait (an editor or application run in the
// foreground, or xdg-open still trying browsers that are not installed)
// has said nothing yet, and is a *proc.PendingError.
const LaunchWait = 5 * time.Second

// maxStderr caps the bytes of a launcher's standard error kept.
const maxStderr = 4 << 10

// Find returns the path of program: program itself when it is absolute
// and executable, else the first of dirs (absolute folders only) that
// holds it as an executable regular file; a program found nowhere is a
// *NotFoundError. The inherited PATH is never searched.
func Find(program string, dirs []string) (string, error) {
	if filepath.IsAbs(program) {
		if executable(program) {
			return program, nil
		}
		return "", &NotFoundError{Kind: ErrNotFound, Name: program, Err: os.ErrNotExist}
	}
	if program == "" || strings.ContainsAny(program, `/\`) {
		return "", &NotFoundError{Kind: ErrNotFound, Name: program, Err: errors.New("not a program name")}
	}
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			continue
		}
		if p := filepath.Join(d, program); executable(p) {
			return p, nil
		}
	}
	return "", &NotFoundError{Kind: ErrNotFound, Name: program, Err: errors.New("not in " + strings.Join(dirs, ", "))}
}

// executable reports whether p is an executable regular file (any file on
// Windows, which has no execute bit).
func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && (fi.Mode().Perm()&0o111 != 0 || filepath.Ext(p) != "" && os.PathSeparator == '\\')
}

// startAndWait starts a launcher and waits up to wait (LaunchWait when 0)
// for it to exit: an exit within the wait is its verdict (exitError, with
// the first line of stderr); one still running then is a
// *proc.PendingError, since it has not said whether it opened anything.
func startAndWait(ctx context.Context, cmd *exec.Cmd, program string, stderr *proc.Capped, wait time.Duration) error {
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	if wait <= 0 {
		wait = LaunchWait
	}
	exited, err := proc.WaitBriefly(ctx, cmd, wait)
	if exited {
		return proc.Exited(ErrFailed, program, err, stderr.String())
	}
	return proc.Pending(program, wait, err)
}
