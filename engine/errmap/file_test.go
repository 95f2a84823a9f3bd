package errmap

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

func pathErr(kind error) error {
	return &sandbox.PathError{Op: "read", Path: "a.txt", Kind: kind, Err: errors.New("cause")}
}

func TestFile(t *testing.T) {
	for _, c := range []struct {
		kind error
		code protocol.Code
	}{
		{fs.ErrNotExist, protocol.FileNotFound},
		{fs.ErrExist, protocol.FileAlreadyExists},
		{sandbox.ErrOutside, protocol.WorkspaceViolation},
		{fs.ErrPermission, protocol.PermissionDenied},
		{sandbox.ErrIsDir, protocol.InvalidRequest},
		{sandbox.ErrHardLink, protocol.PermissionDenied},
		{sandbox.ErrNotRegular, protocol.InvalidRequest},
		{sandbox.ErrNotDir, protocol.FileNotFound},
		{sandbox.ErrNoSpace, protocol.ExecutionFailed},
		{sandbox.ErrChanged, protocol.ExecutionFailed},
		{nil, protocol.ExecutionFailed},
	} {
		err := pathErr(c.kind)
		pe := File(err)
		if pe.Code != c.code || pe.Message == "" || !errors.Is(pe, err) {
			t.Errorf("File(kind %v) = %s %q (Err %v), want %s wrapping the error", c.kind, pe.Code, pe.Message, pe.Err, c.code)
		}
	}
	if File(nil) != nil {
		t.Error("File(nil) is not nil")
	}
	own := protocol.Errorf(protocol.InvalidURL, "own")
	if File(own) != own {
		t.Error("File did not pass an engine's *protocol.Error through")
	}
}

func TestCopy(t *testing.T) {
	source := &sandbox.PathError{Op: "copy", Path: "s", Kind: sandbox.ErrOutside, Err: &sandbox.SourceError{Err: errors.New("loop")}}
	for _, c := range []struct {
		name string
		err  error
		code protocol.Code
		msg  string
	}{
		{"too large", pathErr(sandbox.ErrTooLarge), protocol.InvalidRequest, "The file is larger than this action's limit of 42 bytes."},
		{"source out", source, protocol.AssetImportDenied, ""},
		{"destination out", pathErr(sandbox.ErrOutside), protocol.WorkspaceViolation, ""},
		{"exists", pathErr(fs.ErrExist), protocol.FileAlreadyExists, "The destination file already exists; choose another name or pass \"overwrite\": true."},
	} {
		pe := Copy(c.err, 42)
		if pe.Code != c.code || (c.msg != "" && pe.Message != c.msg) {
			t.Errorf("%s: Copy = %s %q, want %s %q", c.name, pe.Code, pe.Message, c.code, c.msg)
		}
	}
}
