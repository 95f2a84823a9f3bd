package projects

import (
	"context"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

type createProjectArgs struct {
	// Name is the project folder's name (one plain name).
	Name string `json:"name" jsonschema:"required,minLength=1"`
	// Workspace is a configured workspace's name, or an absolute folder
	// inside a workspace, that the project folder is made in.
	Workspace string `json:"workspace" jsonschema:"required,minLength=1"`
	// Template is empty, static-web, node, python, go or a folder name in
	// the configuration's projects.templates; default empty.
	Template    string `json:"template" jsonschema:"maxLength=100"`
	Git         *bool  `json:"git"`
	Description string `json:"description" jsonschema:"maxLength=2000"`
}

func (a *createProjectArgs) Validate() error { return nil }

// createProjectData is create_project's data.
type createProjectData struct {
	ProjectID string   `json:"project_id"`
	Path      string   `json:"path"`
	Template  string   `json:"template"`
	Files     []string `json:"files"`
	Commit    string   `json:"commit,omitempty"`
	Branch    string   `json:"branch,omitempty"`
}

func init() {
	action.Register(action.Spec{
		Name:    "create_project",
		NewArgs: func() any { return &createProjectArgs{} },
		Facts:   createProjectFacts,
		Run:     createProject,
	})
}

// createProjectFacts checks the name and resolves the project folder into
// the target path fact.
func createProjectFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[createProjectArgs](c)
	if perr := projectNameError(a.Name); perr != nil {
		return perr
	}
	parent := workspaceFolder(env, a.Workspace)
	if !filepath.IsAbs(parent) {
		return protocol.Errorf(protocol.InvalidRequest, "The workspace %q is neither a configured workspace's name nor an absolute folder; see get_status for the workspaces.", a.Workspace)
	}
	_, perr := c.Path(env, "target", filepath.Join(parent, a.Name))
	return perr
}

// workspaceFolder returns the folder of the workspace named name, or name.
func workspaceFolder(env *action.Env, name string) string {
	for _, w := range env.Config.Workspaces {
		if w.Name == name {
			return w.Path
		}
	}
	return name
}

// createProject writes the template into the new folder, makes the first
// commit and registers the project.
func createProject(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[createProjectArgs](c)
	p := c.Paths["target"]
	if perr := projectPlaceError(p); perr != nil {
		return nil, perr
	}
	root, perr := env.WritableRoot(p)
	if perr != nil {
		return nil, perr
	}
	tmpl := a.Template
	if tmpl == "" {
		tmpl = "empty"
	}
	files, err := project.Template(env.Config.Projects.Templates, tmpl, map[string]string{"name": a.Name, "description": a.Description})
	if err != nil {
		return nil, errmap.Project(err)
	}
	if err := project.Create(root, p.Rel(), files); err != nil {
		return nil, errmap.Project(err)
	}
	e := project.Entry{ID: project.NewID(), Name: a.Name, Path: p.Canonical, Workspace: p.Workspace,
		Template: tmpl, Description: a.Description, Git: a.Git == nil || *a.Git, Created: time.Now().UTC()}
	d := createProjectData{ProjectID: e.ID, Path: p.Canonical, Template: tmpl, Files: filePaths(files)}
	if err := project.OpenRegistry(env.Config.StateFolder()).Put(e); err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err, "The project's files were written but it could not be registered in the state folder; check that folder's permissions.")
	}
	c.Detail = map[string]any{"files": len(files), "git": e.Git}
	if !e.Git {
		return d, nil
	}
	if err := project.CheckFolder(root, p.Rel(), p.Canonical); err != nil {
		return nil, errmap.ProjectGit(err)
	}
	h, err := project.Init(p.Canonical, d.Files, "Create "+a.Name+" from the "+tmpl+" template")
	if err != nil {
		return nil, errmap.ProjectGit(err)
	}
	d.Commit, d.Branch = h, "main"
	return d, nil
}

// filePaths lists the files' paths, slash-separated.
func filePaths(files []project.File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = path.Clean(strings.ReplaceAll(f.Path, `\`, "/"))
	}
	return out
}
