package replay

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// maxInterned bounds a worker's string table; strings past it are
// converted as they come.
const maxInterned = 1 << 14

// stringTable holds the OPA values of strings one worker has converted.
// A log's inputs repeat most of their strings (member names, actions,
// origins, folders); converting each once saves an allocation per use.
// It is a table of strings, not of decisions: every decision is evaluated.
type stringTable map[string]ast.Value

func (t stringTable) value(s string) ast.Value {
	if v, ok := t[s]; ok {
		return v
	}
	v := ast.Value(ast.String(s))
	if len(t) < maxInterned && len(s) <= 256 {
		t[s] = v
	}
	return v
}

// toValue converts a logged input (decoded JSON: maps, slices, strings,
// json.Number, booleans, nil) to OPA's value, as ast.InterfaceToValue
// does (TestToValueMatchesInterfaceToValue), with strings from t.
func toValue(x any, t stringTable) (ast.Value, error) {
	switch x := x.(type) {
	case string:
		return t.value(x), nil
	case []any:
		terms := make([]ast.Term, len(x))
		ptrs := make([]*ast.Term, len(x))
		for i, e := range x {
			v, err := toValue(e, t)
			if err != nil {
				return nil, err
			}
			terms[i].Value = v
			ptrs[i] = &terms[i]
		}
		return ast.NewArray(ptrs...), nil
	case map[string]any:
		terms := make([]ast.Term, 2*len(x))
		items := make([][2]*ast.Term, 0, len(x))
		i := 0
		for k, e := range x {
			v, err := toValue(e, t)
			if err != nil {
				return nil, err
			}
			terms[i].Value, terms[i+1].Value = t.value(k), v
			items = append(items, [2]*ast.Term{&terms[i], &terms[i+1]})
			i += 2
		}
		return ast.NewObject(items...), nil
	}
	return ast.InterfaceToValue(x)
}
