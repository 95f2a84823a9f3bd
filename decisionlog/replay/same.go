package replay

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/policy"
	"github.com/open-policy-agent/opa/v1/ast"
)

// sameResult reports whether the logged decision document and the
// replayed one have the same JSON text (sameJSON). A replayed
// policy.Document is compared with the logged one member by member,
// without encoding either; anything sameValue does not handle is encoded.
func sameResult(logged, replayed any) bool {
	if doc, ok := replayed.(policy.Document); ok {
		if same, ok := sameValue(logged, doc.ASTValue()); ok {
			return same
		}
	}
	return sameJSON(logged, replayed)
}

// sameValue compares a as decoded from JSON (maps, slices, json.Number,
// strings, booleans, nil) with v as ast.JSON would encode it: sets in
// their order, numbers by their text. ok is false when it cannot tell
// exactly what the two encodings would say: another Go type, a non-string
// object key, invalid UTF-8 (the encoder replaces it, so two texts
// may meet) or a number text
// the encoder would refuse.
func sameValue(a any, v ast.Value) (same, ok bool) {
	switch x := a.(type) {
	case nil:
		_, isNull := v.(ast.Null)
		return isNull, true
	case bool:
		b, isBool := v.(ast.Boolean)
		return isBool && bool(b) == x, true
	case string:
		s, isStr := v.(ast.String)
		if !utf8.ValidString(x) || (isStr && !utf8.ValidString(string(s))) {
			return false, false
		}
		return isStr && string(s) == x, true
	case json.Number:
		n, isNum := v.(ast.Number)
		if !json.Valid([]byte(x)) || (isNum && !json.Valid([]byte(n))) {
			return false, false
		}
		return isNum && string(n) == string(x), true
	case map[string]any:
		return sameObject(x, v)
	case []any:
		return sameList(x, v)
	}
	return false, false
}

func sameObject(m map[string]any, v ast.Value) (same, ok bool) {
	obj, isObj := v.(ast.Object)
	if !isObj {
		return false, true
	}
	stringKeys := true
	obj.Foreach(func(k, _ *ast.Term) {
		if s, isStr := k.Value.(ast.String); !isStr || !utf8.ValidString(string(s)) {
			stringKeys = false
		}
	})
	if !stringKeys {
		return false, false
	}
	if obj.Len() != len(m) {
		return false, true
	}
	for k := range m {
		if !utf8.ValidString(k) {
			return false, false
		}
	}
	// The keys are unique strings on both sides and as many: the objects
	// hold the same keys when each of obj's is one of m's.
	same, ok = true, true
	obj.Foreach(func(k, t *ast.Term) {
		if !ok {
			return
		}
		x, found := m[string(k.Value.(ast.String))]
		if !found {
			same = false
			return
		}
		s, decided := sameValue(x, t.Value)
		ok = decided
		same = same && s
	})
	if !ok {
		return false, false
	}
	return same, true
}

func sameList(xs []any, v ast.Value) (same, ok bool) {
	var items []*ast.Term
	switch l := v.(type) {
	case *ast.Array:
		items = make([]*ast.Term, l.Len())
		for i := range items {
			items[i] = l.Elem(i)
		}
	case ast.Set:
		items = l.Slice()
	default:
		return false, true
	}
	if len(items) != len(xs) {
		return false, true
	}
	same = true
	for i, x := range xs {
		s, ok := sameValue(x, items[i].Value)
		if !ok {
			return false, false
		}
		same = same && s
	}
	return same, true
}
