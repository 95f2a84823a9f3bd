package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

func copyRoots(t *testing.T) (src, dst *os.Root, srcDir, outside string) {
	t.Helper()
	srcDir, dstDir, outside := t.TempDir(), t.TempDir(), t.TempDir()
	var err error
	if src, err = os.OpenRoot(srcDir); err != nil {
		t.Fatal(err)
	}
	if dst, err = os.OpenRoot(dstDir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close(); dst.Close() })
	os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o600)
	os.WriteFile(filepath.Join(srcDir, "a.txt"), []byte("hello"), 0o644)
	return src, dst, srcDir, outside
}

func TestCopy(t *testing.T) {
	src, dst, _, _ := copyRoots(t)
	got, err := Copy(src, "a.txt", dst, "b.txt", CopyOptions{})
	if err != nil || got.Size != 5 || !got.Created || got.SHA256 != "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" {
		t.Fatalf("Copy = %+v, %v", got, err)
	}
	if _, err := Copy(src, "a.txt", dst, "b.txt", CopyOptions{}); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second Copy err = %v, want fs.ErrExist", err)
	}
	if got, err := Copy(src, "a.txt", dst, "b.txt", CopyOptions{Overwrite: true}); err != nil || got.Created {
		t.Fatalf("overwrite = %+v, %v", got, err)
	}
	if _, err := Copy(src, "a.txt", dst, "c.txt", CopyOptions{MaxBytes: 4}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit err = %v, want ErrTooLarge", err)
	}
	names, _ := fs.Glob(dst.FS(), "*")
	if len(names) != 1 || names[0] != "b.txt" {
		t.Fatalf("destination holds %v, want only b.txt", names)
	}
}

// A symlink swapped into the source after the check cannot lead out of
// the source's root, as a file or as a folder.
func TestCopyRefusesLinksOut(t *testing.T) {
	wine.Skip(t, wine.NoSymlinks)
	src, dst, srcDir, outside := copyRoots(t)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(srcDir, "file-link"))
	os.Symlink(outside, filepath.Join(srcDir, "dir-link"))
	os.Symlink("a.txt", filepath.Join(srcDir, "inner-link"))
	for _, rel := range []string{"file-link", filepath.Join("dir-link", "secret"), "inner-link", filepath.Join("..", filepath.Base(outside), "secret")} {
		t.Run(rel, func(t *testing.T) {
			_, err := Copy(src, rel, dst, "out.txt", CopyOptions{})
			var se *SourceError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a SourceError", err)
			}
			if _, err := dst.Lstat("out.txt"); !errors.Is(err, fs.ErrNotExist) {
				t.Fatal("something was written")
			}
		})
	}
}
