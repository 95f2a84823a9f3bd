package sandbox

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
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
// them with the file's size; a failure is a *PathError with Op "read". For a root from Roots on Linux it opens the
// file with one openat2 (readBeneath); otherwise, and where openat2 is
// missing, through the checked walk.
func ReadAt(root *os.Root, rel string, off, max int64) (_ []byte, _ int64, err error) {
	defer wrap("read", rel, &err)
	if dir := rootDir(root); dir != nil {
		if buf, size, ok, err := readBeneath(dir, rel, off, max); ok {
			return buf, size, err
		}
	}
	f, fi, err := openRegular(root, rel, "read")
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
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
	// ExpectedSHA256, when set, is the SHA-256 the target must still have
	// just before it is replaced; otherwise (also when it is gone) the
	// write fails with ErrChanged and nothing is written.
	ExpectedSHA256 []byte
}

// WriteAtomic replaces (or creates) the file rel with data: a temporary
// file in the same folder (TempFile) is written, synced and moved over the
// target, and the folder is synced. It reports whether the file was created; a
// failure is a *PathError with Op "write".
func WriteAtomic(root *os.Root, rel string, data []byte, o WriteOptions) (created bool, err error) {
	defer wrap("write", rel, &err)
	dir, name, err := openParent(root, rel, o.CreateParents)
	if err != nil {
		return false, err
	}
	defer dir.Close()
	perm, existed, err := targetMode(dir, name)
	if err != nil {
		return false, err
	}
	if existed && o.Exclusive {
		return false, &fs.PathError{Op: "create", Path: rel, Err: fs.ErrExist}
	}
	t, err := CreateTemp(dir, ".tmp", perm)
	if err != nil {
		return false, err
	}
	if _, err := t.Write(data); err != nil {
		t.Discard()
		return false, err
	}
	if o.ExpectedSHA256 != nil {
		if err := unchanged(dir, name, o.ExpectedSHA256); err != nil {
			t.Discard()
			return false, err
		}
	}
	if err := t.Commit(name, o.Exclusive); err != nil {
		return false, err
	}
	return !existed, nil
}

// unchanged checks, as late as it can, that the file name in dir still has
// the SHA-256 sum: ErrChanged when it does not or is gone.
func unchanged(dir *os.Root, name string, sum []byte) error {
	f, err := openChecked(dir, name, os.O_RDONLY|ReadFlag)
	if errors.Is(err, fs.ErrNotExist) {
		return ErrChanged
	}
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if !bytes.Equal(h.Sum(nil), sum) {
		return ErrChanged
	}
	return nil
}

// Hash returns the SHA-256 of the file rel and its size, read through one
// open handle; a failure is a *PathError with Op "read".
func Hash(root *os.Root, rel string) (_ []byte, _ int64, err error) {
	defer wrap("read", rel, &err)
	f, _, err := openRegular(root, rel, "read")
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, 0, err
	}
	return h.Sum(nil), n, nil
}

// targetMode returns the permissions to keep and whether rel exists; an
// existing target must be a regular file. Its executable bits are not
// kept: a write never leaves a program behind that the request did not
// ask for (replacing ~/.local/bin/xdg-open with a script would otherwise
// keep it runnable), so the file gets the permissions less x.
func targetMode(dir *os.Root, name string) (fs.FileMode, bool, error) {
	fi, err := dir.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0o644, false, nil
	case err != nil:
		return 0, false, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return 0, false, ErrSwapped
	case fi.IsDir():
		return 0, false, &fs.PathError{Op: "write", Path: name, Err: errIsDir}
	case !fi.Mode().IsRegular():
		return 0, false, &fs.PathError{Op: "write", Path: name, Err: ErrNotRegular}
	}
	return fi.Mode().Perm() &^ 0o111, true, nil
}

// TargetMode returns, for a file about to be written as name in the
// folder dir, the permissions it keeps (an existing regular file's,
// without execute bits; 0o644 for a new one) and whether it exists. A
// symlink there is ErrSwapped; a folder or a file that is not regular is
// a *fs.PathError of ErrIsDir or ErrNotRegular.
func TargetMode(dir *os.Root, name string) (fs.FileMode, bool, error) { return targetMode(dir, name) }

// commit moves tmp into place. Exclusive commits use a hard link, which
// fails when the target exists, so a file created meanwhile is never
// replaced; where links are unsupported it falls back to an exclusive
// create of the target followed by a rename, which is still never an
// overwrite of another writer's file.
func commit(dir *os.Root, tmp, name string, exclusive bool) error {
	if !exclusive {
		return dir.Rename(tmp, name)
	}
	err := dir.Link(tmp, name)
	if err == nil || errors.Is(err, fs.ErrExist) {
		dir.Remove(tmp)
		return err
	}
	f, cerr := dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if cerr != nil {
		return cerr
	}
	f.Close()
	return dir.Rename(tmp, name)
}

func syncDir(dir *os.Root) {
	if d, err := dir.Open("."); err == nil {
		d.Sync() // best effort: not every OS syncs folders
		d.Close()
	}
}

// Mkdir creates the folder rel (and its parents when parents is set). It
// reports whether the folder was created; an existing folder with parents
// set is not an error, as with mkdir -p. A failure is a *PathError with
// Op "mkdir".
func Mkdir(root *os.Root, rel string, parents bool) (_ bool, err error) {
	defer wrap("mkdir", rel, &err)
	dir, name, err := openParent(root, rel, parents)
	if err != nil {
		return false, err
	}
	defer dir.Close()
	if !parents {
		return true, dir.Mkdir(name, 0o755)
	}
	if fi, err := dir.Lstat(name); err == nil {
		if !fi.IsDir() {
			return false, &fs.PathError{Op: "mkdir", Path: rel, Err: fs.ErrExist}
		}
		return false, nil
	}
	return true, dir.Mkdir(name, 0o755)
}
