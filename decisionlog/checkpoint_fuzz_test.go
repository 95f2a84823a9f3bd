package decisionlog

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzCheckpointFile: whatever a checkpoint file holds, VerifyCheckpoints
// does not panic, and no line verifies without the key.
func FuzzCheckpointFile(f *testing.F) {
	f.Add([]byte(`{"seq":1,"hash":"00","time":"2026-01-01T00:00:00Z","mac":"00"}` + "\n"))
	f.Add([]byte(`{"seq":18446744073709551615,"hash":"","time":"0001-01-01T00:00:00Z","mac":""}`))
	f.Add([]byte("{\"seq\":-1}\n\xff\xfe\n{}\n[]\nnull\n"))
	f.Add([]byte(`{"seq":1,"seq":2,"mac":"` + string(make([]byte, 64)) + `"}`))
	dir := f.TempDir()
	key := filepath.Join(dir, "k")
	if _, err := LoadOrCreateKey(key); err != nil {
		f.Fatal(err)
	}
	log := filepath.Join(dir, "decisions.jsonl")
	if err := os.WriteFile(log, nil, 0o600); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(CheckpointPath(log), b, 0o600); err != nil {
			t.Fatal(err)
		}
		rep, err := VerifyCheckpoints(log, key)
		if err == nil && rep.Checkpoints != 0 {
			t.Fatalf("a checkpoint verified without the key: %q", b)
		}
	})
}
