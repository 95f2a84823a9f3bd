package projects

import (
	"context"
	"sort"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

// listProjectsArgs are list_projects' arguments.
type listProjectsArgs struct {
	// Workspace, when given, is the one configured workspace's name whose
	// projects are listed.
	Workspace string `json:"workspace" jsonschema:"maxLength=200"`
}

func (a *listProjectsArgs) Validate() error { return nil }

// projectsData is list_projects' data: the configured workspaces, each
// with the registered projects whose folder still lies in it.
type projectsData struct {
	Workspaces []workspaceProjects `json:"workspaces"`
}

// workspaceProjects is one workspace and its projects.
type workspaceProjects struct {
	Name     string        `json:"name"`
	Path     string        `json:"path"`
	Projects []projectItem `json:"projects"`
}

// projectItem is one registered project.
type projectItem struct {
	ProjectID      string          `json:"project_id"`
	Name           string          `json:"name"`
	Path           string          `json:"path"`
	Template       string          `json:"template"`
	Description    string          `json:"description,omitempty"`
	Git            bool            `json:"git"`
	LastCheckpoint *lastCheckpoint `json:"last_checkpoint,omitempty"`
}

// lastCheckpoint is a project's newest checkpoint.
type lastCheckpoint struct {
	ID      string `json:"id"`
	Message string `json:"message"`
	Time    string `json:"time"`
}

func init() {
	action.Register(action.Spec{
		Name:    "list_projects",
		NewArgs: func() any { return &listProjectsArgs{} },
		Run:     listProjects,
	})
}

// listProjects lists the registry's projects by configured workspace; a
// project whose folder is gone, or no longer in a configured workspace,
// is left out.
func listProjects(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[listProjectsArgs](c)
	entries, err := project.OpenRegistry(env.Config.StateFolder()).List()
	if err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err, "The project registry in the state folder could not be read; check that folder's permissions.")
	}
	d := projectsData{Workspaces: []workspaceProjects{}}
	for _, ws := range env.Config.Workspaces {
		if a.Workspace == "" || a.Workspace == ws.Name {
			d.Workspaces = append(d.Workspaces, workspaceProjects{Name: ws.Name, Path: ws.Path, Projects: projectsIn(env, ws.Path, entries)})
		}
	}
	if len(d.Workspaces) == 0 {
		return nil, protocol.Errorf(protocol.InvalidRequest, "No workspace is named %q; see get_status for the workspaces.", a.Workspace)
	}
	c.Detail = map[string]any{"projects": len(entries)}
	return d, nil
}

// projectsIn returns the entries whose folder, resolved now, is an
// existing folder in the workspace root, sorted by name.
func projectsIn(env *action.Env, root string, entries []project.Entry) []projectItem {
	out := []projectItem{}
	for _, e := range entries {
		p, perr := env.Paths.Resolve(e.Path)
		if perr != nil || !p.Inside || p.WorkspaceRoot != root || p.Canonical != e.Path || !p.Exists {
			continue
		}
		it := projectItem{ProjectID: e.ID, Name: e.Name, Path: e.Path, Template: e.Template, Description: e.Description, Git: e.Git}
		if cp, ok := project.Last(e.Path); ok {
			it.LastCheckpoint = &lastCheckpoint{ID: cp.ID, Message: cp.Message, Time: cp.Time.UTC().Format(time.RFC3339)}
		}
		out = append(out, it)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
