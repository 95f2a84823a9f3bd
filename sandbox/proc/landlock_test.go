//go:build linux

package proc

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestLandlockConfinesWrites(t *testing.T) {
	up, reason := LandlockStatus()
	if reason == "" {
		t.Fatal("LandlockStatus gave no reason")
	}
	if !up {
		if runtime.GOOS == "linux" {
			t.Logf("Landlock down: %s", reason)
		}
		res := mustRun(t, Spec{Path: "/bin/true", Argv: []string{"true"}, WritableRoots: []string{t.TempDir()}})
		if res.Confined {
			t.Fatal("a child reported confined while Landlock is down")
		}
		return
	}
	ws := t.TempDir()
	outside := t.TempDir()
	// Run lets the child write in the temporary folder; point that at a
	// folder of its own, so "outside" is outside wherever the tree lives.
	t.Setenv("TMPDIR", t.TempDir())
	s := sh("echo in > " + filepath.Join(ws, "in") + "; echo out > " + filepath.Join(outside, "out"))
	s.WritableRoots = []string{ws}
	res := mustRun(t, s)
	if !res.Confined {
		t.Fatal("the child was not confined")
	}
	if _, err := os.Stat(filepath.Join(ws, "in")); err != nil {
		t.Fatalf("write inside the workspace failed: %s", res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(outside, "out")); err == nil {
		t.Fatal("the confined child wrote outside the workspace")
	}
}

func TestTrampolineRoundTrip(t *testing.T) {
	enc := encodeTrampoline([]string{"/a", "/b"}, "/bin/x", []string{"x", "-y"})
	roots, path, argv, err := decodeTrampoline(enc[2:])
	if err != nil || len(roots) != 2 || path != "/bin/x" || len(argv) != 2 {
		t.Fatalf("decode = %q %q %q %v", roots, path, argv, err)
	}
	if _, _, _, err := decodeTrampoline([]string{"5", "/a"}); err == nil {
		t.Fatal("a malformed trampoline decoded")
	}
}
