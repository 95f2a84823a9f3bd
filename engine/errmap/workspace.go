package errmap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/wsview"
)

// pathRule is a rule whose message may quote the request path: when clip
// is positive, msg is a format with one %q for the path cut to clip bytes.
type pathRule struct {
	rule
	clip int
}

// workspaceRules are the kinds of the workspace view's errors.
var workspaceRules = []pathRule{
	{rule{wsview.ErrBadChar, protocol.InvalidRequest, "The path %q holds a character the agent may not use; use a relative path with / separators."}, 100},
	{rule{wsview.ErrAbsolute, protocol.WorkspaceViolation, "The path must be relative to the workspace; drop the leading /."}, 0},
	{rule{wsview.ErrOutside, protocol.WorkspaceViolation, "The path leads out of the workspace; use a path inside it."}, 0},
	{rule{fs.ErrNotExist, protocol.FileNotFound, "No file or folder %q in the workspace; list the folder to see what exists."}, 200},
	{rule{wsview.ErrLink, protocol.PermissionDenied, "The path %q goes through a symbolic link, which the agent does not follow; use the real path."}, 200},
	{rule{wsview.ErrWithheld, protocol.PermissionDenied, "The path %q is withheld from the agent by a sensitivity or ignore rule; ask for another file."}, 200},
	{rule{wsview.ErrIsDir, protocol.InvalidRequest, "The workspace root is a folder; list it instead of reading it."}, 0},
	{rule{wsview.ErrNotRegular, protocol.InvalidRequest, "The path %q is not a regular file; list it instead."}, 200},
	{rule{wsview.ErrNotDir, protocol.InvalidRequest, "The path %q is a file; list its folder or read it instead."}, 200},
	{rule{wsview.ErrBinary, protocol.InvalidRequest, "The file %q is binary; the agent reads text files only."}, 200},
	{rule{wsview.ErrHardLink, protocol.PermissionDenied, "The file %q has several hard links and may be shared with a file outside the workspace, so it is withheld."}, 200},
	{rule{wsview.ErrChanged, protocol.PermissionDenied, "The file %q changed while it was being opened; try again."}, 200},
	{rule{wsview.ErrRead, protocol.PermissionDenied, "The file %q could not be read; check its permissions."}, 200},
	{rule{wsview.ErrWalk, protocol.ExecutionFailed, "The workspace folder could not be read; check that it still exists."}, 0},
	{rule{context.Canceled, protocol.ExecutionFailed, "The workspace request was cancelled or ran out of time; try a narrower request."}, 0},
	{rule{context.DeadlineExceeded, protocol.ExecutionFailed, "The workspace request was cancelled or ran out of time; try a narrower request."}, 0},
	{rule{wsview.ErrRegex, protocol.InvalidRequest, "The search query is not a valid RE2 regular expression; fix it or search for a literal."}, 0},
	{rule{wsview.ErrGlob, protocol.InvalidRequest, "The glob is not a valid pattern; use forms like *.go or cmd/**/*.go."}, 0},
}

// Workspace maps an error of the workspace view (wsview.View's operations
// and a wsview.Result's Err) to its protocol error.
func Workspace(err error) *protocol.Error {
	if err == nil {
		return nil
	}
	var te *wsview.TypeError
	switch {
	case errors.Is(err, wsview.ErrQuery):
		return protocol.Wrap(protocol.InvalidRequest, err, fmt.Sprintf("The search query must be 1 to %d characters long.", wsview.MaxQueryChars))
	case errors.As(err, &te):
		return protocol.Wrap(protocol.InvalidRequest, err, fmt.Sprintf("The request type %q is not one of workspace_info, list_directory, read_file, search_workspace.", clip(te.Type, 50)))
	}
	for _, r := range workspaceRules {
		if errors.Is(err, r.kind) {
			return protocol.Wrap(r.code, err, r.message(err))
		}
	}
	return protocol.Wrap(protocol.ExecutionFailed, err, "The workspace request failed; try again.")
}

// message is r's message for err, quoting its path when r asks for it.
func (r pathRule) message(err error) string {
	if r.clip == 0 {
		return r.msg
	}
	var pe *wsview.PathError
	path := ""
	if errors.As(err, &pe) {
		path = pe.Path
	}
	return fmt.Sprintf(r.msg, clip(path, r.clip))
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 { // a UTF-8 continuation byte
		n--
	}
	return s[:n]
}
