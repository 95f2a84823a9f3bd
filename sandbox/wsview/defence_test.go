package wsview

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// TestOpenRefusesLinks calls the openers directly, past resolve and the
// walk, as if a link had been swapped in after those checks.
func TestOpenRefusesLinks(t *testing.T) {
	wine.Skip(t, wine.NoSymlinks)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"secrets/a.txt": marker, ".env": marker})
	symlink(t, ".env", filepath.Join(dir, "notes.txt"))
	symlink(t, "secrets", filepath.Join(dir, "innocent"))
	v := openView(t, dir)

	t.Run("search file link", func(t *testing.T) {
		r, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		d := newDirNode(r)
		defer d.release()
		f, _ := r.Open(".")
		d.dirf, d.fd = f, dirFD(f)
		if data, _, ok := readFileIn(d, "notes.txt", 1<<20, nil); ok || len(data) != 0 {
			t.Fatalf("readFileIn followed a link: %q", data)
		}
	})
	t.Run("read folder link", func(t *testing.T) {
		if data, _, perr := v.readHead([]string{"innocent", "a.txt"}, 1<<20); perr == nil {
			t.Fatalf("readHead followed a folder link: %q", data)
		}
	})
	t.Run("read file link", func(t *testing.T) {
		if data, _, perr := v.readHead([]string{"notes.txt"}, 1<<20); perr == nil {
			t.Fatalf("readHead followed a file link: %q", data)
		}
	})
	t.Run("walk folder link", func(t *testing.T) {
		if sub, ok := openSubdir(v.root, "innocent"); ok {
			sub.Close()
			t.Fatal("openSubdir followed a link")
		}
	})
}
