package desktop

import (
	"context"
	"slices"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/launch"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

type openProjectArgs struct {
	action.PathArgs // path: required, absolute; the project folder
	// Editor names an editor of the configuration's editors; without it,
	// the first (by name) whose program is installed.
	Editor string `json:"editor"`
}

func init() {
	action.Register(action.Spec{
		Name:    "open_project",
		Rules:   []action.Rule{action.Absolute("path")},
		NewArgs: func() any { return &openProjectArgs{} },
		Facts:   openProjectFacts,
		Run:     openProject,
	})
}

// openProjectFacts resolves the folder and, when no editor is named,
// chooses the one that will run, so that the policy judges it
// (input.request.arguments.editor).
func openProjectFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[openProjectArgs](c)
	if _, perr := c.Path(env, "target", a.Path); perr != nil {
		return perr
	}
	if a.Editor == "" {
		for _, e := range editorProfiles(env) {
			if e.Installed {
				a.Editor = e.Name
				break
			}
		}
	}
	return nil
}

// openProject runs the editor's command with the canonical folder as its
// last argument.
func openProject(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[openProjectArgs](c)
	p, perr := folderTarget(c)
	if perr != nil {
		return nil, perr
	}
	ed, ok := env.Config.Editors[a.Editor]
	if !ok {
		return nil, protocol.Errorf(protocol.AppNotFound, "No editor is configured and installed; add one under editors in the DeskBridge configuration.")
	}
	argv := append(slices.Clone(ed.Command), p.Canonical)
	l, err := launch.Result(desktop.Launch(ctx, argv, systemDirs(), 0))
	if err != nil {
		return nil, errmap.Desktop(err, "Opening the project")
	}
	return openedOf(openedData{Path: p.Canonical, Editor: a.Editor}, l), nil
}
