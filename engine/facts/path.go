// Package facts computes, natively, the facts a policy decides on: the
// canonical form of each path argument and the workspace it lies in, its
// sensitivity and whether the host must protect it.
//
// Facts are computed once per request from the decoded arguments; the
// policy input and the executor both use them, so what was checked is what
// runs. Resolution only reads the file system (lstat, readlink); effects
// belong to the sandbox package, which opens the approved path through a
// root handle of the workspace so that a symlink swapped in after this check
// cannot lead out.
package facts

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/deskbridge/deskbridge/engine/config"
	"github.com/deskbridge/deskbridge/engine/protocol"
)

// Path is the fact set of one path argument (docs/policy-input.md).
type Path struct {
	Input         string `json:"input"`
	Canonical     string `json:"canonical"`
	Workspace     string `json:"workspace"`
	WorkspaceRoot string `json:"workspace_root"`
	Relative      string `json:"relative"`
	Inside        bool   `json:"inside"`
	Exists        bool   `json:"exists"`
	Type          string `json:"type"`
	Sensitivity   string `json:"sensitivity"`
	Protected     bool   `json:"protected"`
	Links         int    `json:"links"`
}

// File types reported in Path.Type.
const (
	TypeFile    = "file"
	TypeFolder  = "folder"
	TypeSymlink = "symlink"
	TypeOther   = "other"
)

// maxLinkHops bounds symlink resolution (loops fail with WORKSPACE_VIOLATION).
const maxLinkHops = 40

// Resolver turns path arguments into Path facts.
type Resolver struct {
	workspaces []config.Workspace
	protected  []string
	classifier *Classifier
	fold       bool
}

// NewResolver returns a Resolver over the configuration's (canonical)
// workspaces. protected lists canonical paths the host never writes.
func NewResolver(workspaces []config.Workspace, protected []string, c *Classifier) *Resolver {
	return &Resolver{workspaces: workspaces, protected: protected, classifier: c, fold: FoldCase}
}

// FoldCase reports whether path comparison ignores case on this OS.
var FoldCase = runtime.GOOS == "windows" || runtime.GOOS == "darwin"

// Resolve computes the facts of raw, an absolute path from a request.
func (r *Resolver) Resolve(raw string) (Path, *protocol.Error) {
	clean, perr := ParseAbsolute(raw)
	if perr != nil {
		return Path{}, perr
	}
	canonical, err := canonicalize(clean, maxLinkHops)
	if err != nil {
		return Path{}, protocol.Wrap(protocol.WorkspaceViolation, err,
			"The path could not be resolved (a symlink loop or a link chain that is too long); use a direct path inside the workspace.")
	}
	p := Path{Input: raw, Canonical: canonical}
	r.place(&p)
	stat(&p)
	p.Sensitivity = r.classifier.Classify(canonical)
	p.Protected = r.isProtected(canonical)
	return p, nil
}

// place fills the workspace members: the deepest workspace containing p.
func (r *Resolver) place(p *Path) {
	best := -1
	for i, w := range r.workspaces {
		rel, ok := Within(w.Path, p.Canonical, r.fold)
		if ok && (best < 0 || len(w.Path) > len(r.workspaces[best].Path)) {
			best = i
			p.Relative = rel
		}
	}
	if best >= 0 {
		p.Inside = true
		p.Workspace = r.workspaces[best].Name
		p.WorkspaceRoot = r.workspaces[best].Path
	}
}

func stat(p *Path) {
	fi, err := os.Lstat(p.Canonical)
	if err != nil {
		return
	}
	p.Exists = true
	p.Type = TypeOf(fi.Mode())
	if fi.Mode().IsRegular() {
		p.Links = linkCount(p.Canonical, fi)
	}
}

// TypeOf names a file mode as the protocol does.
func TypeOf(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return TypeFile
	case m.IsDir():
		return TypeFolder
	case m&fs.ModeSymlink != 0:
		return TypeSymlink
	}
	return TypeOther
}

func (r *Resolver) isProtected(canonical string) bool {
	for _, p := range r.protected {
		if _, ok := Within(p, canonical, r.fold); ok {
			return true
		}
	}
	return false
}

// Within reports whether p lies in root (or is root), comparing whole path
// components, never string prefixes: /ws does not contain /ws-evil. It
// returns p relative to root in native form ("." for root itself).
func Within(root, p string, fold bool) (string, bool) {
	eq := func(a, b string) bool { return a == b || fold && strings.EqualFold(a, b) }
	if eq(root, p) {
		return ".", true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if len(p) <= len(prefix) || !eq(p[:len(prefix)], prefix) {
		return "", false
	}
	return p[len(prefix):], true
}

// canonicalize resolves every symlink in the clean absolute path p. A
// missing tail is kept as given (its parent resolved), and a dangling
// symlink is followed to its target, so that a write through it is judged
// by where it would land.
func canonicalize(p string, hops int) (string, error) {
	if hops <= 0 {
		return "", errTooManyLinks
	}
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return followDangling(p, hops)
	}
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if dir == p { // a missing volume root
		return p, nil
	}
	parent, err := canonicalize(dir, hops-1)
	if err != nil {
		return "", err
	}
	return filepath.Join(parent, base), nil
}

func followDangling(p string, hops int) (string, error) {
	target, err := os.Readlink(p)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(p), target)
	}
	return canonicalize(filepath.Clean(target), hops-1)
}

var errTooManyLinks = errors.New("too many levels of symbolic links")
