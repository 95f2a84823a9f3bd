package engine

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
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
