//go:build !windows && !darwin

package desktop

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// appDirs are the folders .desktop files are looked for in, in order:
// $XDG_DATA_HOME/applications (~/.local/share/applications), then each of
// $XDG_DATA_DIRS (/usr/local/share:/usr/share) with /applications.
func appDirs() []string {
	home := os.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(home) {
		if h, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(h, ".local", "share")
		}
	}
	dirs := os.Getenv("XDG_DATA_DIRS")
	if dirs == "" {
		dirs = "/usr/local/share:/usr/share"
	}
	var out []string
	for _, d := range append([]string{home}, filepath.SplitList(dirs)...) {
		if filepath.IsAbs(d) {
			out = append(out, filepath.Join(d, "applications"))
		}
	}
	return out
}

// FindApp returns the desktop entry whose desktop file ID is name +
// ".desktop", from the first folder of appDirs that has it. A file in a
// subfolder has the ID of its relative path with "-" for "/"
// (applications/kde/foo.desktop is kde-foo.desktop). A missing, hidden
// or non-application entry, or one whose TryExec is not installed, is a
// *NotFoundError.
func FindApp(name string, dirs []string) (Entry, error) {
	for _, d := range appDirs() {
		p, ok := entryFile(d, name, maxIDDepth)
		if !ok {
			continue
		}
		e, err := readEntry(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return e, err
		}
		switch {
		case e.Hidden:
			return e, &NotFoundError{Kind: ErrNotFound, Name: name, Err: errors.New("the desktop entry is hidden (removed)")}
		case e.Type != "Application":
			return e, &NotFoundError{Kind: ErrNotFound, Name: name, Err: fmt.Errorf("the desktop entry is of type %q, not Application", e.Type)}
		case e.TryExec != "" && !Installed(e.TryExec, dirs):
			return e, &NotFoundError{Kind: ErrNotFound, Name: name, Err: fmt.Errorf("its program %s is not installed", e.TryExec)}
		}
		return e, nil
	}
	return Entry{}, &NotFoundError{Kind: ErrNotFound, Name: name, Err: fmt.Errorf("no %s.desktop in %s", name, strings.Join(appDirs(), ", "))}
}

// maxIDDepth bounds how many subfolders deep a desktop file ID is looked
// for.
const maxIDDepth = 4

// entryFile finds the file of desktop file ID id + ".desktop" under the
// applications folder dir: dir/id.desktop, or, for each "-" in id whose
// prefix names a subfolder, the rest of the ID in that subfolder. A
// prefix that starts with a dot ("..") is never a folder, so the search
// stays under dir.
func entryFile(dir, id string, depth int) (string, bool) {
	p := filepath.Join(dir, id+".desktop")
	if _, err := os.Lstat(p); err == nil {
		return p, true
	}
	if depth == 0 || id == "" || id[0] == '.' {
		return "", false
	}
	for i := 1; i < len(id); i++ {
		if id[i] != '-' {
			continue
		}
		sub := filepath.Join(dir, id[:i])
		if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
			continue
		}
		if p, ok := entryFile(sub, id[i+1:], depth-1); ok {
			return p, true
		}
	}
	return "", false
}

// appCommand is the argument vector of the application's desktop entry.
func appCommand(name string, args, dirs []string) ([]string, error) {
	e, err := FindApp(name, dirs)
	if err != nil {
		return nil, err
	}
	if e.Terminal {
		return nil, unavailable("%s runs in a terminal, which DeskBridge does not open", name)
	}
	return e.Command(args)
}

// openFolder runs xdg-open with the folder as its one argument.
func openFolder(ctx context.Context, path string, dirs []string) error {
	return Launch(ctx, []string{"xdg-open", path}, dirs, 0)
}

const folderOpener = "xdg-open"
