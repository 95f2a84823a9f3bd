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
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no warm processes on " + runtime.GOOS)
	}
	run := filepath.Join(t.TempDir(), "run")
	t.Setenv("XDG_RUNTIME_DIR", run)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ = filepath.EvalSymlinks(exe)
	got := protectedPaths(&config.Config{}, nil)
	for _, want := range []string{filepath.Join(run, "deskbridge"), filepath.Join(filepath.Dir(exe), "deskbridge-host")} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is not protected", want)
		}
	}
}
