package projects

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/patch"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

type updateProjectArgs struct {
	// Project is the project_id create_project returned, or the project
	// folder's absolute path.
	Project string          `json:"project" jsonschema:"required,minLength=1"`
	Changes []projectChange `json:"changes" jsonschema:"maxItems=100"`
	// Message is the commit message; required with changes.
	Message     string  `json:"message" jsonschema:"maxLength=10000"`
	Rename      *string `json:"rename" jsonschema:"minLength=1,maxLength=100"`
	Description *string `json:"description" jsonschema:"maxLength=2000"`
	// Restore is a checkpoint's id: the project's files become what they
	// were at that checkpoint, as one new commit (history is never
	// rewritten). Excludes changes.
	Restore string `json:"restore" jsonschema:"minLength=40,maxLength=40"`

	// restored are the changes a restore makes, found by its facts and
	// judged by the policy as changes are.
	restored []projectChange
}

// changesToApply are the changes the request makes: its own, or a
// restore's.
func (a *updateProjectArgs) changesToApply() []projectChange {
	if a.Restore != "" {
		return a.restored
	}
	return a.Changes
}

// projectChange is one file change: its path (absolute, or relative to
// the project folder) and exactly one of content, patch and delete.
type projectChange struct {
	Path     string       `json:"path" jsonschema:"required,minLength=1"`
	Content  *string      `json:"content"`
	Encoding string       `json:"encoding" jsonschema:"enum=utf-8,enum=base64"`
	Patch    []patch.Edit `json:"patch" jsonschema:"maxItems=100"`
	Delete   bool         `json:"delete"`
}

func (a *updateProjectArgs) Validate() error {
	if a.Restore != "" {
		return a.validateRestore()
	}
	if len(a.Changes) == 0 && a.Rename == nil && a.Description == nil {
		return envelope.ArgumentError("Give changes, restore, rename or description: there is nothing to update.")
	}
	if len(a.Changes) > 0 && a.Message == "" {
		return envelope.ArgumentError("The argument message is required with changes: it is the commit's message.")
	}
	for i, ch := range a.Changes {
		n := 0
		for _, set := range []bool{ch.Content != nil, len(ch.Patch) > 0, ch.Delete} {
			if set {
				n++
			}
		}
		if n != 1 {
			return envelope.ArgumentError("Change %d must have exactly one of content, patch and delete.", i)
		}
	}
	return nil
}

// validateRestore checks a restore's arguments: a checkpoint id, no
// changes of its own, and a message (made when none is given).
func (a *updateProjectArgs) validateRestore() error {
	if len(a.Changes) > 0 {
		return envelope.ArgumentError("Give either changes or restore, not both: a restore makes its own changes.")
	}
	if err := checkpointIDError(a.Restore); err != nil {
		return err
	}
	if a.Message == "" {
		a.Message = "Restore checkpoint " + a.Restore[:12]
	}
	return nil
}

// updateProjectData is update_project's data.
type updateProjectData struct {
	ProjectID   string          `json:"project_id"`
	Path        string          `json:"path"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Changed     []changedResult `json:"changed"`
	Commit      string          `json:"commit,omitempty"`
	Restored    string          `json:"restored,omitempty"`
}

// changedResult is one applied change.
type changedResult struct {
	Path   string `json:"path"`
	Action string `json:"action"` // "written" or "deleted"
	Size   int    `json:"size"`
}

func init() {
	action.Register(action.Spec{
		Name: "update_project",
		Rules: []action.Rule{action.AtLeastOne(action.NotEmpty("changes"), action.Present("rename"), action.Present("description")),
			action.When(action.NotEmpty("changes"), action.Given("message")),
			action.Each("changes", action.ExactlyOne(action.Present("content"), action.NotEmpty("patch"), action.True("delete")))},
		NewArgs: func() any { return &updateProjectArgs{} },
		Digest:  []string{"changes[].content", "changes[].patch[].old_text", "changes[].patch[].new_text"},
		Facts:   updateProjectFacts,
		Run:     updateProject,
	})
}

// changeRole is the role of change i's path in input.paths.
func changeRole(i int) policy.Role { return policy.Role(fmt.Sprintf("changes[%d]", i)) }

// updateProjectFacts finds the project in the registry and resolves its
// folder ("project"), every change's path ("changes[i]", so the policy
// judges each one as it judges write_file's target) and a rename's new
// folder ("destination").
func updateProjectFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[updateProjectArgs](c)
	e, perr := lookupProject(env, a.Project)
	if perr != nil {
		return perr
	}
	if _, perr := c.Path(env, "project", e.Path); perr != nil {
		return perr
	}
	if perr := restoreFacts(env, c, a); perr != nil {
		return perr
	}
	seen := map[string]int{}
	for i, ch := range a.changesToApply() {
		raw := ch.Path
		if !filepath.IsAbs(raw) {
			raw = filepath.Join(e.Path, raw)
		}
		p, perr := c.Path(env, changeRole(i), raw)
		if perr != nil {
			return perr
		}
		if j, dup := seen[p.Canonical]; dup {
			return protocol.Errorf(protocol.InvalidRequest, "Changes %d and %d name the same file; merge them into one change.", j, i)
		}
		seen[p.Canonical] = i
		changeWriteFacts(c, ch)
	}
	if a.Rename != nil {
		if perr := projectNameError(*a.Rename); perr != nil {
			return perr
		}
		_, perr := c.Path(env, "destination", filepath.Join(filepath.Dir(e.Path), *a.Rename))
		return perr
	}
	return nil
}

// changeWriteFacts merges change ch into input.write: the request writes
// a program when any of its files would be one.
func changeWriteFacts(c *action.Call, ch projectChange) {
	if ch.Delete {
		return
	}
	var head []byte
	if ch.Content != nil {
		head = textenc.Head(*ch.Content, ch.Encoding)
	}
	prev := c.Write
	action.WriteFacts(c, ch.Path, head)
	if prev != nil && prev.Executable {
		c.Write = prev
	}
}

// lookupProject finds a project by id or by its folder's path.
func lookupProject(env *action.Env, key string) (project.Entry, *protocol.Error) {
	reg := project.OpenRegistry(env.Config.StateFolder())
	if filepath.IsAbs(key) {
		if p, perr := env.Paths.Resolve(key); perr == nil {
			key = p.Canonical
		}
	}
	e, err := reg.Get(key)
	if err != nil {
		return e, errmap.Project(err)
	}
	return e, nil
}

// updateProject applies the changes all or none, commits them, then
// renames and describes.
func updateProject(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[updateProjectArgs](c)
	e, perr := lookupProject(env, a.Project)
	if perr != nil {
		return nil, perr
	}
	proj := c.Paths["project"]
	if proj.Canonical != e.Path || !proj.Exists || proj.Type != facts.TypeFolder {
		return nil, protocol.Errorf(protocol.ProjectPathInvalid, "The project folder %s is gone or changed since it was registered.", e.Path)
	}
	root, perr := env.WritableRoot(proj)
	if perr != nil {
		return nil, perr
	}
	d := updateProjectData{ProjectID: e.ID, Path: e.Path, Name: e.Name, Changed: []changedResult{}}
	if len(a.changesToApply()) > 0 {
		if perr := applyProjectChanges(env, c, a, root, proj, &d); perr != nil {
			return nil, perr
		}
	}
	d.Restored = a.Restore
	if perr := renameProject(env, c, a, root, &e, &d); perr != nil {
		return d, perr
	}
	c.Detail = map[string]any{"changes": len(d.Changed), "commit": d.Commit != "", "restore": a.Restore != ""}
	return d, nil
}
