package actions

import (
	"context"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/urlfacts"
	"github.com/deskbridge/deskbridge/protocol"
)

// urlFacts is the Facts step of URL actions: it parses the url argument
// and records input.url (docs/policy-input.md, ## url) without resolving
// its host: a name is looked up only after a first decision allowed the
// request (the engine's second step, "Two decisions"). A URL that does
// not parse never reaches the policy.
func urlFacts(_ context.Context, c *action.Call, raw string) (urlfacts.Facts, *protocol.Error) {
	u, err := urlfacts.Parse(raw)
	if err != nil {
		return urlfacts.Facts{}, errmap.URL(err)
	}
	f := u.NameFacts()
	c.URL = &f
	return f, nil
}

// checkedURL returns the URL facts the policy judged, the addresses
// included; it panics when they are not resolved, which the engine's
// second decision guarantees for every call it runs (a panic is
// INTERNAL_ERROR, never an unchecked connection).
func checkedURL(c *action.Call) urlfacts.Facts {
	if c.URL == nil || !urlfacts.Resolved(*c.URL) {
		panic("actions: a URL action runs without the addresses its second decision judged")
	}
	return *c.URL
}

// destination resolves the destination argument into the "destination"
// path fact. An existing folder receives the file under name (the URL's or
// the source's last path element); a name that is not a plain file name is
// refused.
func destination(env *action.Env, c *action.Call, raw, name string) *protocol.Error {
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

// destinationWrite is destination, then input.write for the file the
// destination names (its content is not known before the policy decides).
func destinationWrite(env *action.Env, c *action.Call, raw, name string) *protocol.Error {
	if perr := destination(env, c, raw, name); perr != nil {
		return perr
	}
	writeFacts(c, c.Paths["destination"].Canonical, nil)
	return nil
}

// urlName returns the last element of an escaped URL path, unescaped.
func urlName(escapedPath string) string {
	name, err := url.PathUnescape(path.Base(escapedPath))
	if err != nil {
		return ""
	}
	return name
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
