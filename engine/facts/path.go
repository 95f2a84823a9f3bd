// Package facts computes, natively, the facts a policy decides on: the
// canonical form of each path argument and the workspace it lies in, its
// sensitivity and whether the host must protect it.
//
// Facts are computed once per request from the decoded arguments; the
// policy input and the executor both use them, so what was checked is what
// runs. Resolution only reads the file system (lstat, readlink, and on
// Linux an O_PATH open that refuses symlinks); effects
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
	"time"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/internal/pathform"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// Path is the fact set of one path argument (docs/policy-input.md): the
// policy input's own type, so the facts go into the input as they are.
type Path = policy.Path

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
	roots      []pathform.Path
	protected  []pathform.Path
	classifier *Classifier
	derived    derivedCache // what paths' text says (derived.go)
}

// NewResolver returns a Resolver over the configuration's (canonical)
// workspaces. protected lists canonical paths the host never writes.
func NewResolver(workspaces []config.Workspace, protected []string, c *Classifier) *Resolver {
	r := &Resolver{workspaces: workspaces, classifier: c}
	for _, w := range workspaces {
		r.roots = append(r.roots, parseRoot(w.Path))
	}
	for _, p := range protected {
		if pp, err := pathform.Parse(pathform.Native, p); err == nil {
			r.protected = append(r.protected, pp)
		}
	}
	return r
}

// Classifier returns the classifier the resolver gives paths their
// sensitivity with: the one list the agent's workspace view filters by
// too.
func (r *Resolver) Classifier() *Classifier { return r.classifier }

// parseRoot parses a canonical root from the configuration; a root that
// does not parse matches nothing.
func parseRoot(p string) pathform.Path {
	pp, _ := pathform.Parse(pathform.Native, p)
	return pp
}

// FoldCase reports whether path comparison ignores case on this OS.
var FoldCase = runtime.GOOS == "windows" || runtime.GOOS == "darwin"

// Resolve computes the facts of raw, an absolute path from a request.
func (r *Resolver) Resolve(raw string) (Path, *protocol.Error) {
	clean, perr := r.cleanOf(raw)
	if perr != nil {
		return Path{}, perr
	}
	p := Path{Input: raw, Canonical: clean}
	if !resolveDirect(&p) {
		canonical, err := canonicalize(clean, maxLinkHops)
		if err != nil {
			return Path{}, protocol.Wrap(protocol.WorkspaceViolation, err,
				"The path could not be resolved (a symlink loop or a link chain that is too long); use a direct path inside the workspace.")
		}
		p.Canonical = canonical
		stat(&p)
	}
	if perr := r.derive(&p); perr != nil {
		return Path{}, perr
	}
	return p, nil
}

// place fills the workspace members: the deepest workspace containing p.
func (r *Resolver) place(p *Path, cp pathform.Path) {
	best := -1
	for i, root := range r.roots {
		rel, ok := within(root, cp)
		if ok && (best < 0 || len(root.Elems) > len(r.roots[best].Elems)) {
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
	p.Modified = modified(fi.ModTime())
	if fi.Mode().IsRegular() {
		p.Links = linkCount(p.Canonical, fi)
		p.Size = fi.Size()
	}
}

// modified formats a modification time as input.paths gives it: RFC 3339
// in UTC with nanoseconds, as list_folder's entries give it.
func modified(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

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

func (r *Resolver) isProtected(cp pathform.Path) bool {
	for _, p := range r.protected {
		if _, ok := within(p, cp); ok {
			return true
		}
	}
	return false
}

// HoldsProtected returns a path the host never writes (its configuration,
// policy, decision log, state …) that lies inside root, a workspace root,
// and whether there is one: a program run there could change it, which no
// policy can allow.
func (r *Resolver) HoldsProtected(root string) (string, bool) {
	rp, err := pathform.Parse(pathform.Native, root)
	if err != nil {
		return "", false
	}
	for _, p := range r.protected {
		if _, ok := within(rp, p); ok {
			return p.String(), true
		}
	}
	return "", false
}

// within compares whole components, ignoring case where the OS does.
func within(root, p pathform.Path) (string, bool) {
	if FoldCase {
		return pathform.WithinFold(root, p)
	}
	return pathform.Within(root, p)
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
