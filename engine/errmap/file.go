package errmap

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

// fileRules are the kinds of a *sandbox.PathError, in the order they are
// tested.
var fileRules = []rule{
	{fs.ErrNotExist, protocol.FileNotFound, "The file or folder does not exist; check the path, or create it first."},
	{fs.ErrExist, protocol.FileAlreadyExists, "Something already exists at that path; choose another name or use write_file to replace a file."},
	{sandbox.ErrOutside, protocol.WorkspaceViolation, "The path leads outside the workspace through a link; use a direct path inside the workspace."},
	{fs.ErrPermission, protocol.PermissionDenied, "The operating system refused access; check the file's permissions."},
	{sandbox.ErrIsDir, protocol.InvalidRequest, "The path is a folder, not a file; use list_folder for folders."},
	{sandbox.ErrHardLink, protocol.PermissionDenied, "The file has several hard links and may be shared with a file outside the workspace; copy it to a new file and use that."},
	{sandbox.ErrNotRegular, protocol.InvalidRequest, "The path is not a regular file (a pipe, socket or device), so DeskBridge does not read or replace it."},
	{sandbox.ErrNotDir, protocol.FileNotFound, "A part of the path is a file, not a folder; check the path."},
	{sandbox.ErrNoSpace, protocol.ExecutionFailed, "The disk is full; free some space and try again."},
	{sandbox.ErrChanged, protocol.ExecutionFailed, changedMsg},
}

// changedMsg is the message of a write refused by expected_sha256.
const changedMsg = "The file changed since it was read (its sha256 is no longer expected_sha256), so nothing was written; read it again and redo the change."

// Changed is the refusal of a write whose expected_sha256 the file no
// longer has, found by the engine before the write.
func Changed() *protocol.Error {
	return protocol.Wrap(protocol.ExecutionFailed, sandbox.ErrChanged, changedMsg)
}

// File maps an error of package sandbox (Roots.Open, ReadAt, WriteAtomic,
// Mkdir, List, Copy) to its protocol error; nil stays nil.
func File(err error) *protocol.Error {
	if err == nil {
		return nil
	}
	if pe, ok := asProtocol(err); ok {
		return pe
	}
	if pe := match(err, fileRules); pe != nil {
		return pe
	}
	return protocol.Wrap(protocol.ExecutionFailed, err, "The file operation failed; check the path and try again.")
}

// Copy maps an error of sandbox.Copy for import_asset, whose limit is max
// bytes: a source that leads out of its import location is denied as an
// import, and an existing destination names the overwrite argument.
func Copy(err error, max int64) *protocol.Error {
	var se *sandbox.SourceError
	switch {
	case errors.Is(err, sandbox.ErrTooLarge):
		return protocol.Wrap(protocol.InvalidRequest, err, fmt.Sprintf("The file is larger than this action's limit of %d bytes.", max))
	case errors.As(err, &se) && errors.Is(err, sandbox.ErrOutside):
		return ImportDenied()
	}
	pe := File(err)
	if pe.Code == protocol.FileAlreadyExists {
		pe.Message = "The destination file already exists; choose another name or pass \"overwrite\": true."
	}
	return pe
}

// ImportDenied is import_asset's refusal of a source outside every import
// location.
func ImportDenied() *protocol.Error {
	return protocol.Errorf(protocol.AssetImportDenied, "The source is not a file inside an allowed import location (the configuration's import_sources); copy it there first.")
}
