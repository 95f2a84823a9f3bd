package engine

import (
	"context"
	"encoding/base64"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json"
)

// TestWriteFactSaysWhetherTheFileIsAProgram: every action that writes a
// file tells the policy (input.write) whether the file would be a program,
// by its content where the request carries it, else by its name.
func TestWriteFactSaysWhetherTheFileIsAProgram(t *testing.T) {
	th := newTestHost(t, nil)
	b64 := base64.StdEncoding.EncodeToString([]byte("\x7fELF\x02\x01\x01\x00"))
	tests := []struct {
		action string
		args   map[string]any
		want   map[string]any
	}{
		{"write_file", map[string]any{"path": filepath.Join(th.ws, "run.sh"), "content": "#!/bin/sh\nid\n"},
			map[string]any{"executable": true, "reason": "shebang"}},
		{"write_file", map[string]any{"path": filepath.Join(th.ws, "tool"), "content": b64, "encoding": "base64"},
			map[string]any{"executable": true, "reason": "elf"}},
		{"create_file", map[string]any{"path": filepath.Join(th.ws, "notes.md"), "content": "# Notes\n"},
			map[string]any{"executable": false}},
		{"create_file", map[string]any{"path": filepath.Join(th.ws, "setup.EXE"), "content": ""},
			map[string]any{"executable": true, "reason": "extension"}},
		{"patch_file", map[string]any{"path": filepath.Join(th.ws, "task.ps1"), "edits": []map[string]any{{"old_text": "a", "new_text": "b"}}},
			map[string]any{"executable": true, "reason": "extension"}},
		{"download_asset", map[string]any{"url": "http://127.0.0.1:9/app.msi", "destination": filepath.Join(th.ws, "app.msi")},
			map[string]any{"executable": true, "reason": "extension"}},
	}
	for _, tt := range tests {
		payload, _ := json.Marshal(map[string]any{"version": 1, "id": "w", "action": tt.action, "arguments": tt.args})
		in, perr := th.h.Input(context.Background(), payload)
		if perr != nil {
			t.Fatalf("%s %v: %v", tt.action, tt.args["path"], perr)
		}
		if got := in["write"]; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %v: input.write = %v, want %v", tt.action, tt.args, got, tt.want)
		}
	}
	payload, _ := json.Marshal(map[string]any{"version": 1, "id": "r", "action": "read_file", "arguments": map[string]any{"path": filepath.Join(th.ws, "a")}})
	// read_file writes nothing: input.write is there, and empty.
	if in, _ := th.h.Input(context.Background(), payload); in == nil || !reflect.DeepEqual(in["write"], map[string]any{}) {
		t.Errorf("read_file has input.write %v, want {}", in["write"])
	}
}
