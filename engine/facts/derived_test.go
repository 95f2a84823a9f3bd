package facts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// TestResolveAgainGivesFreshFacts asks about the same paths twice, with
// the file system changed in between (a file grown, touched, replaced by
// a symlink out of the workspace, a folder made where nothing was): the
// facts the text gives come from the cache, and must equal those a fresh
// resolver computes; what the file system says must be read again.
func TestResolveAgainGivesFreshFacts(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, out := filepath.Join(dir, "ws"), filepath.Join(dir, "out")
	for _, d := range []string{ws, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file, secret, missing := filepath.Join(ws, "a.txt"), filepath.Join(ws, ".env"), filepath.Join(ws, "later")
	for _, f := range []string{file, secret, filepath.Join(out, "a.txt")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fresh := func() *Resolver {
		return NewResolver([]config.Workspace{{Name: "w", Path: ws}}, []string{secret}, NewClassifier(nil, nil))
	}
	r := fresh()
	paths := []string{file, secret, missing, filepath.Join(ws, "sub", "..", "a.txt"), ws + "/" + strings.Repeat("n", 1500)}
	check := func(when string) {
		for _, raw := range paths {
			got, gerr := r.Resolve(raw)
			want, werr := fresh().Resolve(raw)
			if (gerr == nil) != (werr == nil) || got != want {
				t.Errorf("%s: %s: facts %+v (%v), fresh %+v (%v)", when, raw, got, gerr, want, werr)
			}
		}
	}
	check("first")
	check("again")
	if err := os.WriteFile(file, []byte("longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(secret, time.Now(), time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(missing, 0o755); err != nil {
		t.Fatal(err)
	}
	check("changed")
	if got, _ := r.Resolve(file); got.Size != 6 {
		t.Errorf("the grown file's size is %d", got.Size)
	}
	wine.Skip(t, wine.NoSymlinks) // the rest swaps the file for a link
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(out, "a.txt"), file); err != nil {
		t.Fatal(err)
	}
	check("swapped for a symlink")
	if got, _ := r.Resolve(file); got.Inside || got.Canonical != filepath.Join(out, "a.txt") {
		t.Errorf("a symlink out of the workspace is placed inside: %+v", got)
	}
}
