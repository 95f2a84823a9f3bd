package files

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

type createFileArgs struct {
	action.PathArgs
	Content       string `json:"content"`
	Encoding      string `json:"encoding" jsonschema:"enum=utf-8,enum=base64"`
	CreateParents bool   `json:"create_parents"`
}

func init() {
	action.Register(action.Spec{
		Name:    "create_file",
		Rules:   []action.Rule{action.Absolute("path")},
		NewArgs: func() any { return &createFileArgs{} },
		Digest:  []string{"content"},
		Facts: writePath(func(a any) (string, string, string) {
			w := a.(*createFileArgs)
			return w.Path, w.Content, w.Encoding
		}),
		Run: createFile,
	})
}

// createFile writes a new file and never overwrites: FILE_ALREADY_EXISTS
// when anything exists at the path.
func createFile(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[createFileArgs](c)
	if c.Paths["target"].Exists {
		return nil, protocol.Errorf(protocol.FileAlreadyExists, "Something already exists at that path; choose another name or use write_file to replace a file.")
	}
	return write(env, c, a.Content, a.Encoding, sandbox.WriteOptions{CreateParents: a.CreateParents, Exclusive: true})
}
