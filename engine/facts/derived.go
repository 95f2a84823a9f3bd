package facts

import (
	"sync"

	"github.com/deskbridge/deskbridge/internal/pathform"
	"github.com/deskbridge/deskbridge/protocol"
)

// A path's facts come in two kinds. What the file system says (does the
// path lead through a symlink, what is there, how large, since when) is
// read again for every request, never kept. What its text says (the clean
// form of the argument; for the canonical path, the workspace it lies in,
// its class and whether the host protects it) is a function of the text
// and of the configuration alone, and a host asked about the same path
// again takes it from derivedCache instead of parsing and classifying it
// again.

// derivedSize bounds the paths a derivedCache holds; a full cache starts
// again.
const derivedSize = 256

// maxDerivedKey is the longest path a derivedCache keeps.
const maxDerivedKey = 1 << 10

// derived is what the text of a canonical path says about it.
type derived struct {
	relative, workspace, workspaceRoot string
	inside, protected                  bool
	sensitivity                        string
}

// derivedCache maps path text to what it says: an argument to its clean
// form, a canonical path to its derived facts.
type derivedCache struct {
	mu    sync.Mutex
	clean map[string]string
	facts map[string]derived
}

// cleanOf is ParseAbsolute(raw), from the cache when raw was parsed
// before.
func (r *Resolver) cleanOf(raw string) (string, *protocol.Error) {
	c := &r.derived
	c.mu.Lock()
	clean, ok := c.clean[raw]
	c.mu.Unlock()
	if ok {
		return clean, nil
	}
	clean, perr := ParseAbsolute(raw)
	if perr != nil || len(raw) > maxDerivedKey {
		return clean, perr
	}
	c.mu.Lock()
	if c.clean == nil || len(c.clean) >= derivedSize {
		c.clean = make(map[string]string)
	}
	c.clean[raw] = clean
	c.mu.Unlock()
	return clean, nil
}

// derive fills p's workspace members, class and protection from its
// canonical path, from the cache when that path was seen before.
func (r *Resolver) derive(p *Path) *protocol.Error {
	c := &r.derived
	c.mu.Lock()
	d, ok := c.facts[p.Canonical]
	c.mu.Unlock()
	if !ok {
		cp, err := pathform.Parse(pathform.Native, p.Canonical)
		if err != nil {
			return protocol.Wrap(protocol.WorkspaceViolation, err, "The path leads through a link to a name this host does not accept; use a direct path inside the workspace.")
		}
		d = r.deriveOf(cp, p.Canonical)
		if len(p.Canonical) <= maxDerivedKey {
			c.mu.Lock()
			if c.facts == nil || len(c.facts) >= derivedSize {
				c.facts = make(map[string]derived)
			}
			c.facts[p.Canonical] = d
			c.mu.Unlock()
		}
	}
	p.Relative, p.Inside, p.Workspace, p.WorkspaceRoot = d.relative, d.inside, d.workspace, d.workspaceRoot
	p.Sensitivity, p.Protected = d.sensitivity, d.protected
	return nil
}

// deriveOf computes what the canonical path cp (canonical as text) says.
func (r *Resolver) deriveOf(cp pathform.Path, canonical string) derived {
	var p Path
	r.place(&p, cp)
	return derived{relative: p.Relative, workspace: p.Workspace, workspaceRoot: p.WorkspaceRoot, inside: p.Inside,
		protected: r.isProtected(cp), sensitivity: r.classifier.Classify(canonical)}
}
