//go:build linux

package facts

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestResolveDirectAgreesWithCanonicalize requires the openat2 shortcut to
// give exactly the canonical path and file facts that canonicalize and
// stat give, wherever it answers, and to answer for plain paths.
func TestResolveDirectAgreesWithCanonicalize(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(rel string) string { return filepath.Join(dir, rel) }
	if err := os.MkdirAll(mk("ws/sub/deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"ws/a.txt", "ws/sub/deep/b.txt"} {
		if err := os.WriteFile(mk(f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(mk("ws/a.txt"), mk("ws/hard.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(mk("ws/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"ws/lnk": "sub", "ws/flink.txt": "a.txt", "ws/dangling": "nowhere",
		"ws/sub/up": "..", "ws/abs": mk("ws/sub"), "ws/loop": "loop"} {
		if err := os.Symlink(target, mk(link)); err != nil {
			t.Fatal(err)
		}
	}
	plain := []string{"", "ws", "ws/a.txt", "ws/sub", "ws/sub/deep/b.txt", "ws/hard.txt", "ws/fifo"}
	others := []string{"ws/lnk", "ws/lnk/deep/b.txt", "ws/flink.txt", "ws/dangling", "ws/dangling/x", "ws/sub/up/a.txt",
		"ws/abs/deep", "ws/loop", "ws/missing.txt", "ws/missing/deeper", "ws/a.txt/x"}
	for i, rel := range append(plain, others...) {
		clean := filepath.Join(dir, rel)
		fast := Path{Canonical: clean}
		ok := resolveDirect(&fast)
		if i < len(plain) && !ok {
			t.Errorf("%s: the shortcut did not answer for a path without symlinks", rel)
		}
		if !ok {
			continue
		}
		canonical, err := canonicalize(clean, maxLinkHops)
		if err != nil {
			t.Errorf("%s: the shortcut answered where canonicalize fails: %v", rel, err)
			continue
		}
		slow := Path{Canonical: canonical}
		stat(&slow)
		if fast != slow {
			t.Errorf("%s: shortcut %+v, canonicalize and stat %+v", rel, fast, slow)
		}
	}
	for _, rel := range []string{"/proc/self/cwd", "/proc/self/root/etc"} {
		if p := (Path{Canonical: rel}); resolveDirect(&p) {
			t.Errorf("%s: the shortcut answered through a magic link", rel)
		}
	}
}
