package replay

import "github.com/open-policy-agent/opa/v1/ast"

// ToValueMatches reports whether toValue converts x as
// ast.InterfaceToValue does, with the string table strs (nil: a new one).
func ToValueMatches(x any, strs map[string]ast.Value) bool {
	if strs == nil {
		strs = stringTable{}
	}
	want, wantErr := ast.InterfaceToValue(x)
	got, err := toValue(x, strs)
	if err != nil || wantErr != nil {
		return (err != nil) == (wantErr != nil)
	}
	return got.Compare(want) == 0 && got.String() == want.String()
}
