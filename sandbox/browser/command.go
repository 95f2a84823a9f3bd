//go:build !windows

package browser

import (
	"context"
	"errors"
	"os/exec"

	"github.com/deskbridge/deskbridge/protocol"
)

// commandOpener runs a program with the URL as its only argument.
type commandOpener struct{ program string }

// OpenURL starts the program and reaps it in the background: some
// openers wait for the browser they start.
func (c commandOpener) OpenURL(_ context.Context, url string) error {
	path, err := exec.LookPath(c.program)
	if err != nil {
		return protocol.Wrap(protocol.SkillRuntimeUnavailable, err,
			"No program to open URLs was found ("+c.program+"); install it or open the URL yourself.")
	}
	cmd := exec.Command(path, url)
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return protocol.Wrap(protocol.SkillRuntimeUnavailable, err, "The program that opens URLs is missing; install it or open the URL yourself.")
		}
		return protocol.Wrap(protocol.ExecutionFailed, err, "The browser could not be started; open the URL yourself.")
	}
	go cmd.Wait()
	return nil
}
