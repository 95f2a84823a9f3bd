package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Entry is one item of a folder listing.
type Entry struct {
	Name     string    `json:"name"`
	Path     string    `json:"path"`
	Type     string    `json:"type"`
	Size     int64     `json:"size"`
	Modified time.Time `json:"modified"`
}

// ListOptions bound a listing.
type ListOptions struct {
	// MaxDepth is how many levels below the folder are listed (1: only
	// the folder's own entries).
	MaxDepth int
	// IncludeHidden lists names that start with a dot.
	IncludeHidden bool
	// Limit caps the number of entries.
	Limit int
	// TypeOf names a file mode ("file", "folder", "symlink", "other").
	TypeOf func(fs.FileMode) string
}

// List lists the folder rel of root; absBase is its absolute path, used to
// report each entry's path. Entries are sorted by path; symlinks are listed
// but never followed. truncated reports that Limit cut the listing. A
// failure is a *PathError with Op "list".
func List(root *os.Root, rel, absBase string, o ListOptions) (entries []Entry, truncated bool, err error) {
	defer wrap("list", rel, &err)
	dir, err := openDir(root, rel, false)
	if err != nil {
		return nil, false, err
	}
	defer dir.Close()
	w := lister{o: o, entries: make([]Entry, 0, min(o.Limit, 256))}
	if err := w.walk(dir, absBase, 1); err != nil && err != errLimit {
		return nil, false, err
	}
	if o.MaxDepth > 1 { // one level is already in path order
		slices.SortFunc(w.entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	}
	return w.entries, w.truncated, nil
}

type lister struct {
	o         ListOptions
	entries   []Entry
	truncated bool
}

type limitError struct{}

func (limitError) Error() string { return "limit reached" }

var errLimit error = limitError{}

// walk lists the open folder dir (at absolute path abs) and, below
// MaxDepth, its subfolders through the checked walk.
func (w *lister) walk(dir *os.Root, abs string, depth int) error {
	f, names, err := readNames(dir, w.o.IncludeHidden)
	if err != nil {
		return err
	}
	stats, err := lstatAll(dir, f, names)
	f.Close()
	if err != nil {
		return err
	}
	for i, name := range names {
		if err := w.add(dir, abs, name, stats[i], depth); err != nil {
			return err
		}
	}
	return nil
}

// entryStat is what a listing keeps of an entry's lstat; ok is false when
// the entry was gone.
type entryStat struct {
	ok       bool
	mode     fs.FileMode
	size     int64
	modified time.Time
}

// readNames returns dir open as a file, which the caller closes, and the
// sorted names in it, without hidden ones unless includeHidden is set.
func readNames(dir *os.Root, includeHidden bool) (*os.File, []string, error) {
	f, err := dir.Open(".")
	if err != nil {
		return nil, nil, err
	}
	names, err := f.Readdirnames(-1)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !includeHidden {
		names = slices.DeleteFunc(names, func(n string) bool { return strings.HasPrefix(n, ".") })
	}
	slices.Sort(names)
	return f, names, nil
}

// statWorkers bounds the goroutines that lstat one folder's entries, and
// statChunk is the fewest entries worth a goroutine of its own.
const (
	statWorkers = 4
	statChunk   = 128
)

// lstatAll lstats each name in dir (open as f too), a few goroutines
// sharing a large folder (one lstat per entry is most of a listing's
// time); an entry not ok is gone (removed while listing). Another failure
// fails the listing, as os.File.ReadDir does.
func lstatAll(dir *os.Root, f *os.File, names []string) ([]entryStat, error) {
	stats := make([]entryStat, len(names))
	workers := min(statWorkers, runtime.GOMAXPROCS(0), len(names)/statChunk)
	if workers <= 1 {
		return stats, statNames(dir, f, names, stats)
	}
	var wg sync.WaitGroup
	errs := make([]error, workers)
	per := (len(names) + workers - 1) / workers
	for i := range workers {
		lo, hi := min(i*per, len(names)), min((i+1)*per, len(names))
		wg.Go(func() { errs[i] = statNames(dir, f, names[lo:hi], stats[lo:hi]) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return stats, nil
}

func (w *lister) add(dir *os.Root, abs, name string, st entryStat, depth int) error {
	if !st.ok {
		return nil // removed while listing
	}
	if len(w.entries) >= w.o.Limit {
		w.truncated = true
		return errLimit
	}
	e := Entry{Name: name, Path: childPath(abs, name), Type: w.o.TypeOf(st.mode), Modified: st.modified.UTC()}
	if st.mode.IsRegular() {
		e.Size = st.size
	}
	w.entries = append(w.entries, e)
	if st.mode.IsDir() && depth < w.o.MaxDepth {
		sub, err := step(dir, name, false)
		if err != nil {
			return err
		}
		defer sub.Close()
		return w.walk(sub, e.Path, depth+1)
	}
	return nil
}

// childPath is filepath.Join(abs, name) for a clean absolute path and a
// name read from its folder (one component, never "." or ".."), without
// Join's Clean: a tenth of a large listing's CPU went to it.
func childPath(abs, name string) string {
	if abs == "" || os.IsPathSeparator(abs[len(abs)-1]) { // a volume's root: "/", `C:\`
		return abs + name
	}
	return abs + string(filepath.Separator) + name
}
