package config

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDesktopValidation: an app or editor name that could be a path, and
// an editor that names no program or a relative one, are refused at load.
func TestDesktopValidation(t *testing.T) {
	idea := strconv.Quote(filepath.Join(t.TempDir(), "idea", "bin", "idea.sh")) // absolute on every OS
	tests := []struct {
		name, doc, wantErr string
	}{
		{"apps and editors", `{"apps":{"allow":["org.gnome.TextEditor","gimp"]},"editors":{"code":{"command":["code","--new-window"]},"idea":{"command":[` + idea + `]}}}`, ""},
		{"app with a path", `{"apps":{"allow":["../../bin/sh"]}}`, "not an application name"},
		{"app hidden name", `{"apps":{"allow":[".hidden"]}}`, "not an application name"},
		{"editor without program", `{"editors":{"code":{"command":[]}}}`, "names no program"},
		{"editor relative program", `{"editors":{"code":{"command":["bin/code"]}}}`, "neither a program name nor an absolute path"},
		{"editor name with a slash", `{"editors":{"a/b":{"command":["code"]}}}`, "not an editor name"},
		{"editor NUL", `{"editors":{"code":{"command":["code","a\u0000b"]}}}`, "NUL"},
		{"unknown member", `{"editors":{"code":{"command":["code"],"args":[]}}}`, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.doc))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Parse: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Parse = %v, want an error with %q", err, tt.wantErr)
			case err == nil && (c.Apps.Allow == nil || c.Editors == nil):
				t.Fatal("defaults not filled")
			}
		})
	}
	c, _ := Parse([]byte(`{}`))
	if len(c.Apps.Allow) != 0 || len(c.Editors) != 0 || c.Apps.Allow == nil {
		t.Errorf("defaults: %+v %+v", c.Apps, c.Editors)
	}
}
