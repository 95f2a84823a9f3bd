package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrTooLarge reports a source larger than CopyOptions.MaxBytes.
var ErrTooLarge = errors.New("sandbox: the file is larger than the limit")

// SourceError marks a failure on the source side of Copy, so that callers
// can tell a source that left its root from a destination that did.
type SourceError struct{ Err error }

// Error implements error.
func (e *SourceError) Error() string { return "source: " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *SourceError) Unwrap() error { return e.Err }

// CopyOptions modify Copy.
type CopyOptions struct {
	// MaxBytes fails the copy with ErrTooLarge when the source is larger
	// (0: no limit).
	MaxBytes int64
	// Overwrite replaces an existing destination file; without it an
	// existing destination fails with fs.ErrExist.
	Overwrite bool
}

// Copied describes a completed copy.
type Copied struct {
	Size    int64
	SHA256  string // lower-case hex digest of the bytes written
	Created bool   // the destination did not exist before
}

// Copy copies the regular file srcRel of src to dstRel of dst. The source
// is opened through its root (a symlink swapped in cannot lead out) and
// refused when its final component is a symlink; the bytes stream into a
// temporary file beside dstRel that is synced and renamed into place, so a
// failed copy leaves nothing behind and a reader never sees half a file.
// A failure is a *PathError with Op "copy"; on the source's side its Err
// is a *SourceError.
func Copy(src *os.Root, srcRel string, dst *os.Root, dstRel string, o CopyOptions) (_ Copied, err error) {
	in, size, err := openSource(src, srcRel, o.MaxBytes)
	if err != nil {
		return Copied{}, &PathError{Op: "copy", Path: srcRel, Kind: kindOf(err), Err: &SourceError{err}}
	}
	defer wrap("copy", dstRel, &err)
	defer in.Close()
	dir, name, err := openParent(dst, dstRel, false)
	if err != nil {
		return Copied{}, err
	}
	defer dir.Close()
	perm, existed, err := targetMode(dir, name)
	if err != nil {
		return Copied{}, err
	}
	if existed && !o.Overwrite {
		return Copied{}, &fs.PathError{Op: "create", Path: dstRel, Err: fs.ErrExist}
	}
	t, sum, err := streamTemp(dir, io.LimitReader(in, size+1), size, perm)
	if err != nil {
		return Copied{}, err
	}
	if err := t.Commit(name, !o.Overwrite); err != nil {
		return Copied{}, err
	}
	return Copied{Size: size, SHA256: sum, Created: !existed}, nil
}

// openSource opens a regular file no larger than max, through the checked
// walk, and returns it with its size.
func openSource(root *os.Root, rel string, max int64) (*os.File, int64, error) {
	f, fi, err := openRegular(root, rel, "copy")
	if err != nil {
		return nil, 0, err
	}
	if max > 0 && fi.Size() > max {
		f.Close()
		return nil, 0, ErrTooLarge
	}
	return f, fi.Size(), nil
}

// openRegular opens rel for reading through the checked walk and refuses,
// as a *fs.PathError with op, a folder, a file that is not regular and a
// file with several hard links.
func openRegular(root *os.Root, rel, op string) (*os.File, fs.FileInfo, error) {
	dir, name, err := openParent(root, rel, false)
	if err != nil {
		return nil, nil, err
	}
	defer dir.Close()
	f, err := openChecked(dir, name, os.O_RDONLY|ReadFlag)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case fi.IsDir():
		err = &fs.PathError{Op: op, Path: rel, Err: errIsDir}
	case !fi.Mode().IsRegular():
		err = &fs.PathError{Op: op, Path: rel, Err: ErrNotRegular}
	case LinkCount(f, fi) > 1:
		err = &fs.PathError{Op: op, Path: rel, Err: ErrHardLink}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// streamTemp writes r into a new temporary file in the folder root, checks
// that it held exactly want bytes (the file did not change under the
// copy), and returns it, to be committed, with its SHA-256.
func streamTemp(root *os.Root, r io.Reader, want int64, perm fs.FileMode) (*TempFile, string, error) {
	t, err := CreateTemp(root, ".tmp", perm)
	if err != nil {
		return nil, "", err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(t, h), r)
	if err == nil && n != want {
		err = fmt.Errorf("sandbox: the source changed size during the copy (%d, then %d bytes)", want, n)
	}
	if err != nil {
		t.Discard()
		return nil, "", err
	}
	return t, hex.EncodeToString(h.Sum(nil)), nil
}
