package proc

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWorkspaceCache: each workspace gets a cache folder of its own below
// the state folder, the same on every call, and none when that folder is a
// symbolic link (which a command of a workspace holding the state folder
// could have planted to lead the wall elsewhere).
func TestWorkspaceCache(t *testing.T) {
	state, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, b := WorkspaceCache(state, "/ws/a"), WorkspaceCache(state, "/ws/b")
	if a == "" || b == "" || a == b || filepath.Dir(a) != filepath.Join(state, "cache") {
		t.Fatalf("caches %q and %q", a, b)
	}
	if again := WorkspaceCache(state, "/ws/a"); again != a {
		t.Fatalf("second call %q, first %q", again, a)
	}
	if fi, err := os.Stat(a); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("cache %s: %v %v", a, fi, err)
	}
	elsewhere := t.TempDir()
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, b); err != nil {
		t.Fatal(err)
	}
	if got := WorkspaceCache(state, "/ws/b"); got != "" {
		t.Fatalf("a cache folder swapped for a symlink gave %q", got)
	}
}
