package sandbox

import (
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWriteExpectedSHA256: a write with ExpectedSHA256 replaces the file
// only while it still has that sum; otherwise, or when the file is gone,
// it fails with ErrChanged and leaves the folder as it was.
func TestWriteExpectedSHA256(t *testing.T) {
	dir := t.TempDir()
	root := openFolder(t, dir)
	name := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(name, []byte("read"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := sha256.Sum256([]byte("read"))
	if err := os.WriteFile(name, []byte("edited meanwhile"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := WriteAtomic(root, "a.txt", []byte("new"), WriteOptions{ExpectedSHA256: read[:]})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("changed file: got %v, want ErrChanged", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "edited meanwhile" || !slices.Equal(names(t, dir), []string{"a.txt"}) {
		t.Fatalf("after the refusal: %q, folder %v", b, names(t, dir))
	}
	now := sha256.Sum256([]byte("edited meanwhile"))
	if _, err := WriteAtomic(root, "a.txt", []byte("new"), WriteOptions{ExpectedSHA256: now[:]}); err != nil {
		t.Fatalf("unchanged file: %v", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "new" {
		t.Fatalf("not written: %q", b)
	}
	if _, err := WriteAtomic(root, "gone.txt", []byte("new"), WriteOptions{ExpectedSHA256: now[:]}); !errors.Is(err, ErrChanged) {
		t.Fatalf("missing file: got %v, want ErrChanged", err)
	}
	if !slices.Equal(names(t, dir), []string{"a.txt"}) {
		t.Fatalf("folder after the refusal: %v", names(t, dir))
	}
}

func TestHash(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, n, err := Hash(openFolder(t, dir), "a.txt")
	want := sha256.Sum256([]byte("0123456789"))
	if err != nil || n != 10 || !slices.Equal(sum, want[:]) {
		t.Fatalf("Hash = %x, %d, %v; want %x, 10", sum, n, err, want)
	}
	if _, _, err := Hash(openFolder(t, dir), "missing"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}
