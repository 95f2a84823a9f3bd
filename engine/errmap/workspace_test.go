package errmap

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/wsview"
)

func TestWorkspace(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	at := func(kind error) error { return &wsview.PathError{Op: "read", Path: "dir/a.txt", Err: kind} }
	for _, c := range []struct {
		err  error
		code protocol.Code
		msg  string
	}{
		{&wsview.PathError{Op: "list", Path: "a\\b", Err: wsview.ErrBadChar}, protocol.InvalidRequest, `The path "a\\b" holds a character the agent may not use; use a relative path with / separators.`},
		{at(wsview.ErrAbsolute), protocol.WorkspaceViolation, "The path must be relative to the workspace; drop the leading /."},
		{at(wsview.ErrOutside), protocol.WorkspaceViolation, "The path leads out of the workspace; use a path inside it."},
		{at(fs.ErrNotExist), protocol.FileNotFound, `No file or folder "dir/a.txt" in the workspace; list the folder to see what exists.`},
		{at(wsview.ErrLink), protocol.PermissionDenied, ""},
		{at(wsview.ErrWithheld), protocol.PermissionDenied, `The path "dir/a.txt" is withheld from the agent by a sensitivity or ignore rule; ask for another file.`},
		{at(wsview.ErrIsDir), protocol.InvalidRequest, "The workspace root is a folder; list it instead of reading it."},
		{at(wsview.ErrNotRegular), protocol.InvalidRequest, ""},
		{at(wsview.ErrNotDir), protocol.InvalidRequest, ""},
		{at(wsview.ErrBinary), protocol.InvalidRequest, ""},
		{at(wsview.ErrHardLink), protocol.PermissionDenied, ""},
		{at(wsview.ErrChanged), protocol.PermissionDenied, ""},
		{at(wsview.ErrRead), protocol.PermissionDenied, ""},
		{at(wsview.ErrWalk), protocol.ExecutionFailed, "The workspace folder could not be read; check that it still exists."},
		{at(context.Canceled), protocol.ExecutionFailed, "The workspace request was cancelled or ran out of time; try a narrower request."},
		{at(context.DeadlineExceeded), protocol.ExecutionFailed, "The workspace request was cancelled or ran out of time; try a narrower request."},
		{wsview.ErrQuery, protocol.InvalidRequest, "The search query must be 1 to 1000 characters long."},
		{wsview.ErrRegex, protocol.InvalidRequest, ""},
		{wsview.ErrGlob, protocol.InvalidRequest, ""},
		{&wsview.TypeError{Type: "x"}, protocol.InvalidRequest, `The request type "x" is not one of workspace_info, list_directory, read_file, search_workspace.`},
		{&wsview.PathError{Op: "read", Path: long, Err: wsview.ErrBinary}, protocol.InvalidRequest, `The file "` + long[:200] + `" is binary; the agent reads text files only.`},
		{errors.New("other"), protocol.ExecutionFailed, ""},
	} {
		pe := Workspace(c.err)
		if pe.Code != c.code || pe.Message == "" || strings.Contains(pe.Message, "%!") || (c.msg != "" && pe.Message != c.msg) {
			t.Errorf("Workspace(%v) = %s %q, want %s %q", c.err, pe.Code, pe.Message, c.code, c.msg)
		}
	}
}
