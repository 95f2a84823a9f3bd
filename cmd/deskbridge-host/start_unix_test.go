//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The warm process's log file is never opened through a link: a planted
// link would have deskbridge-host create or empty a file elsewhere.
func TestStartWarmDoesNotFollowALinkedLog(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious.txt")
	if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "db-k.sock")
	if err := os.Symlink(target, socket+".log"); err != nil {
		t.Fatal(err)
	}
	if startWarm(filepath.Join(dir, "no-deskbridge"), "", socket) {
		t.Fatal("startWarm reported a warm process ready")
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "keep me" {
		t.Fatalf("the link's target is now %q, %v", b, err)
	}
}
