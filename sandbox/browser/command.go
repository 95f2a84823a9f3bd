//go:build !windows

package browser

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// OpenWait bounds how long an opener is waited for. xdg-open and open
// hand the URL to a running browser and exit, and their exit status says
// whether that worked; an opener still running after OpenWait (one that
// runs the browser itself, or xdg-open still trying browsers that are not
// installed) has said nothing yet: OpenURL returns a *proc.PendingError.
const OpenWait = 5 * time.Second

// maxStderr caps the bytes of an opener's standard error kept.
const maxStderr = 4 << 10

// commandOpener runs a program with the URL as its only argument.
type commandOpener struct {
	program string
	dirs    []string      // the folders the program is looked for in
	wait    time.Duration // how long to wait for its exit; 0: OpenWait
}

// OpenURL runs the program and waits, up to c.wait, for its exit status.
// A program in none of the folders is a *NotFoundError; a failed start
// wraps ErrNoOpener or ErrStart; a failure status is a *FailedError with
// the first line of the program's standard error. A program still
// running after the wait is a *proc.PendingError (nothing is known of
// the URL yet), and is reaped in the background.
func (c commandOpener) OpenURL(ctx context.Context, url string) error {
	path := c.find()
	if path == "" {
		return &NotFoundError{Kind: ErrNoOpener, Name: c.program, Err: fmt.Errorf("not in %s: %w", strings.Join(c.dirs, ", "), fs.ErrNotExist)}
	}
	stderr := proc.NewCapped(maxStderr)
	cmd := exec.Command(path, url)
	cmd.Env = proc.WithPath(os.Environ(), strings.Join(c.dirs, string(os.PathListSeparator)))
	cmd.Stderr = stderr
	// A browser the opener starts may keep its standard error open; the
	// opener's exit status is what counts.
	cmd.WaitDelay = 100 * time.Millisecond
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("%w: %w", ErrNoOpener, err)
		}
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	wait := c.wait
	if wait <= 0 {
		wait = OpenWait
	}
	exited, err := proc.WaitBriefly(ctx, cmd, wait)
	if exited {
		return proc.Exited(ErrFailed, c.program, err, stderr.String())
	}
	return proc.Pending(c.program, wait, err)
}

// find returns the program's path in the first of c.dirs that holds it as
// an executable regular file, or "".
func (c commandOpener) find() string {
	for _, d := range c.dirs {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, c.program)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}
