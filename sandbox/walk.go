package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// The policy judged a canonical path: one with no symlinks in it. So the
// executor walks that path one folder at a time and refuses any component
// that is a symlink, or that is no longer the folder it looked at a moment
// before (swapped between lstat and open). os.Root alone keeps every step
// inside the workspace; the walk also keeps it on the path that was judged,
// so a folder swapped for a link to .git/hooks or .ssh inside the same
// workspace cannot redirect a write or a read.

// openDir opens the folder rel (relative to root, "." for root itself)
// through the checked walk. With create, missing folders are made. The
// caller closes the returned root.
func openDir(root *os.Root, rel string, create bool) (*os.Root, error) {
	cur, err := root.OpenRoot(".")
	if err != nil {
		return nil, err
	}
	for _, name := range components(rel) {
		next, err := step(cur, name, create)
		cur.Close()
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// openParent opens the folder holding rel and returns it with rel's last
// component.
func openParent(root *os.Root, rel string, create bool) (*os.Root, string, error) {
	dir, name := filepath.Split(filepath.Clean(rel))
	if dir == "" {
		dir = "."
	}
	d, err := openDir(root, dir, create)
	return d, name, err
}

// step opens the subfolder name of dir, refusing a symlink or a swap.
func step(dir *os.Root, name string, create bool) (*os.Root, error) {
	li, err := dir.Lstat(name)
	if create && errors.Is(err, fs.ErrNotExist) {
		if err := dir.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		li, err = dir.Lstat(name)
	}
	switch {
	case err != nil:
		return nil, err
	case li.Mode()&fs.ModeSymlink != 0:
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrSwapped}
	case !li.IsDir():
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOTDIR}
	}
	sub, err := dir.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	if si, err := sub.Stat("."); err != nil || !os.SameFile(li, si) {
		sub.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrSwapped}
	}
	return sub, nil
}

// components splits a relative path into its names ("." and "" dropped).
func components(rel string) []string {
	var out []string
	for _, c := range strings.FieldsFunc(filepath.ToSlash(rel), func(r rune) bool { return r == '/' }) {
		if c != "." {
			out = append(out, c)
		}
	}
	return out
}
