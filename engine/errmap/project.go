package errmap

import (
	"errors"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

// projectRules are the kinds of package project's errors.
var projectRules = []rule{
	{project.ErrNotEmpty, protocol.ProjectPathInvalid, "The project folder already exists and is not empty; choose another name."},
	{project.ErrNoTemplate, protocol.InvalidRequest, "There is no such template; use empty, static-web, node, python, go or one of the configured projects.templates folder."},
	{project.ErrTemplateTooLarge, protocol.InvalidRequest, "The template is larger than a template may be (500 files, 8 MiB); make it smaller."},
	{project.ErrUnknown, protocol.ProjectPathInvalid, "No project with that id or path is registered; use the project_id create_project returned."},
	{project.ErrMoved, protocol.WorkspaceViolation, "The project folder was moved or replaced by a link while it was being changed, so no commit was made; check the folder."},
	{project.ErrNotRepository, protocol.ExecutionFailed, "The project's .git is not a folder of its own (a .git file or link leads elsewhere), so no commit was made."},
	{project.ErrNoCheckpoint, protocol.InvalidRequest, "No checkpoint with that id is on the project's branch; use an id list_checkpoints returned."},
	{project.ErrUnsafeEntry, protocol.PermissionDenied, "The checkpoint holds a symlink, a submodule or a path into .git, which DeskBridge never restores; restore it by hand with git."},
	{project.ErrTooLarge, protocol.InvalidRequest, "The checkpoint's files are larger than this action's limit; restore it by hand with git."},
}

// Project maps an error of package project (and of the sandbox file
// operations it calls) to its protocol error; nil stays nil.
func Project(err error) *protocol.Error {
	if err == nil {
		return nil
	}
	if pe := match(err, projectRules); pe != nil {
		return pe
	}
	return File(err)
}

// ProjectGit maps a failed go-git step of a project that was otherwise written.
func ProjectGit(err error) *protocol.Error {
	if errors.Is(err, project.ErrNotRepository) || errors.Is(err, project.ErrMoved) {
		return Project(err)
	}
	return protocol.Wrap(protocol.ExecutionFailed, err, "The files were written but the git commit failed; the repository may need a look with git status.")
}
