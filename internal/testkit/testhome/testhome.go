// Package testhome gives a test binary a home of its own, so that no test
// reads or writes the real user's configuration, state or browser
// manifests through the default paths (config.DefaultPath,
// config.DefaultStateDir, install's manifest folders).
//
// Every package whose code can reach those defaults calls Main from its
// TestMain; the test in internal/layering (TestEveryDefaultPathPackageGuardsHome)
// fails for one that does not. Only test code imports this package.
package testhome

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// homeVars are the variables the default paths are made from, on every OS
// DeskBridge builds for.
var homeVars = []string{
	"HOME", "USERPROFILE", // Unix, Windows
	"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME",
	"APPDATA", "LOCALAPPDATA",
}

// Main runs the tests of m with a temporary home (see Set) and exits with
// their status, after removing it.
func Main(m *testing.M) {
	dir, err := Set()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testhome:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Set points every home and XDG variable at folders of a new temporary
// folder, which it returns, and unsets DESKBRIDGE_CONFIG. The Go tool's
// own cache, module cache and settings keep their real places (a test that
// builds the binary must not download the modules again).
func Set() (string, error) {
	keepGoTool()
	dir, err := os.MkdirTemp("", "deskbridge-home-")
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for _, v := range homeVars {
		p := filepath.Join(dir, "home")
		if v != "HOME" && v != "USERPROFILE" {
			p = filepath.Join(dir, v)
		}
		if err := os.MkdirAll(p, 0o700); err != nil {
			return dir, err
		}
		os.Setenv(v, p)
	}
	os.Unsetenv("DESKBRIDGE_CONFIG")
	return dir, nil
}

// keepGoTool pins GOCACHE, GOPATH and GOENV to where they are now, before
// the home changes under them.
func keepGoTool() {
	pin := func(name string, def func() (string, error), elem ...string) {
		if os.Getenv(name) != "" {
			return
		}
		if d, err := def(); err == nil && d != "" {
			os.Setenv(name, filepath.Join(append([]string{d}, elem...)...))
		}
	}
	pin("GOCACHE", os.UserCacheDir, "go-build")
	pin("GOPATH", os.UserHomeDir, "go")
	pin("GOENV", os.UserConfigDir, "go", "env")
}
