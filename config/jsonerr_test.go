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
		{"no such folder", `{"workspaces":[{"name":"w","path":` + missing + `}]}`, "/workspaces/0/path", 1, 28, "does not exist"},
		{"bad origin", `{"allowed_origins":["chrome-extension://x/"]}`, "/allowed_origins/0", 1, 21, "not of the form"},
		{"keep", `{"decision_log":{"keep":-1}}`, "/decision_log/keep", 1, 18, "between 0 and"},
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

// TestLoadListsEveryProblem: a configuration with several problems is
// refused with each of them, each at its member's line and column, not
// only the first.
func TestLoadListsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "gone")
	doc := "{\n" +
		"  \"workspaces\": [\n" +
		"    {\"name\": \"rel\", \"path\": \"relative/folder\"},\n" +
		"    {\"name\": \"gone\", \"path\": " + strconv.Quote(missing) + "},\n" +
		"    {\"name\": \"Rel\", \"path\": " + strconv.Quote(dir) + "}\n" +
		"  ],\n" +
		"  \"allowed_origins\": [\"chrome-extension://x/\"],\n" +
		"  \"skills\": {\"clipbord\": false}\n" +
		"}\n"
	p := filepath.Join(dir, "config.json")
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(p)
	want := []struct {
		member       string
		line, column int
		msg          string
	}{
		{"/workspaces/0/path", 3, 21, "is not absolute"},
		{"/workspaces/1/path", 4, 22, "does not exist"},
		{"/workspaces/2/name", 5, 6, "used twice"},
		{"/allowed_origins/0", 7, 23, "not of the form"},
		{"/skills/clipbord", 8, 14, `"clipbord" is not a skill (did you mean "clipboard"?)`},
	}
	got := Problems(err)
	if len(got) != len(want) {
		t.Fatalf("Load found %d problems, want %d:\n%v", len(got), len(want), err)
	}
	for i, w := range want {
		g := got[i]
		if g.File != p || g.Member != w.member || g.Line != w.line || g.Column != w.column || !strings.Contains(g.Msg, w.msg) {
			t.Errorf("problem %d: %+v\nwant member %s at %d:%d with %q", i, g, w.member, w.line, w.column, w.msg)
		}
	}
}
