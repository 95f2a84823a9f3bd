package wsview

import (
	"context"
	"time"
)

// MaxListDepth is the deepest List goes, whatever the request asks.
const MaxListDepth = 32

// ListEntry is one entry of a List result.
type ListEntry struct {
	Name     string    `json:"name"`
	Path     string    `json:"path"`
	Type     string    `json:"type"` // "file", "folder" or "symlink"
	Size     int64     `json:"size"`
	Modified time.Time `json:"modified"`
}

// ListData is the data of a list_directory result.
type ListData struct {
	Path    string      `json:"path"`
	Depth   int         `json:"depth"`
	Entries []ListEntry `json:"entries"`
	Cut
	// Chars is the text counted against MaxTotalChars (the paths).
	Chars int `json:"-"`
}

// List returns the visible entries below the folder path, depth levels
// deep (1 = its children; 0 means 1), in sorted depth-first order. Each
// entry's path counts against MaxTotalChars; MaxResults bounds the count.
func (v *View) List(ctx context.Context, path string, depth int, lim Limits) (*ListData, error) {
	lim = lim.Normalized()
	rel, parts, perr := cleanRel("list", path)
	if perr != nil {
		return nil, perr
	}
	t, perr := v.resolve("list", rel, parts)
	if perr != nil {
		return nil, perr
	}
	if t.info != nil && !t.info.IsDir() {
		return nil, pathError("list", rel, ErrNotDir)
	}
	depth = min(max(depth, 1), MaxListDepth)
	out := &ListData{Path: rel, Depth: depth, Entries: []ListEntry{}}
	w := &walker{v: v, ctx: ctx, maxDepth: depth, cut: &out.Cut}
	w.visit = func(e *entry) (bool, error) { return out.add(e, lim) }
	if err := w.run(rel, parts, t.rules); err != nil {
		return nil, walkError("list", rel, err)
	}
	return out, nil
}

// add appends e unless a limit is reached.
func (d *ListData) add(e *entry, lim Limits) (bool, error) {
	if len(d.Entries) >= lim.MaxResults {
		d.add1(ByMaxResults)
		return false, errStop
	}
	if d.Chars+len(e.rel) > lim.MaxTotalChars {
		d.add1(ByMaxTotalChars)
		return false, errStop
	}
	le := ListEntry{Name: e.name, Path: e.rel, Type: e.kind}
	if e.kind == kindSymlink {
		if _, err := e.dir.root.Stat(e.name); err != nil {
			return false, nil // leads out of the workspace, or dangles
		}
	} else if fi, err := e.info(); err == nil {
		le.Modified = fi.ModTime().UTC()
		if e.kind == kindFile {
			le.Size = fi.Size()
		}
	}
	d.Entries = append(d.Entries, le)
	d.Chars += len(e.rel)
	return true, nil
}

// add1 records a cut.
func (d *ListData) add1(limit string) { d.Cut.add(limit) }

// ctxErr reports whether err is a context cancellation or deadline.
func ctxErr(err error) bool {
	return err == context.Canceled || err == context.DeadlineExceeded
}
