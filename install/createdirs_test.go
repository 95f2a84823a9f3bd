package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUninstallRemovesOnlyTheFoldersInstallCreated: uninstall removes the
// empty manifest folders install created, and leaves a folder that was
// there before and one that holds another file.
func TestUninstallRemovesOnlyTheFoldersInstallCreated(t *testing.T) {
	in, bin, out := linuxInstaller(t)
	o := linuxOptions(in, bin)
	o.Browsers = []Browser{Chrome, Chromium, Edge}
	chrome, _ := Locations("linux", Chrome, User, in.Env)
	chromium, _ := Locations("linux", Chromium, User, in.Env)
	edge, _ := Locations("linux", Edge, User, in.Env)
	existing := filepath.Dir(chrome.Manifest)
	if err := os.MkdirAll(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := in.Install(o); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(filepath.Dir(edge.Manifest), "other.host.json")
	if err := os.WriteFile(foreign, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := in.Uninstall(o.Browsers, User, bin); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(existing); err != nil {
		t.Errorf("uninstall removed %s, which was there before install: %v", existing, err)
	}
	for _, gone := range []string{filepath.Dir(chromium.Manifest), filepath.Dir(filepath.Dir(chromium.Manifest))} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("uninstall left %s, which install created: %v", gone, err)
		}
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("uninstall removed a folder holding another file: %v", err)
	}
	if !strings.Contains(out.String(), "removed folder "+filepath.Dir(chromium.Manifest)) || !strings.Contains(out.String(), "left folder "+filepath.Dir(edge.Manifest)) {
		t.Errorf("uninstall output:\n%s", out)
	}
}

// TestSystemInstallWarnsOfAPrivateFolder: a system-wide registration of a
// binary inside a folder other users cannot enter is warned of.
func TestSystemInstallWarnsOfAPrivateFolder(t *testing.T) {
	in, bin, out := linuxInstaller(t)
	private := filepath.Dir(bin)
	if err := os.Chmod(private, 0o700); err != nil {
		t.Fatal(err)
	}
	in.warnPrivate(bin)
	if !strings.Contains(out.String(), "warn "+bin+" is inside "+private+", which other users cannot enter (mode 0700)") {
		t.Errorf("no warning of the private folder:\n%s", out)
	}
	out.Reset()
	os.Chmod(private, 0o755)
	os.Chmod(bin, 0o750)
	in.warnPrivate(bin)
	if !strings.Contains(out.String(), "warn "+bin+" is not executable by other users (mode 0750)") {
		t.Errorf("no warning of the binary's mode:\n%s", out)
	}
}
