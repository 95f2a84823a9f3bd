package install

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestRunCommands drives install, doctor and uninstall through their
// command-line entry points with the home folder in a temporary directory.
func TestRunCommands(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("DESKBRIDGE_CONFIG", "")
	bin := filepath.Join(home, "deskbridge")
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
	if _, err := os.Stat(filepath.Join(home, ".config/chromium/NativeMessagingHosts", HostName+".json")); !os.IsNotExist(err) {
		t.Errorf("manifest left after uninstall: %v", err)
	}
}

// doctor checks the registrations (deskbridge doctor itself is in
// cmd/deskbridge, where it also loads the configuration as the host does).
func doctor(_ []string, out, _ *bytes.Buffer) int {
	in := NewInstaller(out)
	in.Self = os.Getenv("HOME") + "/deskbridge" // the binary TestRunCommands installs
	if !doctorOK(in, Browsers) {
		return 1
	}
	return 0
}

func wrap(run func([]string, io.Writer, io.Writer) int) func([]string, *bytes.Buffer, *bytes.Buffer) int {
	return func(args []string, out, errOut *bytes.Buffer) int { return run(args, out, errOut) }
}
