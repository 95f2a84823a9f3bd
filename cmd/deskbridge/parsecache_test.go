package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestHostReadsItsParseCache starts the host for one message four times
// with one state: the second start leaves the marked set's parse cache
// (private) beside its mark, the third decides from it, and a fourth,
// after the cache was changed by a byte, parses the text again and
// decides the same: a read outside the workspace is refused by the same
// rule every time.
func TestHostReadsItsParseCache(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	checked := filepath.Join(filepath.Dir(cfg), "log", "policies-checked")
	outside := quoteJSON(filepath.Join(filepath.Dir(cfg), "secret.txt"))
	inside := filepath.Join(ws, "a.txt")
	if err := os.WriteFile(inside, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 4; n++ {
		caches, _ := filepath.Glob(filepath.Join(checked, "*.ast"))
		switch {
		case n == 2 && len(caches) != 0:
			t.Fatal("a parse cache before the set was marked")
		case n == 3 || n == 4:
			if len(caches) != 1 {
				t.Fatalf("start %d: %d parse caches, want 1", n, len(caches))
			}
			// Windows has no mode bits to check (the folder's ACL is
			// the bound there, as for the log's keys).
			if fi, err := os.Stat(caches[0]); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
				t.Fatalf("parse cache readable by others or missing: %v", err)
			}
			if n == 4 {
				spoil(t, caches[0])
			}
		}
		p := start(t, []string{"--config", cfg, origin})
		if r := p.request("1", "read_file", `{"path":`+outside+`}`); r.code() != "WORKSPACE_VIOLATION" || r.Error.Rule != "workspace.outside" {
			t.Fatalf("start %d: a read outside the workspace answered %s (%+v)\nstderr: %s", n, r.code(), r.Error, p.stderr)
		}
		if r := p.request("2", "read_file", `{"path":`+quoteJSON(inside)+`}`); r.code() != "ok" {
			t.Fatalf("start %d: a read inside the workspace answered %s", n, r.code())
		}
		if code := p.closeAndWait(); code != 0 {
			t.Fatalf("start %d: exit %d", n, code)
		}
	}
}

// spoil changes the last byte of file.
func spoil(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
