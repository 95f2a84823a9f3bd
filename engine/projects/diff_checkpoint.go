package projects

import (
	"context"
	"path/filepath"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

// diffCheckpointArgs are diff_checkpoint's arguments.
type diffCheckpointArgs struct {
	// Project is the project_id, or the project folder's absolute path.
	Project string `json:"project" jsonschema:"required,minLength=1"`
	// Checkpoint is a checkpoint's id (the commit's 40 hex digits).
	Checkpoint string `json:"checkpoint" jsonschema:"required,minLength=40,maxLength=40"`
}

func (a *diffCheckpointArgs) Validate() error { return checkpointIDError(a.Checkpoint) }

// checkpointIDError refuses a checkpoint id that is not 40 hex digits.
func checkpointIDError(id string) error {
	for _, r := range id {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return envelope.ArgumentError("The checkpoint must be a checkpoint's id, 40 lowercase hex digits, as list_checkpoints returns it.")
		}
	}
	if len(id) != 40 {
		return envelope.ArgumentError("The checkpoint must be a checkpoint's id, 40 lowercase hex digits, as list_checkpoints returns it.")
	}
	return nil
}

// secretPath reports whether the file rel of the project folder dir is of
// the secret class (.env, keys, .npmrc …), whose content DeskBridge never
// reads out, history included: its patch is omitted. A path that does not
// resolve counts as secret.
func secretPath(env *action.Env, dir, rel string) bool {
	p, perr := env.Paths.Resolve(filepath.Join(dir, filepath.FromSlash(rel)))
	return perr != nil || p.Sensitivity == facts.Secret
}

// diffData is diff_checkpoint's data.
type diffData struct {
	checkpointData
	Patches []filePatchOf `json:"patches"`
}

// filePatchOf is one file's unified diff, or why it is left out.
type filePatchOf struct {
	Path    string `json:"path"`
	Action  string `json:"action"`
	Patch   string `json:"patch,omitempty"`
	Omitted string `json:"omitted,omitempty"`
}

func init() {
	action.Register(action.Spec{
		Name:    "diff_checkpoint",
		NewArgs: func() any { return &diffCheckpointArgs{} },
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			return projectFacts(env, c, action.Args[diffCheckpointArgs](c).Project)
		},
		Run: diffCheckpoint,
	})
}

// diffCheckpoint returns what one checkpoint changed against the one
// before it, file by file.
func diffCheckpoint(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[diffCheckpointArgs](c)
	_, proj, perr := repositoryFolder(env, c, a.Project)
	if perr != nil {
		return nil, perr
	}
	budget := min(c.Limit("max_bytes"), int64(c.ResponseBudget(diffData{})/2))
	cp, patches, err := project.Diff(ctx, proj.Canonical, a.Checkpoint, budget)
	if err != nil {
		return nil, errmap.Project(err)
	}
	d := diffData{checkpointData: checkpointOf(cp), Patches: make([]filePatchOf, len(patches))}
	for i, p := range patches {
		d.Patches[i] = filePatchOf{Path: p.Path, Action: p.Action, Patch: p.Patch, Omitted: p.Omitted}
		if secretPath(env, proj.Canonical, p.Path) {
			d.Patches[i].Patch, d.Patches[i].Omitted = "", "secret"
		}
	}
	c.Detail = map[string]any{"files": len(patches)}
	return d, nil
}
