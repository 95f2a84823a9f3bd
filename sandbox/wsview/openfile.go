package wsview

import (
	"io/fs"
	"os"
	"strings"
)

// OpenFile opens the regular file path (workspace-relative, "/"-separated)
// for reading, under the view's rules: a path through .git, a secret, an
// ignored name or a link is refused as Read refuses it, and the file is
// opened one folder at a time against the lstat the rules saw. A folder
// is a *PathError of ErrIsDir. The caller closes the file.
func (v *View) OpenFile(path string) (*os.File, fs.FileInfo, error) {
	rel, parts, perr := cleanRel("read", path)
	if perr != nil {
		return nil, nil, perr
	}
	if rel == "." {
		return nil, nil, pathError("read", rel, ErrIsDir)
	}
	t, perr := v.resolve("read", rel, parts)
	if perr != nil {
		return nil, nil, perr
	}
	if t.info.IsDir() {
		return nil, nil, pathError("read", rel, ErrIsDir)
	}
	if !t.info.Mode().IsRegular() {
		return nil, nil, pathError("read", rel, ErrNotRegular)
	}
	f, err := v.openWalk(parts)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, changed(rel)
	}
	return f, fi, nil
}

// openWalk opens the regular file parts one folder at a time, refusing a
// link swapped in after resolve checked the path.
func (v *View) openWalk(parts []string) (*os.File, error) {
	rel := strings.Join(parts, "/")
	dir := v.root
	for _, name := range parts[:len(parts)-1] {
		next, ok := openSubdir(dir, name)
		if dir != v.root {
			dir.Close()
		}
		if !ok {
			return nil, changed(rel)
		}
		dir = next
	}
	if dir != v.root {
		defer dir.Close()
	}
	name := parts[len(parts)-1]
	lst, err := dir.Lstat(name)
	if err != nil || !lst.Mode().IsRegular() {
		return nil, changed(rel)
	}
	f, err := openRegular(dir, name, lst)
	if err == errHardLink {
		return nil, hardLinked(rel)
	}
	if err != nil {
		return nil, changed(rel)
	}
	return f, nil
}
