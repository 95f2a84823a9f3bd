package projects

import (
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/protocol"
)

// windowsReserved reports whether stem (a lower-case name without its
// extension) is a device name Windows reserves in every folder, with or
// without an extension ("nul.txt" is NUL too).
func windowsReserved(stem string) bool {
	switch stem {
	case "con", "prn", "aux", "nul", "conin$", "conout$":
		return true
	}
	if len(stem) < 4 || (stem[:3] != "com" && stem[:3] != "lpt") {
		return false
	}
	switch stem[3:] {
	case "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
		return true
	}
	return false
}

// projectNameError says why name cannot name a project folder, or is nil.
// The rules are the same on every system, so that a project made on Linux
// can be checked out on Windows: one plain name of at most 100 bytes, no
// separator, drive colon, control or Windows-forbidden character
// (<>:"|?*), no leading or trailing space, no trailing dot, not . or ..,
// not a Windows device name (CON, NUL.txt, COM1 …), not .git.
func projectNameError(name string) *protocol.Error {
	bad := func(why string) *protocol.Error {
		return protocol.Errorf(protocol.ProjectPathInvalid, "The project name %q %s; use a plain folder name such as my-site.", name, why)
	}
	switch {
	case name == "" || len(name) > 100:
		return bad("is empty or longer than 100 bytes")
	case name == "." || name == "..":
		return bad("names the folder itself or its parent")
	case strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f || strings.ContainsRune(`/\:<>"|?*`, r) }):
		return bad("holds a separator or a character Windows does not allow in names")
	case strings.TrimSpace(name) != name || strings.HasSuffix(name, "."):
		return bad("begins or ends with a space, or ends with a dot")
	case strings.EqualFold(name, ".git"):
		return bad("is git's own folder name")
	}
	stem, _, _ := strings.Cut(strings.ToLower(name), ".")
	if windowsReserved(strings.TrimRight(stem, " ")) {
		return bad("is a device name Windows reserves")
	}
	return nil
}

// projectPlaceError says why the resolved project folder p cannot hold a
// new project, or is nil: it is a workspace root, lies in a system folder
// (a workspace configured as / or C:\ would otherwise allow /usr/x), or
// exists and is not a folder.
func projectPlaceError(p facts.Path) *protocol.Error {
	bad := func(why string) *protocol.Error {
		return protocol.Errorf(protocol.ProjectPathInvalid, "The project folder %s %s; choose another name or workspace folder.", p.Canonical, why)
	}
	switch {
	case p.Inside && filepath.Clean(p.Canonical) == filepath.Clean(p.WorkspaceRoot):
		return bad("is a workspace root")
	case inSystemFolder(p.Canonical):
		return bad("lies in a system folder")
	case p.Exists && p.Type != facts.TypeFolder:
		return bad("exists and is not a folder")
	}
	return nil
}

// inSystemFolder reports whether path is, or lies in, one of
// systemFolders, compared as this system's paths compare.
func inSystemFolder(path string) bool {
	for _, s := range systemFolders() {
		if underFolder(path, s) {
			return true
		}
	}
	return false
}

// underFolder reports whether path is dir or lies below it, by whole components
// (case-insensitively where the system's names are).
func underFolder(path, dir string) bool {
	path, dir = filepath.Clean(path), filepath.Clean(dir)
	if caseInsensitive {
		path, dir = strings.ToLower(path), strings.ToLower(dir)
	}
	if path == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(path, dir)
}
