package config

import (
	"fmt"
	"path/filepath"
	"regexp"
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

// logicalName is the form of an application's or editor's name.
var logicalName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.+ -]{0,127}$`)

// checkDesktop refuses an app or editor name of another form and an
// editor whose command names no program or a relative path.
func (c *Config) checkDesktop() error {
	for _, a := range c.Apps.Allow {
		if !logicalName.MatchString(a) {
			return fmt.Errorf("apps.allow: %q is not an application name (letters, digits, . _ + - and spaces, no path)", a)
		}
	}
	for name, e := range c.Editors {
		if !logicalName.MatchString(name) {
			return fmt.Errorf("editors: %q is not an editor name", name)
		}
		if len(e.Command) == 0 || e.Command[0] == "" {
			return fmt.Errorf("editors.%s.command names no program", name)
		}
		p := e.Command[0]
		if strings.ContainsAny(p, `/\`) && !filepath.IsAbs(p) {
			return fmt.Errorf("editors.%s.command: %q is neither a program name nor an absolute path", name, p)
		}
		for _, a := range e.Command {
			if strings.IndexByte(a, 0) >= 0 {
				return fmt.Errorf("editors.%s.command holds a NUL byte", name)
			}
		}
	}
	return nil
}
