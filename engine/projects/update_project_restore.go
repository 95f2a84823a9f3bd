package projects

import (
	"encoding/base64"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

// restoreFacts turns update_project's restore into the changes that bring
// the project's files from HEAD back to the checkpoint: each becomes a
// change path of the policy input ("changes[i]"), judged as any update's
// is, so a policy that forbids writing one of them refuses the restore.
// The changes found here are the ones applied: the repository is not read
// again after the decision.
func restoreFacts(env *action.Env, c *action.Call, a *updateProjectArgs) *protocol.Error {
	if a.Restore == "" {
		return nil
	}
	proj := c.Paths["project"]
	root, perr := env.Root(proj)
	if perr != nil {
		return perr
	}
	if err := project.CheckFolder(root, proj.Rel(), proj.Canonical); err != nil {
		return errmap.Project(err)
	}
	if !project.IsRepository(proj.Canonical) {
		return errmap.Project(project.ErrNotRepository)
	}
	plan, err := project.RestorePlan(proj.Canonical, a.Restore, c.Limit("max_bytes"))
	if err != nil {
		return errmap.Project(err)
	}
	if len(plan) > maxRestoreFiles {
		return protocol.Errorf(protocol.InvalidRequest, "The restore would change %d files, more than %d; restore it by hand with git.", len(plan), maxRestoreFiles)
	}
	a.restored = make([]projectChange, len(plan))
	for i, f := range plan {
		ch := projectChange{Path: f.Path, Delete: f.Delete}
		if !f.Delete {
			s := base64.StdEncoding.EncodeToString(f.Data)
			ch.Content, ch.Encoding = &s, textenc.Base64
		}
		a.restored[i] = ch
	}
	return nil
}

// maxRestoreFiles caps the files one restore changes, as update_project's
// changes are capped.
const maxRestoreFiles = 100
