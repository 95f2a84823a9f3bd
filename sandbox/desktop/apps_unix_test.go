//go:build !windows && !darwin

package desktop

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// desktopFile writes a minimal application entry at dir/rel.
func desktopFile(t *testing.T, dir, rel, name string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "[Desktop Entry]\nType=Application\nName=" + name + "\nExec=/bin/true %F\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFindAppInSubfolders follows the desktop entry specification's file
// IDs: applications/kde/foo.desktop is kde-foo, two folders deep too; a
// direct file of the ID wins.
func TestFindAppInSubfolders(t *testing.T) {
	data := t.TempDir()
	apps := filepath.Join(data, "applications")
	desktopFile(t, apps, "kde/konsole.desktop", "Konsole")
	desktopFile(t, apps, "vendor/suite/writer.desktop", "Writer")
	desktopFile(t, apps, "direct-name.desktop", "Direct")
	desktopFile(t, apps, "direct/name.desktop", "Nested")
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("XDG_DATA_DIRS", filepath.Join(t.TempDir(), "none"))
	for id, want := range map[string]string{"kde-konsole": "Konsole", "vendor-suite-writer": "Writer", "direct-name": "Direct"} {
		e, err := FindApp(id, nil)
		if err != nil || e.Name != want {
			t.Errorf("FindApp(%q) = %q, %v; want %q", id, e.Name, err, want)
		}
	}
	var nf *NotFoundError
	if _, err := FindApp("kde-absent", nil); !errors.As(err, &nf) {
		t.Errorf("FindApp(kde-absent) = %v, want *NotFoundError", err)
	}
}

// TestFindAppStaysInItsFolder: an ID whose parts are ".." never climbs
// out of the applications folder to an entry planted beside it.
func TestFindAppStaysInItsFolder(t *testing.T) {
	data := t.TempDir()
	apps := filepath.Join(data, "applications")
	if err := os.MkdirAll(filepath.Join(apps, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	desktopFile(t, data, "planted.desktop", "Planted")
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("XDG_DATA_DIRS", filepath.Join(t.TempDir(), "none"))
	for _, id := range []string{"x-..-planted", "x-..-..-planted", "..-planted", "x-.-..-planted"} {
		if e, err := FindApp(id, nil); err == nil {
			t.Errorf("FindApp(%q) found %s outside the applications folder", id, e.Path)
		}
	}
}
