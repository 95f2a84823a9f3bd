//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepeatedReadsSeeTheFileAsItIs reads one path again and again from
// one host process, as an agent does, while the file changes between the
// reads: grown, then swapped for a symlink to a file outside the
// workspace, then a folder. The host keeps what a path's text says and
// the input parts built from equal facts, never what the file system
// says: every answer is the file as it is at that request.
func TestRepeatedReadsSeeTheFileAsItIs(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	outside := filepath.Join(filepath.Dir(ws), "outside.txt")
	if err := os.WriteFile(outside, []byte("CANARY-outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ws, "a.txt")
	if err := os.WriteFile(file, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := start(t, []string{"--config", cfg, origin})
	args := fmt.Sprintf(`{"path":%q}`, file)
	read := func(id string) response { return p.request(id, "read_file", args) }
	content := func(r response) string {
		var d struct{ Content string }
		if err := json.Unmarshal(r.Data, &d); err != nil {
			t.Fatal(err)
		}
		return d.Content
	}
	for n := range 3 {
		if r := read(fmt.Sprint("same", n)); !r.Success || content(r) != "one" {
			t.Fatalf("read %d: %+v", n, r)
		}
	}
	if err := os.WriteFile(file, []byte("one two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := read("grown"); !r.Success || content(r) != "one two" {
		t.Fatalf("after the file grew: %s %s", r.code(), r.Data)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, file); err != nil {
		t.Fatal(err)
	}
	if r := read("swapped"); r.Success || strings.Contains(string(r.Data), "CANARY") {
		t.Fatalf("read through a symlink out of the workspace: %s %s", r.code(), r.Data)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(file, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := read("folder"); r.Success {
		t.Fatalf("read a folder as a file: %s", r.Data)
	}
	if code := p.closeAndWait(); code != 0 {
		t.Fatalf("exit %d: %s", code, p.stderr)
	}
}
