package policy

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Parts of the input document repeat from request to request: a host
// that reads the same file again sends the same arguments, and the facts
// of the same path (computed again for every request, never cached) come
// out the same while the file does not change. Document keeps the OPA
// values it built for the last such parts, keyed by what they were built
// from, and hands out the same term for an equal part: building one is
// most of a document's cost, and a decision from the memo then finds the
// part equal by identity (equalWithout). Only the representation is
// shared, which is a pure function of the key; OPA values are never
// changed once built (see emptyObject), and every decision still comes
// from the whole document.

// partsSize bounds how many parts of one kind a cache holds; a full cache
// starts again.
const partsSize = 256

// maxPartKey is the largest key, in bytes of text, a part is cached
// under: a part built from more (a file's content in the arguments, a
// long path) is built every time.
const maxPartKey = 2 << 10

// partCache maps keys to the terms built from them.
type partCache[K comparable] struct {
	mu sync.Mutex
	m  map[K]*ast.Term
}

// get returns the term built from k, or nil.
func (c *partCache[K]) get(k K) *ast.Term {
	c.mu.Lock()
	t := c.m[k]
	c.mu.Unlock()
	return t
}

// put remembers t as the term built from k.
func (c *partCache[K]) put(k K, t *ast.Term) {
	c.mu.Lock()
	if c.m == nil || len(c.m) >= partsSize {
		c.m = make(map[K]*ast.Term)
	}
	c.m[k] = t
	c.mu.Unlock()
}

// argumentsKey is the key of an arguments value: the action (which names
// the digested members) and the arguments' JSON encoding.
type argumentsKey struct{ action, json string }

// pathEntry is one member of input.paths.
type pathEntry struct {
	role Role
	path Path
}

// pathsKey is the key of an input.paths of at most two members, in the
// order of their roles (b is zero for one member).
type pathsKey struct{ a, b pathEntry }

// Caches of input parts (see above).
var (
	argumentParts partCache[argumentsKey]
	pathParts     partCache[pathsKey]
	nameParts     partCache[string]
)

// nameTerm is s as a term, for the members of input.request that repeat
// in every request of a host (its action, skill, origin and channel):
// OPA's interned term when there is one, else the one made before.
func nameTerm(s string) *ast.Term {
	if ast.HasInternedValue(s) {
		return ast.InternedTerm(s)
	}
	if len(s) > maxPartKey {
		return ast.StringTerm(s)
	}
	if t := nameParts.get(s); t != nil {
		return t
	}
	t := ast.StringTerm(s)
	nameParts.put(s, t)
	return t
}

// pathsTerm is paths as a term: the one built before from equal paths
// when there is one.
func pathsTerm(paths map[Role]Path) *ast.Term {
	k, ok := pathsKeyOf(paths)
	if !ok {
		return ast.NewTerm(pathsValue(paths))
	}
	if t := pathParts.get(k); t != nil {
		return t
	}
	t := ast.NewTerm(pathsValue(paths))
	pathParts.put(k, t)
	return t
}

// pathsKeyOf is the key of paths; ok is false for paths not cached: more
// than two members, or too long.
func pathsKeyOf(paths map[Role]Path) (k pathsKey, ok bool) {
	if len(paths) > 2 {
		return k, false
	}
	n := 0
	for role, p := range paths {
		e := pathEntry{role, p}
		n += len(role) + len(p.Input) + len(p.Canonical) + len(p.Workspace) + len(p.WorkspaceRoot) +
			len(p.Relative) + len(p.Type) + len(p.Sensitivity) + len(p.Modified)
		switch {
		case k.a.role == "":
			k.a = e
		case role < k.a.role:
			k.a, k.b = e, k.a
		default:
			k.b = e
		}
	}
	return k, n <= maxPartKey
}

// argumentsTerm is the request's decoded arguments as a term, with
// digests: the one built before from equal arguments of the same action
// when there is one.
func argumentsTerm(r *Request) (*ast.Term, error) {
	if r.Arguments == nil {
		return ast.NewTerm(ast.NewObject()), nil
	}
	b, err := marshalArguments(r.Arguments)
	if err != nil {
		return nil, err
	}
	if len(b) > maxPartKey || len(r.Digest) > 0 {
		// Too long to keep, or carrying what the document holds only as
		// a digest (a file's content, the clipboard's text): the key
		// would keep it in memory after the request.
		v, err := objectValueOf(b, digestsOf(r.Action, r.Digest))
		if err != nil {
			return nil, err
		}
		return ast.NewTerm(v), nil
	}
	k := argumentsKey{r.Action, string(b)}
	if t := argumentParts.get(k); t != nil {
		return t, nil
	}
	v, err := objectValueOf(b, digestsOf(r.Action, r.Digest))
	if err != nil {
		return nil, err
	}
	t := ast.NewTerm(v)
	argumentParts.put(k, t)
	return t, nil
}
