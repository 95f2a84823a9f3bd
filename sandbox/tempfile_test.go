package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func openFolder(t *testing.T, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestTempFileCommits: a temporary file becomes its name whole, replacing
// the old file or, exclusive, refusing an existing one; a discarded or
// refused one leaves nothing. On Linux nothing is in the folder while it
// is written.
func TestTempFileCommits(t *testing.T) {
	dir := t.TempDir()
	root := openFolder(t, dir)
	os.WriteFile(filepath.Join(dir, "old.txt"), []byte("old"), 0o644)

	f, err := CreateTemp(root, ".tmp", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if got := names(t, dir); runtime.GOOS == "linux" && !slices.Equal(got, []string{"old.txt"}) {
		t.Errorf("while written the folder holds %v; an unnamed file leaves no name", got)
	}
	if err := f.Commit("old.txt", false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "old.txt")); string(b) != "new" {
		t.Errorf("old.txt = %q after the commit", b)
	}

	f, _ = CreateTemp(root, ".tmp", 0o644)
	f.Write([]byte("other"))
	if err := f.Commit("old.txt", true); !errors.Is(err, fs.ErrExist) {
		t.Errorf("exclusive commit over a file: %v, want fs.ErrExist", err)
	}
	f, _ = CreateTemp(root, ".part", 0o600)
	f.Write([]byte("half"))
	f.Discard()
	if got := names(t, dir); !slices.Equal(got, []string{"old.txt"}) {
		t.Errorf("after a refused and a discarded file the folder holds %v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "old.txt")); string(b) != "new" {
		t.Errorf("old.txt = %q after the refused commit", b)
	}
}

// TestSweepStaleRemovesOnlyOurOldTemporaries: the sweep removes
// DeskBridge's named temporary files older than StaleAfter, and nothing
// else: not a fresh one (a live writer's), not a look-alike name, not a
// folder.
func TestSweepStaleRemovesOnlyOurOldTemporaries(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * StaleAfter)
	files := map[string]bool{ // name → removed
		".deskbridge-0123456789abcdef.tmp":  true,
		".deskbridge-fedcba9876543210.part": true,
		".deskbridge-0123456789abcdef.txt":  false,
		".deskbridge-ABCDEF0123456789.tmp":  false, // upper case; unlike any other name here even where names ignore case (Windows)
		"deskbridge-0123456789abcdef.tmp":   false,
		".deskbridge-0123456789abcde.tmp":   false,
		"notes.tmp":                         false,
	}
	for name := range files {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("x"), 0o600)
		os.Chtimes(p, old, old)
	}
	fresh := filepath.Join(dir, ".deskbridge-1111111111111111.tmp")
	os.WriteFile(fresh, []byte("x"), 0o600)
	folder := filepath.Join(dir, ".deskbridge-2222222222222222.tmp")
	os.Mkdir(folder, 0o700)
	os.Chtimes(folder, old, old)

	SweepStale(openFolder(t, dir), time.Now())
	for name, removed := range files {
		_, err := os.Lstat(filepath.Join(dir, name))
		if gone := errors.Is(err, fs.ErrNotExist); gone != removed {
			t.Errorf("%s: removed = %v, want %v", name, gone, removed)
		}
	}
	for _, kept := range []string{fresh, folder} {
		if _, err := os.Lstat(kept); err != nil {
			t.Errorf("%s was removed: %v", kept, err)
		}
	}
}
