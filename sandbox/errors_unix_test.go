//go:build unix

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// kindIn returns the Kind of the *PathError in err, or nil.
func kindIn(err error) error {
	var pe *PathError
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return nil
}

// kindWorkspace builds a folder with one example of every failure.
func kindWorkspace(t *testing.T) *os.Root {
	t.Helper()
	dir, out := t.TempDir(), t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "file.txt"), []byte("hello"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "locked.txt"), []byte("x"), 0o000))
	must(os.WriteFile(filepath.Join(out, "secret"), []byte("s"), 0o644))
	must(os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(os.Link(filepath.Join(dir, "file.txt"), filepath.Join(dir, "second.txt")))
	must(os.WriteFile(filepath.Join(dir, "single.txt"), []byte("12345678"), 0o644))
	must(os.Symlink(filepath.Join(out, "secret"), filepath.Join(dir, "link")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	root, err := os.OpenRoot(dir)
	must(err)
	t.Cleanup(func() { root.Close() })
	return root
}

// TestPathErrorKinds runs one failure of each kind through the exported
// operations and checks errors.Is with the kind and errors.As with
// *PathError.
func TestPathErrorKinds(t *testing.T) {
	root := kindWorkspace(t)
	read := func(rel string) error { _, _, err := ReadAt(root, rel, 0, 10); return err }
	cases := []struct {
		name string
		op   string
		err  error
		kind error
	}{
		{"not exist", "read", read("missing.txt"), fs.ErrNotExist},
		{"exist", "mkdir", second(Mkdir(root, "sub", false)), fs.ErrExist},
		{"exclusive write", "write", second(WriteAtomic(root, "file.txt", nil, WriteOptions{Exclusive: true})), fs.ErrExist},
		{"escape", "read", read("../x"), ErrOutside},
		{"link out", "read", read("link"), ErrOutside},
		{"is a folder", "read", read("sub"), ErrIsDir},
		{"hard link", "read", read("second.txt"), ErrHardLink},
		{"fifo", "read", read("fifo"), ErrNotRegular},
		{"not a folder", "read", read("file.txt/x"), ErrNotDir},
		{"too large", "copy", second(Copy(root, "single.txt", root, "copy.txt", CopyOptions{MaxBytes: 4})), ErrTooLarge},
		{"list a file", "list", third(List(root, "file.txt", "/w", ListOptions{MaxDepth: 1, Limit: 10, TypeOf: func(fs.FileMode) string { return "" }})), ErrNotDir},
	}
	if os.Geteuid() != 0 { // root reads a mode-000 file
		cases = append(cases, struct {
			name, op  string
			err, kind error
		}{"permission", "read", read("locked.txt"), fs.ErrPermission})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !errors.Is(c.err, c.kind) {
				t.Fatalf("err = %v, want errors.Is %v", c.err, c.kind)
			}
			var pe *PathError
			if !errors.As(c.err, &pe) || pe.Kind != c.kind || pe.Op != c.op {
				t.Fatalf("err = %#v, want a *PathError with Op %q and Kind %v", c.err, c.op, c.kind)
			}
		})
	}
}

// TestKindOfErrno covers the kinds no test folder can produce.
func TestKindOfErrno(t *testing.T) {
	for _, c := range []struct{ err, kind error }{
		{syscall.ENOSPC, ErrNoSpace},
		{syscall.ENXIO, ErrNotRegular},
		{syscall.ELOOP, ErrOutside},
		{ErrSwapped, ErrOutside},
		{errors.New("other"), nil},
	} {
		if got := kindOf(&fs.PathError{Op: "open", Path: "x", Err: c.err}); got != c.kind {
			t.Errorf("kindOf(%v) = %v, want %v", c.err, got, c.kind)
		}
	}
}

// TestCopySourceError checks that a source-side failure of Copy is a
// *SourceError inside the *PathError.
func TestCopySourceError(t *testing.T) {
	root := kindWorkspace(t)
	_, err := Copy(root, "link", root, "copy.txt", CopyOptions{})
	var se *SourceError
	if !errors.As(err, &se) || !errors.Is(err, ErrOutside) {
		t.Fatalf("err = %v, want a *SourceError of kind ErrOutside", err)
	}
}

func second[T any](_ T, err error) error        { return err }
func third[T, U any](_ T, _ U, err error) error { return err }
