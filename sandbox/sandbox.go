// Package sandbox is the executor: the only code that changes the file
// system on a request's behalf.
//
// Every file operation goes through an *os.Root of the approved workspace
// with the path the policy judged (canonical, relative to that root), so a
// symlink or junction swapped in after the check cannot lead out of the
// workspace. On top of that:
//   - reads and writes refuse a final component that became a symlink after
//     the check (see openChecked);
//   - writes are atomic: a temporary file in the same folder, fsync, rename;
//     a crash or kill leaves the old or the new content, never a torn file;
//   - create never overwrites.
//
// Failures are *PathError values whose Kind is one of the sentinel errors
// (fs.ErrNotExist, fs.ErrExist, ErrOutside, …); callers test them with
// errors.Is and errors.As. The executor never chooses a wire code or words
// a message for the user: engine does that.
package sandbox

import (
	"os"
	"sync"
)

// Roots caches one *os.Root per workspace for the life of the process.
type Roots struct {
	mu sync.Mutex
	m  map[string]*os.Root
}

// rootDirs maps each *os.Root that Roots opened to the workspace folder
// itself, opened through that root, for the openat2 paths (readBeneath).
var rootDirs sync.Map

// rootDir returns the folder of a root from Roots, or nil.
func rootDir(root *os.Root) *os.File {
	if d, ok := rootDirs.Load(root); ok {
		return d.(*os.File)
	}
	return nil
}

// Open returns the root handle of the workspace folder dir.
// A failure is a *PathError with Op "open".
func (r *Roots) Open(dir string) (_ *os.Root, err error) {
	defer wrap("open", dir, &err)
	r.mu.Lock()
	defer r.mu.Unlock()
	if root, ok := r.m[dir]; ok {
		return root, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	if d, err := root.Open("."); err == nil {
		rootDirs.Store(root, d)
	}
	if r.m == nil {
		r.m = map[string]*os.Root{}
	}
	r.m[dir] = root
	return root, nil
}

// Close closes every cached root.
func (r *Roots) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, root := range r.m {
		if d, ok := rootDirs.LoadAndDelete(root); ok {
			d.(*os.File).Close()
		}
		root.Close()
	}
	r.m = nil
}
