//go:build unix

package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWriteRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	_, err = WriteAtomic(root, "pipe", []byte("x"), WriteOptions{})
	if !errors.Is(err, ErrNotRegular) {
		t.Fatalf("got %v, want ErrNotRegular", err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", fi, err)
	}
}

// TestRootEscapeIsOutside pins the recognition of os.Root's refusal to
// leave the root: if Go ever changes it, this fails instead of the refusal
// quietly losing its ErrOutside kind.
func TestRootEscapeIsOutside(t *testing.T) {
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	_, err = root.Open("../outside")
	if err == nil {
		t.Fatal("os.Root opened a path outside the root")
	}
	if got := kindOf(err); got != ErrOutside {
		t.Fatalf("kindOf(%v) = %v, want ErrOutside", err, got)
	}
}

// TestWriteDropsExecutableBits replaces an executable: the new file keeps
// the old one's read and write permissions but none of its x bits, so a
// write never leaves a program behind that the request did not ask for.
func TestWriteDropsExecutableBits(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "xdg-open")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o750); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := WriteAtomic(root, "xdg-open", []byte("#!/bin/sh\necho pwned\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o640 {
		t.Fatalf("mode %o after the write, want 640", got)
	}
}
