package decisionlog

import (
	"encoding/json"
	"reflect"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// ASTValuer is implemented by documents kept in OPA's form, such as the
// policy's decision document, when they go into an event's Input or
// Result. The log then encodes the ast.Value directly instead of through
// the type's MarshalJSON. The bytes are the same either way, provided
// that the type's MarshalJSON writes what encoding/json writes for
// ast.JSON of the value (sets as arrays), as policy.Document does.
type ASTValuer interface {
	ASTValue() ast.Value
}

// The concrete types of OPA's plain objects and sets. Lazy objects (which
// ast.JSON returns as their native Go map) and anything else go through
// ast.JSON.
var (
	astObjectType = reflect.TypeOf(ast.NewObject())
	astSetType    = reflect.TypeOf(ast.NewSet())
)

// appendAST appends v as encoding/json writes ast.JSON(v).
func appendAST(b []byte, v ast.Value) ([]byte, error) {
	w := astWriters.Get().(*astWriter)
	b, err := w.value(b, v)
	w.b, w.err = nil, nil // hold no document while pooled
	astWriters.Put(w)
	return b, err
}

// astWriter appends OPA values. One writer serves a whole document: its
// member callback is bound once, so walking an object allocates nothing,
// where a method value or closure handed to Object.Until would escape to
// the heap for every object.
type astWriter struct {
	// The state of the object being written, saved and restored around
	// a nested one.
	b      []byte
	plain  bool // every key so far is a string, and none repeats the one before
	err    error
	member int
	// last is the key of the member before, in the object's (sorted)
	// order, where a repeated key would sit next to its twin.
	last *ast.Term
	// omitTop: the next object is an input document whose omittable
	// members that are {} are left out (compact.go); omit says so of the
	// object being written.
	omitTop, omit bool

	addFn func(k, v *ast.Term) bool // addMember, bound once
}

// astWriters is filled in init: its New refers (through the writer's
// methods) back to appendAST, which uses it.
var astWriters sync.Pool

func init() { astWriters.New = func() any { return newASTWriter() } }

func newASTWriter() *astWriter {
	w := &astWriter{}
	w.addFn = w.addMember
	return w
}

// value appends v as encoding/json writes ast.JSON(v).
func (w *astWriter) value(b []byte, v ast.Value) ([]byte, error) {
	switch x := v.(type) {
	case ast.Null:
		return append(b, "null"...), nil
	case ast.Boolean:
		return appendValue(b, bool(x))
	case ast.Number:
		return appendNumber(b, jsonNumber(x))
	case ast.String:
		return appendString(b, string(x)), nil
	case *ast.Array:
		return w.array(b, x)
	case ast.Object:
		if reflect.TypeOf(x) == astObjectType {
			if b2, ok, err := w.object(b, x); ok || err != nil {
				return b2, err
			}
		}
	case ast.Set:
		if reflect.TypeOf(x) == astSetType {
			return w.set(b, x)
		}
	}
	doc, err := ast.JSON(v)
	if err != nil {
		return nil, err
	}
	return appendValue(b, doc)
}

func (w *astWriter) array(b []byte, a *ast.Array) ([]byte, error) {
	var err error
	b = append(b, '[')
	for i := range a.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = w.value(b, a.Elem(i).Value); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// set appends a set as ast.JSON makes it: an array in the set's (sorted)
// order.
func (w *astWriter) set(b []byte, s ast.Set) ([]byte, error) {
	var err error
	b = append(b, '[')
	for i, t := range s.Slice() {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = w.value(b, t.Value); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// object appends an object whose keys are all strings, in the object's
// own order, which for string keys is byte order, as encoding/json sorts
// a map's; ok is false (and nothing appended) when a key is not a string,
// which ast.JSON turns into its JSON text, or when a key is repeated
// (ast.NewObject keeps both members of a repeated key): ast.JSON makes a
// map of it, which holds one, so a line never carries a member twice.
func (w *astWriter) object(b []byte, o ast.Object) (_ []byte, ok bool, err error) {
	outerB, outerPlain, outerErr, outerMember, outerOmit, outerLast := w.b, w.plain, w.err, w.member, w.omit, w.last
	w.b, w.plain, w.err, w.member, w.omit, w.last = append(b, '{'), true, nil, 0, w.omitTop, nil
	w.omitTop = false
	o.Until(w.addFn)
	inner, plain, err := w.b, w.plain, w.err
	w.b, w.plain, w.err, w.member, w.omit, w.last = outerB, outerPlain, outerErr, outerMember, outerOmit, outerLast
	switch {
	case !plain:
		return b, false, nil
	case err != nil:
		return nil, true, err
	}
	return append(inner, '}'), true, nil
}

// addMember appends one member of the object being written; it stops the
// walk (returns true) at a key that is not a string, at a key equal to the
// one before, or at an error.
func (w *astWriter) addMember(k, v *ast.Term) bool {
	key, ok := k.Value.(ast.String)
	if !ok || w.last != nil && w.last.Value.(ast.String) == key {
		w.plain = false
		return true
	}
	w.last = k
	if w.omit && omittableInput[string(key)] {
		if o, ok := v.Value.(ast.Object); ok && o.Len() == 0 {
			return false
		}
	}
	if w.member > 0 {
		w.b = append(w.b, ',')
	}
	w.member++
	w.b = appendString(w.b, string(key))
	w.b = append(w.b, ':')
	w.b, w.err = w.value(w.b, v.Value)
	return w.err != nil
}

// jsonNumber is n as ast.JSON returns it.
func jsonNumber(n ast.Number) json.Number { return json.Number(n) }
