package cmdfacts

import (
	"path/filepath"
	"strings"
)

// gitRevPath returns the path of a git object name that names one: the
// path of `rev:path`, `:path`, `:N:path` (a stage of the index),
// `rev:./path`, `@{…}:path` and `stash@{0}:path` (the colon inside braces
// belongs to the revision). `:/text` names a commit by its message and no
// path. ok is false when a has no path.
func gitRevPath(a string) (path string, ok bool) {
	if strings.HasPrefix(a, ":/") {
		return "", false
	}
	if rest, found := strings.CutPrefix(a, ":"); found {
		if len(rest) >= 2 && rest[0] >= '0' && rest[0] <= '3' && rest[1] == ':' {
			rest = rest[2:]
		}
		return rest, true
	}
	depth := 0
	for i := 0; i < len(a); i++ {
		switch {
		case a[i] == '{':
			depth++
		case a[i] == '}' && depth > 0:
			depth--
		case a[i] == ':' && depth == 0:
			return a[i+1:], true
		}
	}
	return "", false
}

// gitPath is where a path of an object name lies: relative to the working
// folder when it begins with ./ or ../, else to the top of the working
// tree (top, or the working folder when top is unknown).
func gitPath(p, cwd, top string) string {
	slashed := filepath.ToSlash(p)
	if top == "" || slashed == "." || slashed == ".." ||
		strings.HasPrefix(slashed, "./") || strings.HasPrefix(slashed, "../") {
		return filepath.Join(cwd, p)
	}
	return filepath.Join(top, p)
}
