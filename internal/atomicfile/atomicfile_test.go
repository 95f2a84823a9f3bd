package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWriteReplacesWholeAndLeavesNoTemporaryFile: the file holds the new
// bytes, private, and the folder holds nothing else; a write into a
// folder that does not exist fails and leaves nothing.
func TestWriteReplacesWholeAndLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.json")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("file = %q, want new", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d entries, want the file alone", len(entries))
	}
	if fi, _ := os.Stat(p); runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("mode %v, want private", fi.Mode())
	}
	if err := Write(filepath.Join(dir, "missing", "x"), []byte("x")); err == nil {
		t.Error("a write into a missing folder succeeded")
	}
}
