package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// lsArgv is the JSON argv of a harmless command on the default whitelist
// that succeeds in a workspace holding a.txt: ls, or on Windows, which has
// no ls, find.exe (in System32) looking for "hi" in a.txt.
func lsArgv() string {
	if runtime.GOOS == "windows" {
		return `["find","hi","a.txt"]`
	}
	return `["ls"]`
}

// withLs puts lsArgv in place of the argv ["ls"] of a request.
func withLs(req string) string { return strings.ReplaceAll(req, `"argv":["ls"]`, `"argv":`+lsArgv()) }

// outsideFile writes a file in no workspace and returns its path: the
// role /etc/hostname plays on Unix, on every system.
func outsideFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hostname")
	if err := os.WriteFile(p, []byte("host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
