package projects

import (
	"context"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

// listCheckpointsArgs are list_checkpoints' arguments.
type listCheckpointsArgs struct {
	// Project is the project_id, or the project folder's absolute path.
	Project string `json:"project" jsonschema:"required,minLength=1"`
	// Limit caps the checkpoints listed, newest first (default 50).
	Limit int `json:"limit" jsonschema:"minimum=1,maximum=500"`
}

func (a *listCheckpointsArgs) Validate() error { return nil }

// checkpointsData is list_checkpoints' data.
type checkpointsData struct {
	ProjectID   string           `json:"project_id"`
	Path        string           `json:"path"`
	Checkpoints []checkpointData `json:"checkpoints"`
}

// checkpointData is one checkpoint: a commit on the project's branch.
type checkpointData struct {
	ID         string         `json:"id"`
	Message    string         `json:"message"`
	Time       string         `json:"time"`
	Files      []fileChangeOf `json:"files"`
	FilesTotal int            `json:"files_total"`
}

// fileChangeOf is one file a checkpoint changed.
type fileChangeOf struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

func init() {
	action.Register(action.Spec{
		Name:    "list_checkpoints",
		NewArgs: func() any { return &listCheckpointsArgs{} },
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			return projectFacts(env, c, action.Args[listCheckpointsArgs](c).Project)
		},
		Run: listCheckpoints,
	})
}

// projectFacts finds the project key names in the registry and resolves
// its folder as the path "project".
func projectFacts(env *action.Env, c *action.Call, key string) *protocol.Error {
	e, perr := lookupProject(env, key)
	if perr != nil {
		return perr
	}
	_, perr = c.Path(env, "project", e.Path)
	return perr
}

// repositoryFolder returns the project of key and its folder fact once
// the folder is checked to be the registered one, reached the same way
// by the workspace's root handle and by its path (go-git reads by path).
func repositoryFolder(env *action.Env, c *action.Call, key string) (project.Entry, facts.Path, *protocol.Error) {
	e, perr := lookupProject(env, key)
	if perr != nil {
		return e, facts.Path{}, perr
	}
	proj := c.Paths["project"]
	if proj.Canonical != e.Path || !proj.Exists || proj.Type != facts.TypeFolder {
		return e, proj, protocol.Errorf(protocol.ProjectPathInvalid, "The project folder %s is gone or changed since it was registered.", e.Path)
	}
	root, perr := env.Root(proj)
	if perr != nil {
		return e, proj, perr
	}
	if err := project.CheckFolder(root, proj.Rel(), proj.Canonical); err != nil {
		return e, proj, errmap.Project(err)
	}
	if !project.IsRepository(proj.Canonical) {
		return e, proj, errmap.Project(project.ErrNotRepository)
	}
	return e, proj, nil
}

// listCheckpoints lists the project's checkpoints, newest first.
func listCheckpoints(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[listCheckpointsArgs](c)
	e, proj, perr := repositoryFolder(env, c, a.Project)
	if perr != nil {
		return nil, perr
	}
	limit := a.Limit
	if limit == 0 {
		limit = 50
	}
	cps, err := project.Checkpoints(proj.Canonical, limit)
	if err != nil {
		return nil, errmap.Project(err)
	}
	d := checkpointsData{ProjectID: e.ID, Path: e.Path, Checkpoints: make([]checkpointData, len(cps))}
	for i, cp := range cps {
		d.Checkpoints[i] = checkpointOf(cp)
	}
	c.Detail = map[string]any{"checkpoints": len(cps)}
	return d, nil
}

// checkpointOf is cp on the wire.
func checkpointOf(cp project.Checkpoint) checkpointData {
	d := checkpointData{ID: cp.ID, Message: cp.Message, Time: cp.Time.UTC().Format(time.RFC3339), FilesTotal: cp.FilesTotal, Files: make([]fileChangeOf, len(cp.Files))}
	for i, f := range cp.Files {
		d.Files[i] = fileChangeOf{Path: f.Path, Action: f.Action}
	}
	return d
}
