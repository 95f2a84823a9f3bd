package projects

import (
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/patch"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

// applyProjectChanges turns every change into its new content, applies
// them all or none through the workspace's root handle, and commits them
// when the project has a repository of its own.
func applyProjectChanges(env *action.Env, c *action.Call, a *updateProjectArgs, root *os.Root, proj facts.Path, d *updateProjectData) *protocol.Error {
	changes := make([]sandbox.Change, len(a.changesToApply()))
	var add, remove []string
	budget := c.Limit("max_bytes")
	for i, ch := range a.changesToApply() {
		p := c.Paths[changeRole(i)]
		rel, perr := insideProject(p, proj)
		if perr != nil {
			return perr
		}
		sc, perr := changeContent(root, p, ch, &budget)
		if perr != nil {
			perr.Message = fmt.Sprintf("Change %d: %s", i, perr.Message)
			return perr
		}
		changes[i] = sc
		r := changedResult{Path: p.Canonical, Action: "written", Size: len(sc.Data)}
		if ch.Delete {
			r.Action = "deleted"
			remove = append(remove, rel)
		} else {
			add = append(add, rel)
		}
		d.Changed = append(d.Changed, r)
	}
	if err := sandbox.ApplyChanges(root, changes); err != nil {
		return errmap.File(err)
	}
	if !project.IsRepository(proj.Canonical) {
		return nil
	}
	if err := project.CheckFolder(root, proj.Rel(), proj.Canonical); err != nil {
		return errmap.ProjectGit(err)
	}
	h, err := project.Commit(proj.Canonical, add, remove, a.Message)
	if err != nil {
		return errmap.ProjectGit(err)
	}
	d.Commit = h
	return nil
}

// insideProject returns p relative to the project folder, slash-separated;
// a path outside the project (though inside its workspace), the project
// folder itself, or DeskBridge's own file is refused.
func insideProject(p, proj facts.Path) (string, *protocol.Error) {
	if p.Protected {
		return "", protocol.Errorf(protocol.PermissionDenied, "The target is DeskBridge's own file or folder, which it never writes; change it by hand.")
	}
	rel, err := filepath.Rel(proj.Canonical, p.Canonical)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return "", protocol.Errorf(protocol.ProjectPathInvalid, "The change's path %s is not a file inside the project folder %s.", p.Canonical, proj.Canonical)
	}
	return filepath.ToSlash(rel), nil
}

// changeContent returns the sandbox change of ch: its decoded content,
// the patched file, or a removal; budget is what the changes may still
// add up to.
func changeContent(root *os.Root, p facts.Path, ch projectChange, budget *int64) (sandbox.Change, *protocol.Error) {
	sc := sandbox.Change{Rel: p.Rel(), Delete: ch.Delete}
	var perr *protocol.Error
	switch {
	case ch.Content != nil:
		sc.Data, perr = textenc.Decode(*ch.Content, ch.Encoding)
	case len(ch.Patch) > 0:
		sc.Data, perr = patchedContent(root, p, ch.Patch, *budget)
	}
	if perr != nil {
		return sc, perr
	}
	if *budget -= int64(len(sc.Data)); *budget < 0 {
		return sc, protocol.Errorf(protocol.InvalidRequest, "The changes together are larger than this action's limit; send fewer at a time.")
	}
	return sc, nil
}

// patchedContent reads the file p and applies edits to it.
func patchedContent(root *os.Root, p facts.Path, edits []patch.Edit, max int64) ([]byte, *protocol.Error) {
	old, size, err := sandbox.ReadAt(root, p.Rel(), 0, max+1)
	switch {
	case err != nil:
		return nil, errmap.File(err)
	case size > max:
		return nil, protocol.Errorf(protocol.InvalidRequest, "The file is larger than this action's limit of %d bytes.", max)
	case !utf8.Valid(old):
		return nil, protocol.Errorf(protocol.InvalidRequest, "The file is not UTF-8 text, so it cannot be patched; send its whole content instead.")
	}
	updated, _, perr := patch.File(string(old), edits)
	if perr != nil {
		return nil, perr
	}
	return []byte(updated), nil
}

// renameProject renames the project folder and changes its description,
// then writes the registry entry.
func renameProject(env *action.Env, c *action.Call, a *updateProjectArgs, root *os.Root, e *project.Entry, d *updateProjectData) *protocol.Error {
	if a.Rename == nil && a.Description == nil {
		return nil
	}
	if a.Rename != nil && *a.Rename != e.Name {
		dst := c.Paths["destination"]
		if perr := projectPlaceError(dst); perr != nil {
			return perr
		}
		if dst.Exists {
			return protocol.Errorf(protocol.ProjectPathInvalid, "A folder named %s already exists; choose another name.", *a.Rename)
		}
		if !dst.Inside || dst.WorkspaceRoot != c.Paths["project"].WorkspaceRoot || dst.Protected {
			return protocol.Errorf(protocol.WorkspaceViolation, "The renamed project would leave its workspace.")
		}
		if err := root.Rename(c.Paths["project"].Rel(), dst.Rel()); err != nil {
			return errmap.File(err)
		}
		e.Name, e.Path = *a.Rename, dst.Canonical
	}
	if a.Description != nil {
		e.Description = *a.Description
	}
	if err := project.OpenRegistry(env.Config.StateFolder()).Put(*e); err != nil {
		return protocol.Wrap(protocol.ExecutionFailed, err, "The project could not be updated in the registry in the state folder; check that folder's permissions.")
	}
	d.Name, d.Path, d.Description = e.Name, e.Path, e.Description
	return nil
}
