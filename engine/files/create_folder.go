package files

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

type createFolderArgs struct {
	action.PathArgs
	Parents bool `json:"parents"`
}

// folderData is create_folder's data.
type folderData struct {
	Path    string `json:"path"`
	Created bool   `json:"created"`
}

func init() {
	action.Register(action.Spec{
		Name:    "create_folder",
		Rules:   []action.Rule{action.Absolute("path")},
		NewArgs: func() any { return &createFolderArgs{} },
		Facts:   action.TargetPath(func(a any) string { return a.(*createFolderArgs).Path }),
		Run:     createFolder,
	})
}

func createFolder(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[createFolderArgs](c)
	p := c.Paths["target"]
	root, perr := env.WritableRoot(p)
	if perr != nil {
		return nil, perr
	}
	created, err := sandbox.Mkdir(root, p.Rel(), a.Parents)
	if err != nil {
		return nil, errmap.File(err)
	}
	return folderData{Path: p.Canonical, Created: created}, nil
}
