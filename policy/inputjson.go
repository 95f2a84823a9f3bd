package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/open-policy-agent/opa/v1/ast"
)

// The arguments and the other facts enter the input as their JSON form
// (what json.Marshal writes for the typed value). Their encoding is read
// token by token straight into OPA's value, with the members named in
// action.Spec.Digest replaced on the way: no map[string]any is built and
// converted again. The builder was held to the old
// conversion (json.Marshal, encoding/json with UseNumber, digestAt,
// ast.InterfaceToValue).

// errNotObject is the error for a fact or argument value whose JSON form
// is not an object, which the old conversion could not decode either.
var errNotObject = errors.New("policy: input member is not a JSON object")

// objectValue returns v's JSON form as an OPA object, with the members
// digests names replaced by their Digest. JSON null is the empty object.
func objectValue(v any, digests *digestNode) (ast.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return objectValueOf(b, digests)
}

// marshalArguments is the JSON form of decoded arguments, as objectValue
// reads it.
func marshalArguments(v any) ([]byte, error) { return json.Marshal(v) }

// objectValueOf is objectValue of the JSON form b.
func objectValueOf(b []byte, digests *digestNode) (ast.Value, error) {
	r := readers.Get().(*tokenReader)
	defer func() {
		clear(r.items[:cap(r.items)]) // hold no terms while pooled
		readers.Put(r)
	}()
	r.src.Reset(b)
	r.dec.Reset(&r.src)
	switch r.dec.PeekKind() {
	case 'n':
		return ast.NewObject(), nil
	case '{':
	default:
		return nil, errNotObject
	}
	return r.value(digests)
}

// tokenReader is a pooled JSON token reader over one encoding.
type tokenReader struct {
	src bytes.Reader
	dec jsontext.Decoder
	// items holds the members of the objects being read, innermost last
	// (ast.NewObject copies them out).
	items [][2]*ast.Term
}

var readers = sync.Pool{New: func() any { return new(tokenReader) }}

// value reads the next JSON value; node names the members digested when
// it is an object.
func (r *tokenReader) value(node *digestNode) (ast.Value, error) {
	tok, err := r.dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case 'n':
		return ast.Null{}, nil
	case 't':
		return ast.Boolean(true), nil
	case 'f':
		return ast.Boolean(false), nil
	case '"':
		return ast.String(tok.String()), nil
	case '0':
		return ast.Number(tok.String()), nil
	case '[':
		return r.array(nil)
	case '{':
		return r.object(node)
	}
	return nil, errors.New("policy: unexpected JSON token " + tok.Kind().String())
}

// array reads an array's elements up to its closing bracket; node names
// the members digested in each element that is an object.
func (r *tokenReader) array(node *digestNode) (ast.Value, error) {
	var terms []*ast.Term
	for r.dec.PeekKind() != ']' {
		elem := node
		if r.dec.PeekKind() != '{' {
			elem = nil
		}
		v, err := r.value(elem)
		if err != nil {
			return nil, err
		}
		terms = append(terms, ast.NewTerm(v))
	}
	if _, err := r.dec.ReadToken(); err != nil {
		return nil, err
	}
	return ast.NewArray(terms...), nil
}

// object reads an object's members up to its closing brace, digesting the
// members node names.
func (r *tokenReader) object(node *digestNode) (ast.Value, error) {
	start := len(r.items)
	defer func() { r.items = r.items[:start] }()
	for r.dec.PeekKind() != '}' {
		tok, err := r.dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String()
		var v ast.Value
		if child := node.child(name); child != nil {
			v, err = r.member(child)
		} else {
			v, err = r.value(nil)
		}
		if err != nil {
			return nil, err
		}
		r.items = append(r.items, [2]*ast.Term{ast.InternedTerm(name), ast.NewTerm(v)})
	}
	if _, err := r.dec.ReadToken(); err != nil {
		return nil, err
	}
	return ast.NewObject(r.items[start:]...), nil
}

// member reads the value of a member that m names: a string is digested
// when m is a leaf, an object descends into m.fields, an array's objects
// into m.each.
func (r *tokenReader) member(m *digestMember) (ast.Value, error) {
	switch r.dec.PeekKind() {
	case '"':
		if m.leaf {
			tok, err := r.dec.ReadToken()
			if err != nil {
				return nil, err
			}
			return digestValue(tok.String()), nil
		}
	case '{':
		return r.value(m.fields)
	case '[':
		if m.each != nil {
			if _, err := r.dec.ReadToken(); err != nil {
				return nil, err
			}
			return r.array(m.each)
		}
	}
	return r.value(nil)
}

// digestNode is the tree of an action's Digest names below one object:
// children by member name.
type digestNode struct {
	children map[string]*digestMember
}

// digestMember is what is digested at one member: the member itself when
// it is a string (leaf), members of it when it is an object (fields), or
// members of each object in it when it is an array (each).
type digestMember struct {
	leaf   bool
	fields *digestNode
	each   *digestNode
}

func (n *digestNode) child(name string) *digestMember {
	if n == nil {
		return nil
	}
	return n.children[name]
}

// digestTree builds the tree of names (action.Spec.Digest); nil for none.
// A name element "name[]" descends into every object of the array; the
// last element is the string digested.
func digestTree(names []string) *digestNode {
	if len(names) == 0 {
		return nil
	}
	root := &digestNode{children: map[string]*digestMember{}}
	for _, name := range names {
		node := root
		path := strings.Split(name, ".")
		for i, el := range path {
			el, each := strings.CutSuffix(el, "[]")
			m := node.children[el]
			if m == nil {
				m = &digestMember{}
				node.children[el] = m
			}
			if i == len(path)-1 {
				m.leaf = true
				break
			}
			next := &m.fields
			if each {
				next = &m.each
			}
			if *next == nil {
				*next = &digestNode{children: map[string]*digestMember{}}
			}
			node = *next
		}
	}
	return root
}

// Keys of a digest, made once.
var keyLength, keySHA256 = ast.StringTerm("length"), ast.StringTerm("sha256")

// digestValue is Digest(s) as OPA's value.
func digestValue(s string) ast.Value {
	sum := sha256.Sum256([]byte(s))
	return ast.NewObject(
		[2]*ast.Term{keyLength, ast.NewTerm(jsonInt(len(s)))},
		[2]*ast.Term{keySHA256, ast.StringTerm(hex.EncodeToString(sum[:]))},
	)
}

func jsonInt(n int) ast.Number { return ast.Number(strconv.Itoa(n)) }
