package proc

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// TestWorkspaceCache: each workspace gets a cache folder of its own below
// the state folder, the same on every call, and none when that folder is a
// symbolic link (which a command of a workspace holding the state folder
// could have planted to lead the wall elsewhere).
func TestWorkspaceCache(t *testing.T) {
	state, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, b := WorkspaceCache(state, "/ws/a"), WorkspaceCache(state, "/ws/b")
	if a == "" || b == "" || a == b || filepath.Dir(a) != filepath.Join(state, "cache") {
		t.Fatalf("caches %q and %q", a, b)
	}
	if again := WorkspaceCache(state, "/ws/a"); again != a {
		t.Fatalf("second call %q, first %q", again, a)
	}
	// Windows has no mode bits: a folder reads as 0777 there.
	if fi, err := os.Stat(a); err != nil || !fi.IsDir() || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700) {
		t.Fatalf("cache %s: %v %v", a, fi, err)
	}
	wine.Skip(t, wine.NoSymlinks)
	elsewhere := t.TempDir()
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, b); err != nil {
		t.Fatal(err)
	}
	if got := WorkspaceCache(state, "/ws/b"); got != "" {
		t.Fatalf("a cache folder swapped for a symlink gave %q", got)
	}
}

// TestWorkspaceCacheMakesNothingThroughALink: with the cache folder itself
// a symbolic link, no cache is given and nothing is made at its target.
func TestWorkspaceCacheMakesNothingThroughALink(t *testing.T) {
	wine.Skip(t, wine.NoSymlinks)
	state, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	target := t.TempDir()
	if err := os.Symlink(target, filepath.Join(state, "cache")); err != nil {
		t.Fatal(err)
	}
	if got := WorkspaceCache(state, "/ws/a"); got != "" {
		t.Fatalf("a cache folder through a link: %q", got)
	}
	if left, _ := os.ReadDir(target); len(left) != 0 {
		t.Fatalf("made %v at the link's target", left)
	}
}

// TestPrivateEnvNamesEveryFolder: the run's temporary folder is named to
// every tool that reads one (Go's GOTMPDIR too, over the go env file's),
// and the caches only with a cache folder.
func TestPrivateEnvNamesEveryFolder(t *testing.T) {
	env := strings.Join(privateEnv("/t", ""), " ")
	if env != "TMPDIR=/t TMP=/t TEMP=/t GOTMPDIR=/t" {
		t.Fatalf("without a cache: %s", env)
	}
	env = strings.Join(privateEnv("/t", "/c"), " ")
	for _, want := range []string{"XDG_CACHE_HOME=/c/xdg", "GOCACHE=/c/xdg/go-build", "GOPATH=/c/go", "GOMODCACHE=/c/go/pkg/mod", "npm_config_cache=/c/npm", "PIP_CACHE_DIR=/c/pip"} {
		want = filepath.FromSlash(want) // the folders are joined with the system's separator
		if !strings.Contains(env, want) {
			t.Errorf("%s lacks %s", env, want)
		}
	}
}
