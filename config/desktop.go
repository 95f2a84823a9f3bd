package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Apps configures open_app.
type Apps struct {
	// Allow are the logical names of the applications open_app may start
	// (a desktop file ID without ".desktop" on Linux, an .app's name on
	// macOS, an App Paths name on Windows); the policy reads them as
	// data.config.apps.allow.
	Allow []string `json:"allow"`
}

// Editor is one editor open_project may use.
type Editor struct {
	// Command is the program (a name looked for in the system folders, or
	// an absolute path) and its first arguments; the project folder is
	// appended as the last argument.
	Command []string `json:"command"`
}

// validName reports whether s has the form of an application's or
// editor's name: 1 to 128 of letters, digits and `_ . + -` and spaces,
// not starting with a dot, a space or a dash. (A function, not a regexp:
// a package-level regexp is compiled at every start of the host.)
func validName(s string) bool {
	if s == "" || len(s) > 128 || strings.ContainsRune(".+ -", rune(s[0])) {
		return false
	}
	for _, c := range []byte(s) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.+ -", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// checkDesktop refuses an app or editor name of another form and an
// editor whose command names no program or a relative path.
func (c *Config) checkDesktop(p *problems) {
	for i, a := range c.Apps.Allow {
		if !validName(a) {
			p.add(fmt.Sprintf("/apps/allow/%d", i), fmt.Errorf("apps.allow: %q is not an application name (letters, digits, . _ + - and spaces, no path)", a))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Editors)) {
		member := "/editors/" + pointerToken(name)
		if !validName(name) {
			p.add(member, fmt.Errorf("editors: %q is not an editor name", name))
			continue
		}
		if err := checkEditorCommand(name, c.Editors[name].Command); err != nil {
			p.add(member+"/command", err)
		}
	}
}

// checkEditorCommand refuses an editor command that names no program, a
// relative path, or holds a NUL byte.
func checkEditorCommand(name string, command []string) error {
	if len(command) == 0 || command[0] == "" {
		return fmt.Errorf("editors.%s.command names no program", name)
	}
	if p := command[0]; strings.ContainsAny(p, `/\`) && !filepath.IsAbs(p) {
		return fmt.Errorf("editors.%s.command: %q is neither a program name nor an absolute path", name, p)
	}
	for _, a := range command {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("editors.%s.command holds a NUL byte", name)
		}
	}
	return nil
}
