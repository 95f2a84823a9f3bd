package wsview

import (
	"io/fs"
	"path"
	"strings"
)

// cleanRel validates a workspace-relative request path ("/"-separated)
// and returns it cleaned, "." for the root, with its elements.
func cleanRel(op, p string) (string, []string, error) {
	if strings.ContainsAny(p, "\x00\\:") {
		return "", nil, pathError(op, p, ErrBadChar)
	}
	if strings.HasPrefix(p, "/") {
		return "", nil, pathError(op, p, ErrAbsolute)
	}
	// a/../b is cleaned lexically: the view never follows links, so no
	// element can make ".." mean anything else.
	if pc := path.Clean(p); pc == ".." || strings.HasPrefix(pc, "../") {
		return "", nil, pathError(op, p, ErrOutside)
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
func (v *View) resolve(op, rel string, parts []string) (*target, error) {
	t := &target{rel: rel, parts: parts, rules: v.rules}
	for i := range parts {
		fi, perr := v.checkElement(op, parts[:i+1], t.rules)
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
func (v *View) checkElement(op string, parts []string, r *rules) (fs.FileInfo, error) {
	rel := strings.Join(parts, "/")
	if parts[len(parts)-1] == ".git" {
		return nil, pathError(op, rel, ErrWithheld)
	}
	fi, err := v.root.Lstat(rel)
	if err != nil {
		return nil, causeError(op, rel, fs.ErrNotExist, err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, pathError(op, rel, ErrLink)
	case v.cls.Classify(rel, fi.IsDir()) == Secret, r.ignored(parts, fi.IsDir()):
		return nil, pathError(op, rel, ErrWithheld)
	}
	return fi, nil
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
