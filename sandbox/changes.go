package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Change is one file change of ApplyChanges: Data written to Rel, or Rel
// removed when Delete is set. Rel is relative to the root handle.
type Change struct {
	Rel    string
	Data   []byte
	Delete bool
}

// staged is one change on its way: its folder, the new content waiting
// in a temporary file, and where the old file was moved aside.
type staged struct {
	Change
	dir       *os.Root
	name      string
	tmp       *TempFile
	existed   bool
	backup    string // the old file's name while it is aside; "" when none
	committed bool
}

// ApplyChanges makes every change in changes or none. It first stages
// each one (the folder opened through the checked walk, missing parent
// folders made, the new content written to a temporary file beside the
// target), then moves each old file aside under a temporary name and
// links the new one into place; a failure at any step puts every old file
// back, removes new files and the folders it made, and returns the error.
// Only when all changes are in place are the old files removed. A target
// must be a regular file (or missing, for a write); a failure is a
// *PathError whose Path is the change's Rel.
func ApplyChanges(root *os.Root, changes []Change) (err error) {
	var made []string
	st := make([]*staged, 0, len(changes))
	defer func() {
		for _, s := range st {
			if s.tmp != nil && !s.committed {
				s.tmp.Discard()
			}
			s.dir.Close()
		}
		if err != nil {
			removeMade(root, made)
		}
	}()
	for _, c := range changes {
		s, m, err := stage(root, c)
		made = append(made, m...)
		if err != nil {
			return err
		}
		st = append(st, s)
	}
	for i, s := range st {
		beforeCommit(i)
		if err := s.commit(); err != nil {
			rollback(st[:i+1])
			return err
		}
	}
	for _, s := range st {
		if s.backup != "" {
			s.dir.Remove(s.backup)
		}
		syncDir(s.dir)
	}
	return nil
}

// beforeCommit runs before change i is put in place; tests make a
// commit fail through it.
var beforeCommit = func(int) {}

// stage opens the change's folder (making missing ones, which it reports)
// and writes its new content to a temporary file.
func stage(root *os.Root, c Change) (s *staged, made []string, err error) {
	defer wrap("write", c.Rel, &err)
	made, err = missingDirs(root, filepath.Dir(filepath.Clean(c.Rel)), c.Delete)
	if err != nil {
		return nil, nil, err
	}
	dir, name, err := openParent(root, c.Rel, !c.Delete)
	if err != nil {
		return nil, made, err
	}
	s = &staged{Change: c, dir: dir, name: name}
	perm, existed, err := targetMode(dir, name)
	s.existed = existed
	switch {
	case err != nil:
		dir.Close()
		return nil, made, err
	case c.Delete && !existed:
		dir.Close()
		return nil, made, &fs.PathError{Op: "remove", Path: c.Rel, Err: fs.ErrNotExist}
	case c.Delete:
		return s, made, nil
	}
	if s.tmp, err = CreateTemp(dir, ".tmp", perm); err == nil {
		_, err = s.tmp.Write(c.Data)
	}
	if err != nil {
		if s.tmp != nil {
			s.tmp.Discard()
		}
		dir.Close()
		return nil, made, err
	}
	return s, made, nil
}

// missingDirs lists the folders of rel (relative to root) that do not
// exist yet, outermost first, when they would be made (create).
func missingDirs(root *os.Root, rel string, del bool) ([]string, error) {
	if del {
		return nil, nil
	}
	var out []string
	cur := ""
	for _, c := range components(rel) {
		cur = filepath.Join(cur, c)
		if _, err := root.Lstat(cur); errors.Is(err, fs.ErrNotExist) {
			out = append(out, cur)
		}
	}
	return out, nil
}

// removeMade removes the folders ApplyChanges made, innermost first, when
// they are empty again.
func removeMade(root *os.Root, made []string) {
	for _, m := range slices.Backward(made) {
		root.Remove(m) // fails, harmlessly, on a folder not empty
	}
}

// commit moves the old file aside and puts the new one (if any) in place.
func (s *staged) commit() (err error) {
	defer wrap("write", s.Rel, &err)
	if s.existed {
		b := newTempName(".tmp")
		if err := s.dir.Rename(s.name, b); err != nil {
			return err
		}
		s.backup = b
	}
	if s.Delete {
		s.committed = true
		return nil
	}
	if err := s.tmp.Commit(s.name, true); err != nil {
		return err
	}
	s.committed = true
	return nil
}

// rollback undoes the changes of st, last first: a new file is removed and
// the old one is moved back.
func rollback(st []*staged) {
	for _, s := range slices.Backward(st) {
		if s.committed && !s.Delete {
			s.dir.Remove(s.name)
		}
		if s.backup != "" {
			s.dir.Rename(s.backup, s.name)
			s.backup = ""
		}
		if !s.committed && s.tmp != nil {
			s.tmp.Discard()
		}
		s.committed = true // nothing left to discard
	}
}
