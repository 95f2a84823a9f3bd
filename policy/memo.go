package policy

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A decision depends only on its input, the policy and the configuration
// (Capabilities leaves no builtin that reads the clock, files, the network or a
// random source), so an Engine may answer an input equal to one it has
// decided with the decision it made then. Every request's input differs
// from every other's in two members, the time and the request id; when no
// rule can read either (ReadsInput), the memo compares inputs without
// them, and a host that reads the same file twice decides once.
//
// The memo is off for a policy set that prints (a hit would print
// nothing) and for one that reads the time or the request id (no two
// inputs would be equal). Inputs are compared whole, so a hash collision
// costs an evaluation, never a wrong decision.

// memoSize bounds the decisions a memo holds; a full memo starts again.
const memoSize = 1024

// Input members that differ in every request.
var (
	memoTimeKey    = ast.StringTerm("time_ns")
	memoRequestKey = ast.StringTerm("request")
	memoIDKey      = ast.StringTerm("id")
)

// memo remembers an Engine's decisions by input, less the time and the
// request id.
type memo struct {
	mu      sync.Mutex
	entries map[uint64]memoEntry
}

type memoEntry struct {
	input ast.Value
	dec   Decision
}

// newMemo returns the memo for e's policy set, or nil when it must not
// have one.
func newMemo(e *Engine) *memo {
	if prints(e.q.c.compiler) || e.ReadsInput("/input/time_ns") || e.ReadsInput("/input/request/id") {
		return nil
	}
	return &memo{entries: make(map[uint64]memoEntry)}
}

// prints reports whether some rule of c calls print.
func prints(c *ast.Compiler) bool {
	found := false
	for _, m := range c.Modules {
		ast.WalkExprs(m, func(x *ast.Expr) bool {
			if op := x.Operator(); op != nil && (op.Equal(ast.InternalPrint.Ref()) || op.Equal(ast.Print.Ref())) {
				found = true
			}
			return found
		})
		if found {
			return true
		}
	}
	return false
}

// get returns the decision remembered for an input equal to input, less
// the time and the request id.
func (m *memo) get(input ast.Value) (Decision, bool) {
	h, ok := memoHash(input)
	if !ok {
		return Decision{}, false
	}
	m.mu.Lock()
	e, ok := m.entries[h]
	m.mu.Unlock()
	if !ok || !memoEqual(e.input, input) {
		return Decision{}, false
	}
	return e.dec, true
}

// put remembers dec as the decision of input. The input and the decision
// are kept as they are: neither is changed after a decision.
func (m *memo) put(input ast.Value, dec Decision) {
	h, ok := memoHash(input)
	if !ok {
		return
	}
	m.mu.Lock()
	if len(m.entries) >= memoSize {
		clear(m.entries)
	}
	m.entries[h] = memoEntry{input: input, dec: dec}
	m.mu.Unlock()
}

// memoHash hashes an input object without its time and its request's id;
// ok is false for an input that is not an object.
func memoHash(input ast.Value) (h uint64, ok bool) {
	if _, ok := input.(ast.Object); !ok {
		return 0, false
	}
	return hashWithout(input, memoTimeKey, memoRequestKey, memoIDKey), true
}

// hashWithout hashes object v without its member skip, and its member
// nested (when not nil) without that member's own member nestedSkip; a v
// that is not an object hashes as itself.
func hashWithout(v ast.Value, skip, nested, nestedSkip *ast.Term) uint64 {
	obj, ok := v.(ast.Object)
	if !ok {
		return uint64(v.Hash())
	}
	var h uint64
	obj.Foreach(func(k, x *ast.Term) {
		switch {
		case k.Equal(skip):
		case nested != nil && k.Equal(nested):
			h += pairHash(k.Hash(), hashWithout(x.Value, nestedSkip, nil, nil))
		default:
			h += pairHash(k.Hash(), uint64(x.Hash()))
		}
	})
	return h
}

// pairHash mixes a member's key and value hashes (members are summed, in
// any order).
func pairHash(k int, v uint64) uint64 {
	x := uint64(k)*0x9e3779b97f4a7c15 ^ v
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// memoEqual reports whether two inputs are equal but for their time and
// their request's id.
func memoEqual(a, b ast.Value) bool {
	return equalWithout(a, b, memoTimeKey, func(k *ast.Term, va, vb ast.Value) bool {
		if k.Equal(memoRequestKey) {
			return equalWithout(va, vb, memoIDKey, nil)
		}
		return sameValue(va, vb)
	})
}

// sameValue is ast.ValueEqual with numbers compared as written: OPA
// takes 1 and 1.0 for equal, but json.marshal and sprintf tell them apart.
func sameValue(a, b ast.Value) bool {
	switch va := a.(type) {
	case ast.Number:
		vb, ok := b.(ast.Number)
		return ok && va == vb
	case *ast.Array:
		vb, ok := b.(*ast.Array)
		if !ok || va.Len() != vb.Len() {
			return false
		}
		for i := range va.Len() {
			if !sameValue(va.Elem(i).Value, vb.Elem(i).Value) {
				return false
			}
		}
		return true
	case ast.Object:
		return equalWithout(a, b, nil, nil)
	}
	return ast.ValueEqual(a, b)
}

// equalWithout reports whether objects a and b have the same members but
// for skip (none when nil), comparing values with same (sameValue when
// nil).
func equalWithout(a, b ast.Value, skip *ast.Term, same func(k *ast.Term, va, vb ast.Value) bool) bool {
	oa, ok := a.(ast.Object)
	ob, ok2 := b.(ast.Object)
	if !ok || !ok2 || oa.Len() != ob.Len() {
		return false
	}
	if oa.Len() == 0 { // the {} of a member that does not apply
		return true
	}
	if skip != nil && (oa.Get(skip) == nil) != (ob.Get(skip) == nil) {
		return false
	}
	equal := true
	oa.Foreach(func(k, va *ast.Term) {
		if !equal || (skip != nil && k.Equal(skip)) {
			return
		}
		vb := ob.Get(k)
		switch {
		case vb == nil:
			equal = false
		case vb == va: // one part shared by both inputs (inputparts.go)
		case same != nil:
			equal = same(k, va.Value, vb.Value)
		default:
			equal = sameValue(va.Value, vb.Value)
		}
	})
	return equal
}
