package wsview

import (
	"io/fs"
	"path"
	"strings"

	"github.com/deskbridge/deskbridge/protocol"
)

// cleanRel validates a workspace-relative request path ("/"-separated)
// and returns it cleaned, "." for the root, with its elements.
func cleanRel(p string) (string, []string, *protocol.Error) {
	if strings.ContainsAny(p, "\x00\\:") {
		return "", nil, errorf(protocol.InvalidRequest, "The path %q holds a character the agent may not use; use a relative path with / separators.", clip(p, 100))
	}
	if strings.HasPrefix(p, "/") {
		return "", nil, errorf(protocol.WorkspaceViolation, "The path must be relative to the workspace; drop the leading /.")
	}
	// a/../b is cleaned lexically: the view never follows links, so no
	// element can make ".." mean anything else.
	if pc := path.Clean(p); pc == ".." || strings.HasPrefix(pc, "../") {
		return "", nil, errorf(protocol.WorkspaceViolation, "The path leads out of the workspace; use a path inside it.")
	}
	c := path.Clean("/" + p)[1:]
	if c == "" {
		return ".", nil, nil
	}
	return c, strings.Split(c, "/"), nil
}

// target is a request path resolved inside the view.
type target struct {
	rel   string
	parts []string
	info  fs.FileInfo // lstat of the final element; nil for the root
	rules *rules      // rules in force inside the target (folders)
}

// resolve checks every element of a cleaned path: it must exist, must not
// be a link, .git, secret or ignored. It returns the rules in force in it.
func (v *View) resolve(rel string, parts []string) (*target, *protocol.Error) {
	t := &target{rel: rel, parts: parts, rules: v.rules}
	for i := range parts {
		fi, perr := v.checkElement(parts[:i+1], t.rules)
		if perr != nil {
			return nil, perr
		}
		t.info = fi
		if fi.IsDir() {
			t.rules = t.rules.withGitignore(readSmall(v.root, path.Join(append(parts[:i+1:i+1], ".gitignore")...)), parts[:i+1])
		}
	}
	return t, nil
}

// checkElement checks one path prefix against the view's rules.
func (v *View) checkElement(parts []string, r *rules) (fs.FileInfo, *protocol.Error) {
	rel := strings.Join(parts, "/")
	if parts[len(parts)-1] == ".git" {
		return nil, withheld(rel)
	}
	fi, err := v.root.Lstat(rel)
	if err != nil {
		return nil, errorf(protocol.FileNotFound, "No file or folder %q in the workspace; list the folder to see what exists.", clip(rel, 200))
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, errorf(protocol.PermissionDenied, "The path %q goes through a symbolic link, which the agent does not follow; use the real path.", clip(rel, 200))
	case v.cls.Classify(rel, fi.IsDir()) == Secret, r.ignored(parts, fi.IsDir()):
		return nil, withheld(rel)
	}
	return fi, nil
}

// withheld is the error for a path that a sensitivity or ignore rule hides.
func withheld(rel string) *protocol.Error {
	return errorf(protocol.PermissionDenied, "The path %q is withheld from the agent by a sensitivity or ignore rule; ask for another file.", clip(rel, 200))
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// utf8RuneStart reports whether b can start a UTF-8 sequence.
func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
