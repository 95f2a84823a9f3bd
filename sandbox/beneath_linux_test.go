//go:build linux

package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadBeneathAgreesWithWalk stages every case the checked walk
// refuses or allows and requires the openat2 path to answer the same:
// the same bytes and size, or an error of the same class.
func TestReadBeneathAgreesWithWalk(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(dir, rel)
		mustMkdir(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "hello world")
	write("sub/deep/b.txt", "deep file")
	write(".ssh/id_rsa", "PRIVATE KEY")
	write(".git/hooks/pre-commit", "#!/bin/sh")
	write("empty.txt", "")
	mustSymlink(t, ".ssh", filepath.Join(dir, "notes"))
	mustSymlink(t, "a.txt", filepath.Join(dir, "link.txt"))
	mustSymlink(t, outside, filepath.Join(dir, "out"))
	mustSymlink(t, "../..", filepath.Join(dir, "sub", "up"))
	mustSymlink(t, "missing", filepath.Join(dir, "dangling"))
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("outside"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "a.txt"), filepath.Join(dir, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	write("single.txt", "one link")

	plain, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	var roots Roots
	defer roots.Close()
	fast, err := roots.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := readBeneath(rootDir(fast), "single.txt", 0, 10); !ok {
		t.Skip("openat2 is not available here; ReadAt takes the checked walk")
	}
	cases := []struct {
		rel      string
		off, max int64
	}{
		{"single.txt", 0, 100}, {"single.txt", 4, 2}, {"single.txt", 100, 5}, {"empty.txt", 0, 10},
		{"sub/deep/b.txt", 0, 100}, {"sub/deep/b.txt", 5, 100},
		{"a.txt", 0, 100}, {"hard.txt", 0, 100}, // two links
		{"notes/id_rsa", 0, 100}, {"link.txt", 0, 100}, {"out/secret", 0, 100}, {"sub/up/x", 0, 10},
		{"dangling", 0, 10}, {"fifo", 0, 10}, {"sub", 0, 10}, {".", 0, 10}, {"missing.txt", 0, 10},
		{"single.txt/x", 0, 10}, {"../x", 0, 10}, {"sub/../single.txt", 0, 100}, {"sub/deep/../../single.txt", 0, 100},
	}
	for _, tc := range cases {
		wantBuf, wantSize, wantErr := ReadAt(plain, tc.rel, tc.off, tc.max)
		gotBuf, gotSize, gotErr := ReadAt(fast, tc.rel, tc.off, tc.max)
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("%s: walk error %v, openat2 error %v", tc.rel, wantErr, gotErr)
			continue
		}
		if wantErr != nil {
			if w, g := kindIn(wantErr), kindIn(gotErr); w != g {
				t.Errorf("%s: walk %s (%v), openat2 %s (%v)", tc.rel, w, wantErr, g, gotErr)
			}
			continue
		}
		if !bytes.Equal(wantBuf, gotBuf) || wantSize != gotSize {
			t.Errorf("%s: walk %q/%d, openat2 %q/%d", tc.rel, wantBuf, wantSize, gotBuf, gotSize)
		}
	}
	if openat2Missing.Load() {
		t.Fatal("the openat2 path gave up during the table; the comparison did not cover it")
	}
}
