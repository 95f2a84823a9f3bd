package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLoadNamesWhereTheConfigurationIsWrong: every problem the host
// refuses to start on names the file, the member and, in the JSON text,
// the line and column, in words.
func TestLoadNamesWhereTheConfigurationIsWrong(t *testing.T) {
	dir := t.TempDir()
	missing := strconv.Quote(filepath.Join(dir, "nonexistent-deskbridge")) // absolute on every OS
	tests := []struct {
		name, doc    string
		member       string
		line, column int
		msg          string
	}{
		{"syntax", "{\n  \"workspaces\": nul\n}", "/workspaces", 2, 20, "not valid JSON"},
		{"typo", "{\n  \"workspace\": []\n}", "/workspace", 2, 3, `unknown member "workspace": did you mean "workspaces"? The members allowed here are`},
		{"nested typo", `{"decision_log":{"pth":"x"}}`, "/decision_log/pth", 1, 18, `unknown member "pth": did you mean "path"? The members allowed here are "checkpoint_seconds", "disabled", "keep"`},
		{"wrong kind", `{"workspaces":"/tmp"}`, "/workspaces", 1, 15, "must be a list (JSON array), not a string"},
		{"no such folder", `{"workspaces":[{"name":"w","path":` + missing + `}]}`, "/workspaces/0/path", 0, 0, "does not exist"},
		{"bad origin", `{"allowed_origins":["chrome-extension://x/"]}`, "/allowed_origins/0", 0, 0, "not of the form"},
		{"keep", `{"decision_log":{"keep":-1}}`, "/decision_log/keep", 0, 0, "between 0 and"},
		{"not an object", `[]`, "", 1, 1, "must be an object, not a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(p, []byte(tt.doc), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := Load(p)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load = %v, not a *config.Error", err)
			}
			if e.File != p || e.Member != tt.member || e.Line != tt.line || e.Column != tt.column || !strings.Contains(e.Msg, tt.msg) {
				t.Errorf("got %+v\nwant file %s member %q at %d:%d, message with %q", e, p, tt.member, tt.line, tt.column, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), "configuration "+p) {
				t.Errorf("%q does not start with the file", err)
			}
		})
	}
}
