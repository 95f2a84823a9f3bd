//go:build linux

package proc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// swappableDir makes base/ws/dir (holding inside.txt) and base/out
// (holding OUTSIDE.txt) and returns dir, out.
func swappableDir(t *testing.T) (dir, out string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir, out = filepath.Join(base, "ws", "dir"), filepath.Join(base, "out")
	for p := range map[string]bool{filepath.Join(dir, "inside.txt"): true, filepath.Join(out, "OUTSIDE.txt"): true} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, out
}

// swapForLink moves dir aside and puts a symlink to out in its place.
func swapForLink(t *testing.T, dir, out string) {
	t.Helper()
	if err := os.Rename(dir, dir+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, dir); err != nil {
		t.Fatal(err)
	}
}

// TestHeldDirOutlivesASwap: a working folder held by HoldDir and then
// swapped for a symlink to a folder outside still is where the program
// starts; by name alone it would start outside.
func TestHeldDirOutlivesASwap(t *testing.T) {
	dir, out := swappableDir(t)
	held, err := HoldDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if held == nil {
		t.Skip("this kernel has no openat2: the folder is re-checked by name instead")
	}
	defer held.Close()
	swapForLink(t, dir, out)

	res := mustRun(t, Spec{Path: "/bin/ls", Argv: []string{"ls"}, Dir: dir, DirHandle: held, Timeout: 20e9})
	if got := string(res.Stdout); !strings.Contains(got, "inside.txt") || strings.Contains(got, "OUTSIDE") {
		t.Fatalf("the program listed %q, want the held folder's inside.txt", got)
	}
	byName := mustRun(t, Spec{Path: "/bin/ls", Argv: []string{"ls"}, Dir: dir, Timeout: 20e9})
	if !strings.Contains(string(byName.Stdout), "OUTSIDE") {
		t.Fatalf("the swap did not take (by name the program listed %q), so the test proves nothing", byName.Stdout)
	}
}

// TestHoldDirRefusesASymlink: HoldDir opens only a path without a symlink
// in any component.
func TestHoldDirRefusesASymlink(t *testing.T) {
	dir, out := swappableDir(t)
	swapForLink(t, dir, out)
	if held, err := HoldDir(dir); err == nil {
		if held == nil {
			t.Skip("this kernel has no openat2")
		}
		held.Close()
		t.Fatal("HoldDir opened a symlink")
	}
	if held, err := HoldDir(filepath.Join(dir, "OUTSIDE.txt")); err == nil && held != nil {
		held.Close()
		t.Fatal("HoldDir opened a path through a symlink")
	}
}
