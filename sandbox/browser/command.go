//go:build !windows

package browser

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
)

// commandOpener runs a program with the URL as its only argument.
type commandOpener struct{ program string }

// OpenURL starts the program and reaps it in the background: some
// openers wait for the browser they start. A program not on the PATH is a
// *NotFoundError; a failed start wraps ErrNoOpener or ErrStart.
func (c commandOpener) OpenURL(_ context.Context, url string) error {
	path, err := exec.LookPath(c.program)
	if err != nil {
		return &NotFoundError{Program: c.program, Err: err}
	}
	cmd := exec.Command(path, url)
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("%w: %w", ErrNoOpener, err)
		}
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	go cmd.Wait()
	return nil
}
