package wsview

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestErrorKinds runs one failure of each kind the path attacks do not
// cover and checks errors.Is with its kind and errors.As with its type.
func TestErrorKinds(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "text\n", "bin.dat": "a\x00b", "sub/b.txt": "b\n"})
	if err := os.Link(filepath.Join(dir, "sub/b.txt"), filepath.Join(dir, "b2.txt")); err != nil {
		t.Skip("no hard links here:", err)
	}
	v := openView(t, dir)
	ctx := context.Background()
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	read := func(ctx context.Context, p string) error { _, err := v.Read(ctx, p, 0, 0, Limits{}); return err }
	list := func(p string) error { _, err := v.List(ctx, p, 1, Limits{}); return err }
	for _, c := range []struct {
		name string
		err  error
		op   string
		kind error
	}{
		{"read the root", read(ctx, "."), "read", ErrIsDir},
		{"read a folder", read(ctx, "sub"), "read", ErrNotRegular},
		{"list a file", list("a.txt"), "list", ErrNotDir},
		{"binary", read(ctx, "bin.dat"), "read", ErrBinary},
		{"hard link", read(ctx, "b2.txt"), "read", ErrHardLink},
		{"cancelled", read(canceled, "a.txt"), "read", context.Canceled},
		{"changed", changed("x"), "read", ErrChanged},
		{"unreadable", causeError("read", "x", ErrRead, errors.New("EIO")), "read", ErrRead},
		{"walk", walkError("list", ".", errors.New("EIO")), "list", ErrWalk},
		{"walk deadline", walkError("info", ".", context.DeadlineExceeded), "info", context.DeadlineExceeded},
	} {
		t.Run(c.name, func(t *testing.T) {
			var pe *PathError
			if !errors.Is(c.err, c.kind) || !errors.As(c.err, &pe) || pe.Op != c.op {
				t.Fatalf("err = %v, want a *PathError of %s with kind %v", c.err, c.op, c.kind)
			}
		})
	}
	r := v.Run(ctx, []Request{{Type: "delete_everything"}}, Limits{})
	var te *TypeError
	if err := r.Results[0].Err; !errors.Is(err, ErrRequestType) || !errors.As(err, &te) || te.Type != "delete_everything" {
		t.Fatalf("unknown type: err = %v", err)
	}
}
