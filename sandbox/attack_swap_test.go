//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
)

// The policy judges the canonical path, which by construction holds no
// symlink. If a folder on that path is a symlink when the executor runs, it
// was swapped in after the check: os.Root follows it as long as it stays in
// the workspace, so a write judged as "d/pre-commit" (an ordinary file)
// lands in ".git/hooks/pre-commit", and a read judged as "d/config" reads
// ".ssh/config". These tests stage the state after the swap.

// attackRoot returns a workspace root handle and its folder.
func attackRoot(t *testing.T) (*os.Root, string) {
	t.Helper()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root, dir
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func TestAttackWriteAtomicFollowsSwappedFolderLink(t *testing.T) {
	tests := []struct {
		name, linkTarget, rel, lands string
	}{
		{"git hook", ".git/hooks", "d/pre-commit", ".git/hooks/pre-commit"},
		{"git config", ".git", "d/config", ".git/config"},
		{"vscode tasks", ".vscode", "d/tasks.json", ".vscode/tasks.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root, dir := attackRoot(t)
			mustMkdir(t, filepath.Join(dir, filepath.Dir(tc.lands)))
			mustSymlink(t, tc.linkTarget, filepath.Join(dir, "d"))
			_, err := WriteAtomic(root, tc.rel, []byte("#!/bin/sh\necho pwned\n"), WriteOptions{})
			if _, serr := os.Stat(filepath.Join(dir, tc.lands)); serr == nil {
				t.Fatalf("WriteAtomic(%q) followed the swapped-in folder link and wrote %s (err=%v); want ErrSwapped and nothing written", tc.rel, tc.lands, err)
			}
			if err == nil {
				t.Fatalf("WriteAtomic(%q) through a folder symlink succeeded; want ErrSwapped", tc.rel)
			}
		})
	}
}

func TestAttackCreateFollowsSwappedFolderLink(t *testing.T) {
	root, dir := attackRoot(t)
	mustMkdir(t, filepath.Join(dir, ".git", "hooks"))
	mustSymlink(t, ".git/hooks", filepath.Join(dir, "d"))
	_, err := WriteAtomic(root, "d/post-checkout", []byte("x"), WriteOptions{Exclusive: true})
	if _, serr := os.Stat(filepath.Join(dir, ".git", "hooks", "post-checkout")); serr == nil {
		t.Fatalf("an exclusive create through a swapped folder link wrote .git/hooks/post-checkout (err=%v)", err)
	}
}

func TestAttackReadAtFollowsSwappedFolderLink(t *testing.T) {
	root, dir := attackRoot(t)
	mustMkdir(t, filepath.Join(dir, ".ssh"))
	if err := os.WriteFile(filepath.Join(dir, ".ssh", "id_rsa"), []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, ".ssh", filepath.Join(dir, "notes"))
	got, _, err := ReadAt(root, "notes/id_rsa", 0, 1<<20)
	if err == nil {
		t.Fatalf("ReadAt through a swapped-in folder link returned the secret %q; want ErrSwapped", got)
	}
}

// A hard link swapped in after the check (the policy denied links > 1) is
// read without a second look at the link count.
func TestAttackReadAtIgnoresHardLinkAfterCheck(t *testing.T) {
	root, dir := attackRoot(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("outside secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(dir, "a.txt")); err != nil {
		t.Skipf("hard links across these temp folders are not possible here: %v", err)
	}
	got, _, err := ReadAt(root, "a.txt", 0, 1<<20)
	if err == nil {
		t.Fatalf("ReadAt read %q through a file with 2 hard links; the executor should refuse nlink > 1 as the policy does", got)
	}
}

// A FIFO in the workspace (or swapped in after the check) makes the open
// block forever: the request's timeout cannot interrupt it, the pool slot
// is never freed, and at EOF Serve waits for it and never exits.
func TestAttackReadAtBlocksOnFIFO(t *testing.T) {
	root, dir := attackRoot(t)
	fifo := filepath.Join(dir, "notes.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := ReadAt(root, "notes.txt", 0, 16)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("ReadAt on a FIFO succeeded; want a refusal of non-regular files")
		}
	case <-time.After(proctest.Bound):
		// Unblock the reader so the test process can finish.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("ReadAt on a FIFO blocked in open(2); open non-blocking (O_NONBLOCK) and refuse anything but a regular file")
	}
}
