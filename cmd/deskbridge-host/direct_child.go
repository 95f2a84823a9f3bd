//go:build !linux && !darwin

package main

import (
	"errors"
	"os"
	"os/exec"
)

// direct runs deskbridge with the same arguments on this program's
// standard streams and returns its exit status (there is no exec here).
func direct(full string, args []string) int {
	cmd := exec.Command(full, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	os.Stderr.WriteString("deskbridge-host: " + err.Error() + "\n")
	return 1
}
