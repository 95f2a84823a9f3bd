package project

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckFolder: a project folder whose parent was swapped for a link
// to a folder outside the workspace is ErrMoved (go-git would otherwise
// write its objects there), the real folder passes.
func TestCheckFolder(t *testing.T) {
	base := t.TempDir()
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "out")
	os.MkdirAll(filepath.Join(ws, "a", "p"), 0o755)
	os.MkdirAll(filepath.Join(out, "p"), 0o755)
	root, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := CheckFolder(root, filepath.Join("a", "p"), filepath.Join(ws, "a", "p")); err != nil {
		t.Fatal(err)
	}
	os.Rename(filepath.Join(ws, "a"), filepath.Join(ws, "a-old"))
	os.Symlink(out, filepath.Join(ws, "a"))
	if err := CheckFolder(root, filepath.Join("a", "p"), filepath.Join(ws, "a", "p")); err == nil {
		t.Fatal("a folder reached through a link out passed")
	}
}

// TestTemplateNames: names that are not one plain folder name are no
// template, and every built-in template has a .gitignore.
func TestTemplateNames(t *testing.T) {
	for _, n := range []string{"", ".", "..", "../x", "a/b", `a\b`, "c:x"} {
		if _, err := Template(t.TempDir(), n, nil); !errors.Is(err, ErrNoTemplate) {
			t.Errorf("%q: %v", n, err)
		}
	}
	for _, n := range Builtin() {
		files, err := Template("", n, map[string]string{"name": "x"})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range files {
			found = found || f.Path == ".gitignore"
		}
		if !found {
			t.Errorf("%s has no .gitignore", n)
		}
	}
}
