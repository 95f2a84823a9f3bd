package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/deskbridge/deskbridge/config"
)

// The warm processes' socket folder and deskbridge-host beside this
// binary are protected like the host's own files: no request writes them,
// even where a workspace holds them (an XDG_RUNTIME_DIR inside one, say).
func TestWarmFilesAreProtected(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	t.Setenv("XDG_RUNTIME_DIR", run)
	t.Setenv("LOCALAPPDATA", run) // Windows: %LOCALAPPDATA%\DeskBridge\warm
	folder := filepath.Join(run, "deskbridge")
	if runtime.GOOS == "windows" {
		folder = filepath.Join(run, "DeskBridge", "warm")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ = filepath.EvalSymlinks(exe)
	got := protectedPaths(&config.Config{}, nil)
	for _, want := range []string{folder, filepath.Join(filepath.Dir(exe), warmHostFile)} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is not protected", want)
		}
	}
}
