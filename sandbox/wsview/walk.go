package wsview

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync/atomic"
)

// errStop ends a walk early without an error to report.
var errStop = errors.New("wsview: stop walk")

// dirNode is an open folder of the walk. Files found in it are opened
// relative to it (one openat per file); it is closed when the walk and
// every job that retained it have released it.
type dirNode struct {
	root *os.Root
	dirf *os.File // the folder itself, open for reading entries and openat
	fd   int      // dirf's descriptor (Unix), read once by the walker
	refs atomic.Int32
}

func newDirNode(r *os.Root) *dirNode {
	d := &dirNode{root: r}
	d.refs.Store(1)
	return d
}

func (d *dirNode) retain() { d.refs.Add(1) }

func (d *dirNode) release() {
	if d.refs.Add(-1) == 0 {
		if d.dirf != nil {
			d.dirf.Close()
		}
		d.root.Close()
	}
}

// entry is one visible entry found by a walk.
type entry struct {
	dir   *dirNode // the folder holding it
	name  string
	rel   string
	depth int // 1 for the children of the walk's start
	kind  string
	info  func() (fs.FileInfo, error)
}

// Entry kinds.
const (
	kindFile    = "file"
	kindFolder  = "folder"
	kindSymlink = "symlink"
)

// walker visits the visible entries below a folder in sorted, depth-first
// order. visit returns whether to descend into a folder, or errStop.
type walker struct {
	v        *View
	ctx      context.Context
	maxDepth int
	visited  int
	cut      *Cut
	visit    func(e *entry) (bool, error)
}

// run walks the folder rel (elements parts) with rules r in force.
func (w *walker) run(rel string, parts []string, r *rules) error {
	sub, err := w.v.root.OpenRoot(orDot(rel))
	if err != nil {
		return err
	}
	err = w.dir(newDirNode(sub), rel, parts, r, 1)
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// dir walks one open folder; it releases d when done.
func (w *walker) dir(d *dirNode, rel string, parts []string, r *rules, depth int) error {
	defer d.release()
	ents, err := w.readDir(d)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(ents, func(e fs.DirEntry) bool { return e.Name() == ".gitignore" && e.Type().IsRegular() }) {
		r = r.withGitignore(readSmall(d.root, ".gitignore"), parts)
	}
	for _, de := range ents {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		if err := w.entry(d, de, rel, parts, r, depth); err != nil {
			return err
		}
	}
	return nil
}

// entry filters one folder entry, visits it, and descends into folders.
func (w *walker) entry(d *dirNode, de fs.DirEntry, rel string, parts []string, r *rules, depth int) error {
	name := de.Name()
	kind := kindOf(de.Type())
	if name == ".git" || kind == "" {
		return nil
	}
	cparts := append(slices.Clip(parts), name)
	crel := joinRel(rel, name)
	isDir := kind == kindFolder
	if w.v.cls.Classify(crel, isDir) == Secret || r.ignored(cparts, isDir) {
		return nil
	}
	e := &entry{dir: d, name: name, rel: crel, depth: depth, kind: kind, info: de.Info}
	descend, err := w.visit(e)
	if err != nil || !isDir || !descend || depth >= w.maxDepth {
		return err
	}
	sub, ok := openSubdir(d.root, name)
	if !ok {
		return nil
	}
	return w.dir(newDirNode(sub), crel, cparts, r, depth+1)
}

// readDir reads a folder's entries, sorted by name, within the walk's
// entry budget.
func (w *walker) readDir(d *dirNode) ([]fs.DirEntry, error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, nil // unreadable folder: nothing to show
	}
	d.dirf, d.fd = f, dirFD(f)
	var ents []fs.DirEntry
	for {
		chunk, err := f.ReadDir(1024)
		w.visited += len(chunk)
		ents = append(ents, chunk...)
		if w.visited > MaxWalkEntries {
			w.cut.add(ByWalkEntries)
			return nil, errStop
		}
		if err == io.EOF || len(chunk) == 0 {
			break
		}
		if err != nil {
			return nil, nil
		}
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// openSubdir opens the folder name in parent, refusing it if a link was
// swapped in after the folder was listed.
func openSubdir(parent *os.Root, name string) (*os.Root, bool) {
	lst, err := parent.Lstat(name)
	if err != nil || !lst.IsDir() {
		return nil, false
	}
	sub, err := parent.OpenRoot(name)
	if err != nil {
		return nil, false
	}
	st, err := sub.Stat(".")
	if err != nil || !os.SameFile(st, lst) {
		sub.Close()
		return nil, false
	}
	return sub, true
}

// kindOf maps a directory entry type to an entry kind; "" skips it.
func kindOf(t fs.FileMode) string {
	switch {
	case t.IsRegular():
		return kindFile
	case t.IsDir():
		return kindFolder
	case t&fs.ModeSymlink != 0:
		return kindSymlink
	}
	return ""
}

// joinRel joins a folder's relative path and a name.
func joinRel(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// orDot returns rel, or "." for the root.
func orDot(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}
