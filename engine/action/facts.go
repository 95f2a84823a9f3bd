package action

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/urlfacts"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// The building blocks of the Facts functions that actions of several
// features share: one target path, a destination, input.write, a URL.

// PathArgs is embedded by every action whose target is one path.
type PathArgs struct {
	Path string `json:"path" jsonschema:"required,minLength=1"`
}

// TargetPath is the Facts function of single-path actions.
func TargetPath(get func(any) string) func(context.Context, *Env, *Call) *protocol.Error {
	return func(_ context.Context, env *Env, c *Call) *protocol.Error {
		_, err := c.Path(env, "target", get(c.Args))
		return err
	}
}

// WriteFacts records input.write for a file named name whose content
// starts with head (nil when it is not known yet).
func WriteFacts(c *Call, name string, head []byte) {
	ok, reason := facts.Executable(name, head)
	c.Write = &policy.Write{Executable: ok, Reason: reason}
}

// Destination resolves the destination argument into the "destination"
// path fact. An existing folder receives the file under name (the URL's or
// the source's last path element); a name that is not a plain file name is
// refused.
func Destination(env *Env, c *Call, raw, name string) *protocol.Error {
	p, perr := c.Path(env, "destination", raw)
	if perr != nil || !p.Exists || p.Type != facts.TypeFolder {
		return perr
	}
	if !plainName(name) {
		return protocol.Errorf(protocol.InvalidRequest, "The destination is a folder and no file name can be taken from the request; give the full destination file path.")
	}
	_, perr = c.Path(env, "destination", filepath.Join(p.Canonical, name))
	return perr
}

// DestinationWrite is Destination, then input.write for the file the
// destination names (its content is not known before the policy decides).
func DestinationWrite(env *Env, c *Call, raw, name string) *protocol.Error {
	if perr := Destination(env, c, raw, name); perr != nil {
		return perr
	}
	WriteFacts(c, c.Paths["destination"].Canonical, nil)
	return nil
}

// plainName reports whether name is one file name: not empty, not a dot
// name, without separators or control characters.
func plainName(name string) bool {
	if name == "" || name == "." || name == ".." || len(name) > 255 {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return r < ' ' || r == 0x7f || r == '/' || r == '\\' || r == ':'
	})
}

// URLFacts is the Facts step of URL actions: it parses the url argument
// and records input.url (docs/policy-input.md, ## url) without resolving
// its host: a name is looked up only after a first decision allowed the
// request (the engine's second step, "Two decisions"). A URL that does
// not parse never reaches the policy.
func URLFacts(_ context.Context, c *Call, raw string) (urlfacts.Facts, *protocol.Error) {
	u, err := urlfacts.Parse(raw)
	if err != nil {
		return urlfacts.Facts{}, errmap.URL(err)
	}
	f := u.NameFacts()
	c.URL = &f
	return f, nil
}

// CheckedURL returns the URL facts the policy judged, the addresses
// included; it panics when they are not resolved, which the engine's
// second decision guarantees for every call it runs (a panic is
// INTERNAL_ERROR, never an unchecked connection).
func CheckedURL(c *Call) urlfacts.Facts {
	if c.URL == nil || !urlfacts.Resolved(*c.URL) {
		panic("actions: a URL action runs without the addresses its second decision judged")
	}
	return *c.URL
}

// Locate places a path argument of a command with the same resolver as
// path arguments of every other action, sensitivity included; one that
// cannot be resolved lies in no workspace.
func Locate(r *facts.Resolver) cmdfacts.Locate {
	return func(abs string) cmdfacts.Place {
		p, err := r.Resolve(abs)
		if err != nil {
			return cmdfacts.Place{Canonical: abs}
		}
		return cmdfacts.Place{Canonical: p.Canonical, Workspace: p.Workspace, Inside: p.Inside, Sensitivity: p.Sensitivity, Exists: p.Exists}
	}
}
