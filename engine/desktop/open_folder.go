package desktop

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/launch"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

type openFolderArgs struct {
	action.PathArgs // path: required, absolute
}

// openedData is the data of open_folder, open_project and open_app.
type openedData struct {
	Path   string `json:"path,omitempty"`
	App    string `json:"app,omitempty"`
	Editor string `json:"editor,omitempty"`
	// Opened is set only when the launcher exited with status 0; Pending
	// and Launcher say that the launcher was still running after its
	// wait, which tells nothing yet (launch.Launched).
	Opened   bool   `json:"opened"`
	Pending  bool   `json:"pending,omitzero"`
	Launcher string `json:"launcher,omitzero"`
}

// openedOf is data with what the launcher said.
func openedOf(d openedData, l launch.Launched) openedData {
	d.Opened, d.Pending, d.Launcher = l.Opened, l.Pending, l.Launcher
	return d
}

func init() {
	action.Register(action.Spec{
		Name:    "open_folder",
		Rules:   []action.Rule{action.Absolute("path")},
		NewArgs: func() any { return &openFolderArgs{} },
		Facts:   action.TargetPath(func(a any) string { return a.(*openFolderArgs).Path }),
		Run:     openFolder,
	})
}

// openFolder hands the canonical folder the policy judged to the file
// manager and waits for the opener's status, which the answer reports
// (launch.Launched).
func openFolder(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	p, perr := folderTarget(c)
	if perr != nil {
		return nil, perr
	}
	l, err := launch.Result(desktop.OpenFolder(ctx, p.Canonical, systemDirs()))
	if err != nil {
		return nil, errmap.Desktop(err, "Opening the folder")
	}
	return openedOf(openedData{Path: p.Canonical}, l), nil
}

// folderTarget is the call's target, which must be an existing folder
// inside a workspace.
func folderTarget(c *action.Call) (facts.Path, *protocol.Error) {
	p := c.Paths["target"]
	switch {
	case !p.Inside:
		return p, protocol.Errorf(protocol.WorkspaceViolation, "The folder is outside the allowed workspace.")
	case !p.Exists:
		return p, protocol.Errorf(protocol.FileNotFound, "The folder does not exist.")
	case p.Type != facts.TypeFolder:
		return p, protocol.Errorf(protocol.InvalidRequest, "The path is a %s, not a folder.", p.Type)
	}
	return p, nil
}
