package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// inputMembers are the members every input document carries, {} when they
// do not apply to the action (docs/policy-input.md).
var inputMembers = []string{"version", "time_ns", "request", "paths", "command", "url", "import", "run", "write", "content"}

// TestInputCarriesEveryMember: a rule that reads input.command on a
// read_file (count(input.command)) is not undefined, because the member is
// there, empty.
func TestInputCarriesEveryMember(t *testing.T) {
	th := newTestHost(t, nil)
	write(t, filepath.Join(th.ws, "a.txt"), "x")
	for _, c := range []struct {
		action string
		args   map[string]any
	}{
		{"get_status", map[string]any{}},
		{"read_file", map[string]any{"path": filepath.Join(th.ws, "a.txt")}},
		{"run_command", map[string]any{"argv": []string{"echo", "x"}, "cwd": th.ws}},
	} {
		payload, _ := json.Marshal(map[string]any{"version": 1, "id": "m", "action": c.action, "arguments": c.args})
		in, perr := th.h.Input(context.Background(), payload)
		if perr != nil {
			t.Fatalf("%s: %v", c.action, perr)
		}
		for _, m := range inputMembers {
			if _, ok := in[m]; !ok {
				t.Errorf("%s: input.%s is missing", c.action, m)
			}
		}
		if c.action != "run_command" && len(in["command"].(map[string]any)) != 0 {
			t.Errorf("%s: input.command = %v, want {}", c.action, in["command"])
		}
	}
}

// TestPathFactsSizeModified: an existing file's path fact carries its size
// and modification time, and its type; a missing one carries none.
func TestPathFactsSizeModified(t *testing.T) {
	th := newTestHost(t, nil)
	p := filepath.Join(th.ws, "a.txt")
	write(t, p, "12345")
	when := time.Date(2026, 3, 4, 5, 6, 7, 8000, time.UTC)
	if err := os.Chtimes(p, when, when); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, typ, modified string
		size                float64
	}{
		{p, "file", "2026-03-04T05:06:07.000008Z", 5},
		{filepath.Join(th.ws, "missing.txt"), "", "", 0},
	} {
		payload, _ := json.Marshal(map[string]any{"version": 1, "id": "m", "action": "read_file", "arguments": map[string]any{"path": c.path}})
		in, perr := th.h.Input(context.Background(), payload)
		if perr != nil {
			t.Fatal(perr)
		}
		target := in["paths"].(map[string]any)["target"].(map[string]any)
		size, _ := target["size"].(json.Number).Float64()
		if target["type"] != c.typ || target["modified"] != c.modified || size != c.size {
			t.Errorf("%s: target = %v, want type %q, size %v, modified %q", c.path, target, c.typ, c.size, c.modified)
		}
	}
}
