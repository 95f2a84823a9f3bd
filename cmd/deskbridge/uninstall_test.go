//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUninstallRemovesOnlyItsOwnManifest: a manifest at DeskBridge's
// place that another program wrote (another path, or another name) is
// left, and uninstall says so; DeskBridge's own is removed once, and a
// second uninstall does not claim to remove it again.
func TestUninstallRemovesOnlyItsOwnManifest(t *testing.T) {
	home := t.TempDir()
	manifest := filepath.Join(home, ".config", "chromium", "NativeMessagingHosts", "com.deskbridge.host.json")
	if err := os.MkdirAll(filepath.Dir(manifest), 0o700); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(binaryPath, args...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "DESKBRIDGE_CONFIG=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("deskbridge %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	for _, foreign := range []string{
		`{"name":"com.deskbridge.host","path":"/opt/other/host","type":"stdio"}`,
		`{"name":"com.example.other","path":"` + binaryPath + `","type":"stdio"}`,
		`not json`,
	} {
		if err := os.WriteFile(manifest, []byte(foreign), 0o600); err != nil {
			t.Fatal(err)
		}
		out := run("uninstall", "--browser", "chromium")
		if got, _ := os.ReadFile(manifest); string(got) != foreign {
			t.Fatalf("uninstall changed another program's manifest %s: now %q\n%s", foreign, got, out)
		}
		if !strings.Contains(out, "chromium: left "+manifest) || strings.Contains(out, "removed") {
			t.Fatalf("uninstall of %s said:\n%s", foreign, out)
		}
	}
	os.Remove(manifest)
	run("install", "--browser", "chromium", "--host-path", binaryPath, "--extension-id", strings.Repeat("a", 32))
	if out := run("uninstall", "--browser", "chromium"); !strings.Contains(out, "chromium: removed "+manifest) {
		t.Fatalf("uninstall of DeskBridge's manifest said:\n%s", out)
	}
	if _, err := os.Stat(manifest); !os.IsNotExist(err) {
		t.Fatalf("DeskBridge's manifest is still there: %v", err)
	}
	if out := run("uninstall", "--browser", "chromium"); strings.Contains(out, "removed") {
		t.Fatalf("a second uninstall claims to remove something:\n%s", out)
	}
}
