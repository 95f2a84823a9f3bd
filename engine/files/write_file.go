package files

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

type writeFileArgs struct {
	action.PathArgs
	Content       *string `json:"content" jsonschema:"required"`
	Encoding      string  `json:"encoding" jsonschema:"enum=utf-8,enum=base64"`
	CreateParents bool    `json:"create_parents"`
	expectedArgs
}

func (a *writeFileArgs) Validate() error { return a.validExpected() }

// writeData is write_file's and create_file's data.
type writeData struct {
	Path    string `json:"path"`
	Size    int    `json:"size"`
	Created bool   `json:"created"`
}

func init() {
	action.Register(action.Spec{
		Name:    "write_file",
		Rules:   []action.Rule{action.Absolute("path")},
		NewArgs: func() any { return &writeFileArgs{} },
		Digest:  []string{"content"},
		Facts: writePath(func(a any) (string, string, string) {
			w := a.(*writeFileArgs)
			return w.Path, deref(w.Content), w.Encoding
		}),
		Run: writeFile,
	})
}

func writeFile(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[writeFileArgs](c)
	return write(env, c, *a.Content, a.Encoding, sandbox.WriteOptions{CreateParents: a.CreateParents, ExpectedSHA256: a.expected()})
}

// write is the executor step shared by write_file and create_file.
func write(env *action.Env, c *action.Call, content, enc string, o sandbox.WriteOptions) (any, *protocol.Error) {
	p := c.Paths["target"]
	root, perr := env.WritableRoot(p)
	if perr != nil {
		return nil, perr
	}
	data, perr := textenc.Decode(content, enc)
	if perr != nil {
		return nil, perr
	}
	if max := c.Limit("max_bytes"); int64(len(data)) > max {
		return nil, protocol.Errorf(protocol.InvalidRequest, "The content is larger than this action's limit of %d bytes; write a smaller file.", max)
	}
	created, err := sandbox.WriteAtomic(root, p.Rel(), data, o)
	if err != nil {
		return nil, errmap.File(err)
	}
	return writeData{Path: p.Canonical, Size: len(data), Created: created}, nil
}
