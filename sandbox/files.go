package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// openChecked opens rel in root and refuses it when the final component is
// now a symlink or no longer the file it names (a swap after the check).
func openChecked(root *os.Root, rel string, flag int) (*os.File, error) {
	f, err := root.OpenFile(rel, flag, 0)
	if err != nil {
		return nil, err
	}
	if err := sameAsPath(root, rel, f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func sameAsPath(root *os.Root, rel string, f *os.File) error {
	li, err := root.Lstat(rel)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if li.Mode()&fs.ModeSymlink != 0 || !os.SameFile(li, fi) {
		return ErrSwapped
	}
	return nil
}

// ReadAt reads up to max bytes of the file rel from offset off and returns
// them with the file's size.
func ReadAt(root *os.Root, rel string, off, max int64) ([]byte, int64, error) {
	f, err := openChecked(root, rel, os.O_RDONLY|readFlag)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if fi.IsDir() {
		return nil, 0, &fs.PathError{Op: "read", Path: rel, Err: errIsDir}
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, &fs.PathError{Op: "read", Path: rel, Err: ErrNotRegular}
	}
	size := fi.Size()
	if off >= size {
		return []byte{}, size, nil
	}
	n := min(max, size-off)
	buf := make([]byte, n)
	got, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, err
	}
	return buf[:got], size, nil
}

// WriteOptions modify WriteAtomic.
type WriteOptions struct {
	// CreateParents creates missing parent folders.
	CreateParents bool
	// Exclusive fails with fs.ErrExist when the target exists.
	Exclusive bool
}

// WriteAtomic replaces (or creates) the file rel with data: a temporary
// file in the same folder is written, synced and renamed over the target,
// and the folder is synced. It reports whether the file was created.
func WriteAtomic(root *os.Root, rel string, data []byte, o WriteOptions) (created bool, err error) {
	dir := filepath.Dir(rel)
	if o.CreateParents {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return false, err
		}
	}
	perm, existed, err := targetMode(root, rel)
	if err != nil {
		return false, err
	}
	if existed && o.Exclusive {
		return false, &fs.PathError{Op: "create", Path: rel, Err: fs.ErrExist}
	}
	tmp, err := writeTemp(root, dir, data, perm)
	if err != nil {
		return false, err
	}
	if err := commit(root, tmp, rel, o.Exclusive); err != nil {
		root.Remove(tmp)
		return false, err
	}
	syncDir(root, dir)
	return !existed, nil
}

// targetMode returns the permissions to keep and whether rel exists; an
// existing target must be a regular file.
func targetMode(root *os.Root, rel string) (fs.FileMode, bool, error) {
	fi, err := root.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0o644, false, nil
	case err != nil:
		return 0, false, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return 0, false, ErrSwapped
	case fi.IsDir():
		return 0, false, &fs.PathError{Op: "write", Path: rel, Err: errIsDir}
	case !fi.Mode().IsRegular():
		return 0, false, &fs.PathError{Op: "write", Path: rel, Err: ErrNotRegular}
	}
	return fi.Mode().Perm(), true, nil
}

func writeTemp(root *os.Root, dir string, data []byte, perm fs.FileMode) (string, error) {
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := filepath.Join(dir, ".deskbridge-"+hex.EncodeToString(rnd[:])+".tmp")
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// commit moves tmp into place. Exclusive commits use a hard link, which
// fails when the target exists, so a file created meanwhile is never
// replaced; where links are unsupported it falls back to an exclusive
// create of the target followed by a rename, which is still never an
// overwrite of another writer's file.
func commit(root *os.Root, tmp, rel string, exclusive bool) error {
	if !exclusive {
		return root.Rename(tmp, rel)
	}
	err := root.Link(tmp, rel)
	if err == nil || errors.Is(err, fs.ErrExist) {
		root.Remove(tmp)
		return err
	}
	f, cerr := root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if cerr != nil {
		return cerr
	}
	f.Close()
	return root.Rename(tmp, rel)
}

func syncDir(root *os.Root, dir string) {
	if d, err := root.Open(dir); err == nil {
		d.Sync() // best effort: not every OS syncs folders
		d.Close()
	}
}

// Mkdir creates the folder rel (and its parents when parents is set). It
// reports whether the folder was created; an existing folder with parents
// set is not an error, as with mkdir -p.
func Mkdir(root *os.Root, rel string, parents bool) (bool, error) {
	if !parents {
		return true, root.Mkdir(rel, 0o755)
	}
	if fi, err := root.Lstat(rel); err == nil {
		if !fi.IsDir() {
			return false, &fs.PathError{Op: "mkdir", Path: rel, Err: fs.ErrExist}
		}
		return false, nil
	}
	return true, root.MkdirAll(rel, 0o755)
}
