package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/patch"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

type patchFileArgs struct {
	action.PathArgs
	Edits  []patch.Edit `json:"edits" jsonschema:"required,minItems=1,maxItems=100"`
	DryRun bool         `json:"dry_run"`
	expectedArgs
}

func (a *patchFileArgs) Validate() error { return a.validExpected() }

// patchData is patch_file's data.
type patchData struct {
	Path       string           `json:"path"`
	Applied    int              `json:"applied"`
	DryRun     bool             `json:"dry_run"`
	Size       int              `json:"size"`
	LineEnding patch.LineEnding `json:"line_ending"`
	Diff       string           `json:"diff"`
}

func init() {
	action.Register(action.Spec{
		Name:    "patch_file",
		Rules:   []action.Rule{action.Absolute("path")},
		NewArgs: func() any { return &patchFileArgs{} },
		Digest:  []string{"edits[].old_text", "edits[].new_text"},
		Facts: func(ctx context.Context, env *action.Env, c *action.Call) *protocol.Error {
			a := action.Args[patchFileArgs](c)
			if _, err := c.Path(env, "target", a.Path); err != nil {
				return err
			}
			action.WriteFacts(c, a.Path, nil) // the patched content is not known before the policy decides
			return nil
		},
		Run: patchFile,
	})
}

// patchFile applies every edit or none, with the file's own line ending,
// then writes atomically, unless the file changed since it was read here
// (or, with expected_sha256, since the caller read it).
func patchFile(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[patchFileArgs](c)
	p := c.Paths["target"]
	root, perr := env.WritableRoot(p)
	if perr != nil {
		return nil, perr
	}
	max := c.Limit("max_bytes")
	old, size, err := sandbox.ReadAt(root, p.Rel(), 0, max+1)
	switch {
	case err != nil:
		return nil, errmap.File(err)
	case size > max:
		return nil, protocol.Errorf(protocol.InvalidRequest, "The file is larger than patch_file's limit of %d bytes; use write_file instead.", max)
	case !utf8.Valid(old):
		return nil, protocol.Errorf(protocol.InvalidRequest, "The file is not UTF-8 text, so it cannot be patched; use write_file with base64.")
	}
	sum := sha256.Sum256(old)
	if want := a.expected(); want != nil && !bytes.Equal(want, sum[:]) {
		return nil, errmap.Changed()
	}
	updated, le, perr := patch.File(string(old), a.Edits)
	if perr != nil {
		return nil, perr
	}
	d := patchData{Path: p.Canonical, Applied: len(a.Edits), DryRun: a.DryRun, Size: len(updated), LineEnding: le}
	d.Diff = patch.Diff(p.Canonical, string(old), updated)
	if !a.DryRun {
		if _, err := sandbox.WriteAtomic(root, p.Rel(), []byte(updated), sandbox.WriteOptions{ExpectedSHA256: sum[:]}); err != nil {
			return nil, errmap.File(err)
		}
	}
	if c.ResponseBudget(d) < 0 {
		d.Diff = "(the diff is too large for one message; read the file to see the result)"
	}
	return d, nil
}
