package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCanWrite: the log and store checks of Check find what makes Start
// fail (a file where a folder must be, a folder where a file must be),
// without writing anything.
func TestCanWrite(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		p       string
		isDir   bool
		wantErr string
	}{
		{filepath.Join(dir, "new", "deeper", "log.jsonl"), false, ""},
		{file, false, ""},
		{file, true, "is a file, not a folder"},
		{dir, false, "is a folder, not a file"},
		{filepath.Join(file, "log.jsonl"), false, "is not a folder"},
		{filepath.Join(file, "a", "b", "log.jsonl"), false, "is not a folder"},
	}
	for _, tt := range tests {
		err := canWrite(tt.p, tt.isDir)
		if (tt.wantErr == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("canWrite(%s, %v) = %v, want %q", tt.p, tt.isDir, err, tt.wantErr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !os.IsNotExist(err) {
		t.Errorf("canWrite created a folder: %v", err)
	}
}
