package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"testing"
)

// runBin runs the built binary with args in dir (the test's temporary
// folder when ""), with env added to the test's environment, and returns
// its stdout, stderr and exit code.
func runBin(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binaryPath, args...)
	cmd.Dir = dir
	if dir == "" {
		cmd.Dir = t.TempDir()
	}
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errOut.String(), 0
	case errors.As(err, &exit):
		return out.String(), errOut.String(), exit.ExitCode()
	}
	t.Fatalf("deskbridge %v: %v", args, err)
	return "", "", -1
}
