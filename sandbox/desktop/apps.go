package desktop

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// ValidAppName reports whether name has the form of a logical
// application name: a desktop file ID without ".desktop"
// (org.gnome.Nautilus, code, firefox-esr), an executable's name on
// Windows, an .app's on macOS: 1 to 128 of letters, digits, `_ . + -` and
// spaces, not starting with a dot, a space or a dash. No path separator.
func ValidAppName(name string) bool {
	if name == "" || len(name) > 128 || strings.ContainsRune(".+ -", rune(name[0])) {
		return false
	}
	for _, c := range []byte(name) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.+ -", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// OpenApp starts the application logically named name with args (files,
// URLs or options; each one argument) and waits for its launcher's
// status as Launch does. An application that is not installed is a
// *NotFoundError.
func OpenApp(ctx context.Context, name string, args, dirs []string) error {
	if !ValidAppName(name) {
		return &NotFoundError{Kind: ErrNotFound, Name: name, Err: fmt.Errorf("not an application name")}
	}
	argv, err := appCommand(name, args, dirs)
	if err != nil {
		return err
	}
	return Launch(ctx, argv, dirs, 0)
}

// OpenFolder shows the folder path (absolute, canonical) in the
// platform's file manager.
func OpenFolder(ctx context.Context, path string, dirs []string) error {
	return openFolder(ctx, path, dirs)
}

// Installed reports whether program is found by Find in dirs.
func Installed(program string, dirs []string) bool {
	_, err := Find(program, dirs)
	return err == nil
}

// readEntry reads the .desktop file at p.
func readEntry(p string) (Entry, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return Entry{}, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxEntry {
		return Entry{}, fmt.Errorf("%w: %s is not a small regular file", ErrEntry, p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return Entry{}, err
	}
	e, err := ParseEntry(string(b))
	e.Path = p
	return e, err
}
