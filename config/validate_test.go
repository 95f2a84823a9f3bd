package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkillsAndLimitsValidation: a skill switch or a limit that would not
// do what it says is refused when the configuration loads.
func TestSkillsAndLimitsValidation(t *testing.T) {
	tests := []struct {
		name, doc, wantErr string
	}{
		{"skill off", `{"skills":{"commands":false,"files":true}}`, ""},
		{"every skill named", `{"skills":{"control":true,"files":false,"projects":false,"clipboard":false,"applications":false,"commands":false,"windows":false,"assets":false,"images":false,"documents":false,"agent":false}}`, ""},
		{"skill typo", `{"skills":{"file":false}}`, `"file" is not a skill`},
		{"skill in capitals", `{"skills":{"Files":false}}`, "not a skill"},
		{"control off", `{"skills":{"control":false}}`, "control cannot be switched off"},
		{"limits set", `{"limits":{"write_file":{"max_bytes":1024},"run_command":{"timeout_ms":600000},"list_folder":{"max_entries":100},"web_agent_context":{"max_rounds":5}}}`, ""},
		{"image limits set", `{"limits":{"resize_image":{"max_pixels":50000000,"max_frames":100}}}`, ""},
		{"limit at its bound", `{"limits":{"run_command":{"timeout_ms":3600000}}}`, ""},
		{"zero cap", `{"limits":{"write_file":{"max_bytes":0}}}`, "between 1 and"},
		{"negative timeout", `{"limits":{"run_command":{"timeout_ms":-1}}}`, "between 1 and"},
		{"timeout past its bound", `{"limits":{"run_command":{"timeout_ms":3600001}}}`, "between 1 and 3600000"},
		{"unknown action", `{"limits":{"run_comand":{"timeout_ms":1000}}}`, `"run_comand" is not a v1 action`},
		{"unknown limit", `{"limits":{"run_command":{"timeout":1000}}}`, `"timeout" is not a limit`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc))
			if tt.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestNestedWorkspacesRefused: a workspace inside another (or the same
// folder twice) is refused; folders that only share a name prefix are not
// nested.
func TestNestedWorkspacesRefused(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"a/b", "ab"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	doc := func(paths ...string) string {
		var ws []string
		for i, p := range paths {
			ws = append(ws, fmt.Sprintf(`{"name":"w%d","path":%q}`, i, filepath.Join(base, p)))
		}
		return `{"workspaces":[` + strings.Join(ws, ",") + `]}`
	}
	for _, tt := range []struct {
		paths   []string
		wantErr bool
	}{
		{[]string{"a", "ab"}, false},
		{[]string{"a", "a/b"}, true},
		{[]string{"a/b", "a"}, true},
		{[]string{"a", "a"}, true},
		{[]string{"ab", "a/b"}, false},
	} {
		_, err := Parse([]byte(doc(tt.paths...)))
		if (err != nil) != tt.wantErr || (err != nil && !strings.Contains(err.Error(), "overlap")) {
			t.Errorf("%v: error %v, want an overlap error: %v", tt.paths, err, tt.wantErr)
		}
	}
}
