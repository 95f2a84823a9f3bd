package install

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// TestRunCommands drives install, doctor and uninstall through their
// command-line entry points with the home folder in a temporary directory.
//
// On Windows the manifests go to %LOCALAPPDATA% and the configuration to
// %APPDATA%, both temporary, but the registry values are the user's own
// (HKCU): so there it runs only in the throwaway Wine prefix of
// scripts/wine/test.sh, where it checks install, doctor and uninstall
// against a real registry.
func TestRunCommands(t *testing.T) {
	if runtime.GOOS == "windows" && !wine.Running() {
		t.Skip("writes the user's registry (HKCU): on Windows it runs only in a throwaway Wine prefix")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("APPDATA", filepath.Join(home, "AppData", "Roaming"))
	t.Setenv("LOCALAPPDATA", filepath.Join(home, "AppData", "Local"))
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("DESKBRIDGE_CONFIG", "")
	bin := installedBin(home)
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		run  func([]string, *bytes.Buffer, *bytes.Buffer) int
		args []string
		want int
	}{
		{"bad id", wrap(RunInstall), []string{"--host-path", bin, "--extension-id", "chrome-extension://*/"}, 1},
		{"bad flag", wrap(RunInstall), []string{"--nope"}, 2},
		{"firefox not offered", wrap(RunInstall), []string{"--host-path", bin, "--firefox-id", "d@example.org"}, 2},
		{"firefox refused", wrap(RunInstall), []string{"--browser", "firefox", "--host-path", bin, "--extension-id", idA}, 1},
		{"doctor before", doctor, nil, 1},
		{"install", wrap(RunInstall), []string{"--browser", "chromium", "--host-path", bin, "--extension-id", idA}, 0},
		{"doctor after", doctor, nil, 0},
		{"uninstall", wrap(RunUninstall), []string{"--browser", "all"}, 0},
		{"doctor after uninstall", doctor, nil, 1},
	}
	for _, s := range steps {
		var out, errOut bytes.Buffer
		if got := s.run(s.args, &out, &errOut); got != s.want {
			t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", s.name, got, s.want, &out, &errOut)
		}
	}
	loc, err := Locations(runtime.GOOS, Chromium, User, EnvFromOS())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(loc.Manifest, home) {
		t.Fatalf("manifest %s is not in the test's home %s", loc.Manifest, home)
	}
	if _, err := os.Stat(loc.Manifest); !os.IsNotExist(err) {
		t.Errorf("manifest left after uninstall: %v", err)
	}
	if loc.Registry != nil {
		if v, err := platformRegistry().Default(*loc.Registry); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("registry %s left after uninstall: %q, %v", loc.Registry, v, err)
		}
	}
}

// doctor checks the registrations (deskbridge doctor itself is in
// cmd/deskbridge, where it also loads the configuration as the host does).
func doctor(_ []string, out, _ *bytes.Buffer) int {
	in := NewInstaller(out)
	in.Self = installedBin(os.Getenv("HOME"))
	if !doctorOK(in, Browsers) {
		return 1
	}
	return 0
}

// installedBin is the binary TestRunCommands installs from home.
func installedBin(home string) string {
	if runtime.GOOS == "windows" {
		return filepath.Join(home, "deskbridge.exe")
	}
	return filepath.Join(home, "deskbridge")
}

func wrap(run func([]string, io.Writer, io.Writer) int) func([]string, *bytes.Buffer, *bytes.Buffer) int {
	return func(args []string, out, errOut *bytes.Buffer) int { return run(args, out, errOut) }
}
