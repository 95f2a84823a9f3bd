package policy

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// evalCaches are the virtual-document and base-document caches of one
// evaluation. OPA's own caches are tries of hash maps, built afresh for
// every evaluation (about a fifth of a decision's allocations); a decision
// caches a few dozen refs, which a flat list scans faster than a trie is
// built. They are reset and pooled between evaluations: nothing survives
// from one decision to the next (this is not a decision cache).
type evalCaches struct {
	virtual virtualCache
	base    baseCache
}

var cachePool = sync.Pool{New: func() any { return &evalCaches{} }}

// Largest caches kept in the pool; an unusual policy that caches more is
// left to the garbage collector rather than pinned.
const (
	maxPooledEntries = 1024
	maxPooledTerms   = 8192
)

// getCaches returns empty caches for one evaluation.
func getCaches() *evalCaches {
	c := cachePool.Get().(*evalCaches)
	c.virtual.reset()
	return c
}

// putCaches empties c and returns it to the pool.
func putCaches(c *evalCaches) {
	c.virtual.clear()
	c.base.clear()
	if cap(c.virtual.entries) > maxPooledEntries || cap(c.virtual.terms) > maxPooledTerms ||
		cap(c.base.entries) > maxPooledEntries || cap(c.base.terms) > maxPooledTerms {
		return
	}
	cachePool.Put(c)
}

// refArena keeps copies of the refs a cache is given: the evaluator may
// reuse a ref's backing array after the call (it passes slices of a
// ref it is still plugging). Copies share one growing array; a copy made
// before the array grew keeps the old one, which is never written again.
type refArena struct {
	terms []*ast.Term
}

func (a *refArena) copyRef(ref ast.Ref) ast.Ref {
	start := len(a.terms)
	a.terms = append(a.terms, ref...)
	return a.terms[start:len(a.terms):len(a.terms)]
}

func (a *refArena) clearTerms() {
	clear(a.terms)
	a.terms = a.terms[:0]
}

// virtualCache implements topdown.VirtualCache with the semantics of
// OPA's trie: a stack of frames, each mapping refs to a value or to
// "undefined"; Get and Put see the top frame only.
type virtualCache struct {
	refArena
	entries []virtualEntry
	frames  []int // the index in entries where each frame starts
}

type virtualEntry struct {
	ref       ast.Ref
	value     *ast.Term
	undefined bool
}

var _ topdown.VirtualCache = (*virtualCache)(nil)

// reset leaves one empty frame, as topdown.NewVirtualCache does.
func (c *virtualCache) reset() {
	c.clear()
	c.frames = append(c.frames, 0)
}

func (c *virtualCache) clear() {
	clear(c.entries)
	c.entries = c.entries[:0]
	c.frames = c.frames[:0]
	c.clearTerms()
}

// Push starts a new, empty frame.
func (c *virtualCache) Push() { c.frames = append(c.frames, len(c.entries)) }

// Pop drops the top frame and its entries.
func (c *virtualCache) Pop() {
	if len(c.frames) == 0 {
		return
	}
	start := c.frames[len(c.frames)-1]
	c.frames = c.frames[:len(c.frames)-1]
	clear(c.entries[start:])
	c.entries = c.entries[:start]
}

func (c *virtualCache) top() []virtualEntry {
	if len(c.frames) == 0 {
		return nil
	}
	return c.entries[c.frames[len(c.frames)-1]:]
}

func (c *virtualCache) find(ref ast.Ref) *virtualEntry {
	top := c.top()
	for i := len(top) - 1; i >= 0; i-- {
		if sameRef(top[i].ref, ref) {
			return &top[i]
		}
	}
	return nil
}

// Get returns the cached value of ref; (nil, true) when ref is cached as
// undefined, (nil, false) when it is not cached.
func (c *virtualCache) Get(ref ast.Ref) (*ast.Term, bool) {
	e := c.find(ref)
	if e == nil {
		return nil, false
	}
	if e.undefined {
		return nil, true
	}
	return e.value, false
}

// Put caches value for ref, or "undefined" when value is nil.
func (c *virtualCache) Put(ref ast.Ref, value *ast.Term) {
	if len(c.frames) == 0 {
		return
	}
	e := c.find(ref)
	if e == nil {
		c.entries = append(c.entries, virtualEntry{ref: c.copyRef(ref)})
		e = &c.entries[len(c.entries)-1]
	}
	if value != nil {
		e.value = value
	} else {
		e.undefined = true
	}
}

// Keys returns the refs of the top frame that have a value.
func (c *virtualCache) Keys() []ast.Ref {
	var keys []ast.Ref
	for _, e := range c.top() {
		if e.value != nil {
			keys = append(keys, e.ref.Copy())
		}
	}
	return keys
}

// baseCache implements topdown.BaseCache with the semantics of OPA's
// trie: a value put at a ref replaces any value below it, and a read
// is answered by the value at the shortest cached prefix of its ref.
type baseCache struct {
	refArena
	entries []baseEntry
}

type baseEntry struct {
	ref   ast.Ref
	value ast.Value
}

var _ topdown.BaseCache = (*baseCache)(nil)

func (c *baseCache) clear() {
	clear(c.entries)
	c.entries = c.entries[:0]
	c.clearTerms()
}

// Get returns the value at ref, or nil when no prefix of ref is cached.
func (c *baseCache) Get(ref ast.Ref) ast.Value {
	best := -1
	for i := range c.entries {
		r := c.entries[i].ref
		if len(r) <= len(ref) && (best < 0 || len(r) < len(c.entries[best].ref)) && sameRef(r, ref[:len(r)]) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	e := c.entries[best]
	if len(e.ref) == len(ref) {
		return e.value
	}
	v, err := e.value.Find(ref[len(e.ref):])
	if err != nil {
		return nil
	}
	return v
}

// Put caches value at ref and forgets every value at or below ref.
func (c *baseCache) Put(ref ast.Ref, value ast.Value) {
	kept := c.entries[:0]
	for _, e := range c.entries {
		if len(e.ref) >= len(ref) && sameRef(e.ref[:len(ref)], ref) {
			continue
		}
		kept = append(kept, e)
	}
	clear(c.entries[len(kept):])
	c.entries = append(kept, baseEntry{ref: c.copyRef(ref), value: value})
}

// sameRef reports whether a and b are the same ref, comparing the last
// (most distinguishing) term first.
func sameRef(a, b ast.Ref) bool {
	if len(a) != len(b) {
		return false
	}
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] && !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}
