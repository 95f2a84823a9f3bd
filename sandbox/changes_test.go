package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestApplyChangesRollsBack makes the third change's commit fail after the
// first two were put in place (a file appears at its name): the replaced
// file has its old content again, the deleted one is back, the new one and
// its new folder are gone, and no temporary file is left.
func TestApplyChangesRollsBack(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old a"), 0o644)
	os.WriteFile(filepath.Join(dir, "gone.txt"), []byte("old gone"), 0o644)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	beforeCommit = func(i int) {
		if i == 3 {
			os.WriteFile(filepath.Join(dir, "late.txt"), []byte("someone else's"), 0o644)
		}
	}
	defer func() { beforeCommit = func(int) {} }()
	err = ApplyChanges(root, []Change{
		{Rel: "a.txt", Data: []byte("new a")},
		{Rel: "gone.txt", Delete: true},
		{Rel: filepath.Join("new", "deep", "b.txt"), Data: []byte("b")},
		{Rel: "late.txt", Data: []byte("mine")},
	})
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("err %v, want ErrExist", err)
	}
	for name, want := range map[string]string{"a.txt": "old a", "gone.txt": "old gone", "late.txt": "someone else's"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
			t.Errorf("%s: %q, want %q", name, b, want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		for _, e := range entries {
			t.Log(e.Name())
		}
		t.Errorf("%d entries left, want a.txt, gone.txt and late.txt", len(entries))
	}
}

// TestApplyChanges puts every change in place and leaves no backup.
func TestApplyChanges(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old"), 0o755)
	os.WriteFile(filepath.Join(dir, "d.txt"), []byte("x"), 0o644)
	root, _ := os.OpenRoot(dir)
	defer root.Close()
	if err := ApplyChanges(root, []Change{{Rel: "a.txt", Data: []byte("new")}, {Rel: "d.txt", Delete: true}, {Rel: "n/b.txt", Data: []byte("b")}}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(filepath.Join(dir, "a.txt"))
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "new" || fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("a.txt %q mode %v", b, fi.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries, want a.txt and n", len(entries))
	}
}
