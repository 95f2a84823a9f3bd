//go:build unix

package sandbox

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestStatNamesAgreesWithLstat requires statNames to report each kind of
// entry (file, folder, link, dangling link, FIFO, socket, special
// permission bits) with the mode, size and time os.Lstat reports, and a
// missing name as gone.
func TestStatNamesAgreesWithLstat(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "file"), []byte("twelve bytes"), 0o640))
	must(os.WriteFile(filepath.Join(dir, "setuid"), nil, 0o755))
	must(os.Chmod(filepath.Join(dir, "setuid"), 0o755|os.ModeSetuid|os.ModeSetgid))
	must(os.Mkdir(filepath.Join(dir, "folder"), 0o755))
	must(os.Chmod(filepath.Join(dir, "folder"), 0o777|os.ModeSticky))
	must(os.Symlink("file", filepath.Join(dir, "link")))
	must(os.Symlink("nowhere", filepath.Join(dir, "dangling")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	if l, err := net.Listen("unix", filepath.Join(dir, "sock")); err == nil {
		defer l.Close()
	}
	root, err := os.OpenRoot(dir)
	must(err)
	defer root.Close()
	f, names, err := readNames(root, true)
	must(err)
	defer f.Close()
	names = append(names, "gone")
	stats := make([]entryStat, len(names))
	must(statNames(root, f, names, stats))
	for i, name := range names {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			if stats[i].ok {
				t.Errorf("%s: lstat fails (%v) but statNames reports it", name, err)
			}
			continue
		}
		want := entryStat{ok: true, mode: fi.Mode(), size: fi.Size(), modified: fi.ModTime()}
		if got := stats[i]; got.ok != want.ok || got.mode != want.mode || got.size != want.size || !got.modified.Equal(want.modified) {
			t.Errorf("%s: statNames %+v, os.Lstat %+v", name, got, want)
		}
	}
}
