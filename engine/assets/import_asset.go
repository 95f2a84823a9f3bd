package assets

import (
	"context"
	"path/filepath"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/internal/pathform"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

type importArgs struct {
	Source      string `json:"source" jsonschema:"required,minLength=1"`
	Destination string `json:"destination" jsonschema:"required,minLength=1"`
	Overwrite   bool   `json:"overwrite"`
}

// importFact is input.import: the configured import source that contains
// the canonical source path, if any.
type importFact = policy.Import

// importData is import_asset's data.
type importData struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	SHA256  string `json:"sha256"`
	Created bool   `json:"created"`
}

func init() {
	action.Register(action.Spec{
		Name:    "import_asset",
		Rules:   []action.Rule{action.Absolute("source", "destination")},
		NewArgs: func() any { return &importArgs{} },
		Facts:   importFacts,
		Run:     importAsset,
	})
}

// importFacts records the source (role "source", with input.import naming
// the import source that contains it) and the destination path facts; an
// existing destination folder receives the file under the source's name.
func importFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[importArgs](c)
	src, perr := c.Path(env, "source", a.Source)
	if perr != nil {
		return perr
	}
	imp := importSourceOf(env.Config.ImportSources, src.Canonical)
	c.Import = &imp
	return action.DestinationWrite(env, c, a.Destination, filepath.Base(src.Canonical))
}

// importSourceOf returns the deepest import source containing canonical.
func importSourceOf(sources []string, canonical string) importFact {
	p, err := pathform.Parse(pathform.Native, canonical)
	if err != nil {
		return importFact{}
	}
	var best importFact
	for _, s := range sources {
		root, err := pathform.Parse(pathform.Native, s)
		if err != nil {
			continue
		}
		if rel, ok := within(root, p); ok && len(s) > len(best.Source) {
			best = importFact{Source: s, Relative: rel, Inside: true}
		}
	}
	return best
}

func within(root, p pathform.Path) (string, bool) {
	if facts.FoldCase {
		return pathform.WithinFold(root, p)
	}
	return pathform.Within(root, p)
}

// importAsset copies the source through a root handle of its import
// source into the destination through the workspace's root handle.
func importAsset(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[importArgs](c)
	imp := *c.Import
	if !imp.Inside || imp.Relative == "." { // never, whatever the policy says
		return nil, errmap.ImportDenied()
	}
	dst := c.Paths["destination"]
	dstRoot, perr := env.WritableRoot(dst)
	if perr != nil {
		return nil, perr
	}
	srcRoot, err := env.Roots.Open(imp.Source)
	if err != nil {
		return nil, errmap.File(err)
	}
	max := c.Limit("max_bytes")
	done, err := sandbox.Copy(srcRoot, filepath.FromSlash(imp.Relative), dstRoot, dst.Rel(), sandbox.CopyOptions{MaxBytes: max, Overwrite: a.Overwrite})
	if err != nil {
		return nil, errmap.Copy(err, max)
	}
	return importData{Path: dst.Canonical, Size: done.Size, SHA256: done.SHA256, Created: done.Created}, nil
}
