//go:build !windows

package desktop

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// Launch runs argv (argv[0] found by Find in dirs, never through a shell;
// every other element is one argument, whatever it holds) with PATH set
// to dirs, and waits up to wait (LaunchWait when 0) for its exit status: a
// failure status is a *FailedError with the first line of its standard
// error; a program still running then is a *proc.PendingError (it has
// not said whether it opened anything) and is left running, detached
// from the host's process group.
func Launch(ctx context.Context, argv []string, dirs []string, wait time.Duration) error {
	if len(argv) == 0 {
		return &NotFoundError{Kind: ErrNotFound, Name: "", Err: errors.New("no program")}
	}
	path, err := Find(argv[0], dirs)
	if err != nil {
		return err
	}
	stderr := proc.NewCapped(maxStderr)
	cmd := exec.Command(path, argv[1:]...)
	cmd.Env = proc.WithPath(os.Environ(), strings.Join(dirs, string(os.PathListSeparator)))
	cmd.Stderr = stderr
	cmd.Dir = "/"
	cmd.SysProcAttr = detached()
	// A program the launcher starts may keep its standard error open; the
	// launcher's exit status is what counts.
	cmd.WaitDelay = 100 * time.Millisecond
	return startAndWait(ctx, cmd, filepath.Base(argv[0]), stderr, wait)
}

// runHelper runs a helper program (wl-copy, pbpaste …) found in dirs with
// stdin, and returns at most max bytes of its standard output (more is
// ErrTooLarge); it is killed when ctx ends or after x11Wait.
func runHelper(ctx context.Context, dirs []string, stdin []byte, max int, argv ...string) ([]byte, error) {
	path, err := Find(argv[0], dirs)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, helperWait)
	defer cancel()
	stdout, stderr := proc.NewCapped(max+1), proc.NewCapped(maxStderr)
	cmd := exec.CommandContext(ctx, path, argv[1:]...)
	cmd.Env = proc.WithPath(os.Environ(), strings.Join(dirs, string(os.PathListSeparator)))
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 100 * time.Millisecond
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return nil, ErrTimeout
	}
	if err := proc.Exited(ErrFailed, argv[0], err, stderr.String()); err != nil {
		return nil, err
	}
	if stdout.Len() > max {
		return nil, ErrTooLarge
	}
	return stdout.Bytes(), nil
}

// helperWait bounds a helper program's run.
const helperWait = 10 * time.Second
