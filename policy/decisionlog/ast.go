package decisionlog

import (
	"encoding/json"
	"reflect"

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
		return appendASTArray(b, x)
	case ast.Object:
		if reflect.TypeOf(x) == astObjectType {
			if b2, ok, err := appendASTObject(b, x); ok || err != nil {
				return b2, err
			}
		}
	case ast.Set:
		if reflect.TypeOf(x) == astSetType {
			return appendASTSet(b, x)
		}
	}
	doc, err := ast.JSON(v)
	if err != nil {
		return nil, err
	}
	return appendValue(b, doc)
}

func appendASTArray(b []byte, a *ast.Array) ([]byte, error) {
	var err error
	b = append(b, '[')
	for i := range a.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendAST(b, a.Elem(i).Value); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendASTSet appends a set as ast.JSON makes it: an array in the set's
// (sorted) order.
func appendASTSet(b []byte, s ast.Set) ([]byte, error) {
	var err error
	b = append(b, '[')
	for i, t := range s.Slice() {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendAST(b, t.Value); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// objectWriter appends the members of an OPA object in its own order,
// which for string keys is byte order, as encoding/json sorts a map's.
type objectWriter struct {
	b      []byte
	plain  bool // every key so far is a string
	err    error
	member int
}

func (w *objectWriter) add(k, v *ast.Term) bool {
	key, ok := k.Value.(ast.String)
	if !ok {
		w.plain = false
		return true
	}
	if w.member > 0 {
		w.b = append(w.b, ',')
	}
	w.member++
	w.b = appendString(w.b, string(key))
	w.b = append(w.b, ':')
	w.b, w.err = appendAST(w.b, v.Value)
	return w.err != nil
}

// appendASTObject appends an object whose keys are all strings; ok is
// false (and nothing appended) when a key is not a string, which ast.JSON
// turns into its JSON text.
func appendASTObject(b []byte, o ast.Object) (_ []byte, ok bool, err error) {
	w := objectWriter{b: append(b, '{'), plain: true}
	o.Until(w.add)
	switch {
	case !w.plain:
		return b, false, nil
	case w.err != nil:
		return nil, true, w.err
	}
	return append(w.b, '}'), true, nil
}

// jsonNumber is n as ast.JSON returns it.
func jsonNumber(n ast.Number) json.Number { return json.Number(n) }
