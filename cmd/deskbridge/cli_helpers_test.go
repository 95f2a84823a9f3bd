package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// runBin runs the built binary with args in dir (the test's temporary
// folder when ""), with env added to the test's environment, and returns
// its stdout, stderr and exit code.
func runBin(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	var out, errOut bytes.Buffer
	var err error
	for try := 1; ; try++ {
		cmd := exec.Command(binaryPath, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out.Reset()
		errOut.Reset()
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err = cmd.Run()
		if try == 3 || !wineStartFailed(err) {
			break
		}
		t.Logf("deskbridge %v: %v under Wine (%s); starting it again", args, err, wine.StartInternalError)
	}
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

// wineStartFailed reports whether, under Wine, err is a failure to start
// the program at all (CreateProcess, seen as "fork/exec ...: Internal
// error."): it never ran, so starting it again changes nothing it does.
func wineStartFailed(err error) bool {
	var pe *fs.PathError
	var errno syscall.Errno
	return wine.Running() && errors.As(err, &pe) && pe.Op == "fork/exec" && errors.As(err, &errno)
}
