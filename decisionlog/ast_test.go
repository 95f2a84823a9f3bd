package decisionlog

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// opaDoc is a document kept in OPA's form, encoded as policy.Document
// encodes its value: encoding/json of ast.JSON(v), HTML left as it is.
type opaDoc struct{ v ast.Value }

func (d opaDoc) ASTValue() ast.Value { return d.v }

func (d opaDoc) MarshalJSON() ([]byte, error) {
	x, err := ast.JSON(d.v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// checkAST fails t unless an event holding v in OPA's form encodes the
// same through the ASTValuer fast path as through MarshalJSON.
func checkAST(t *testing.T, v ast.Value) {
	t.Helper()
	checkEncoding(t, &Event{Input: opaDoc{v}, Result: map[string]any{"doc": opaDoc{v}}})
}

func mustParseTerm(t *testing.T, s string) ast.Value {
	t.Helper()
	v, err := ast.ParseTerm(s)
	if err != nil {
		t.Fatal(err)
	}
	return v.Value
}

func TestASTEncoderMatchesMarshalJSON(t *testing.T) {
	odd := "a\"b\\c\x00\x1f<>&\u2028\xff😀"
	terms := []string{
		`null`, `true`, `false`, `0`, `-1.5e+10`, `12345678901234567890123`, `1.0`, `"s"`,
		`[]`, `{}`, `set()`, `[1, "a", null, [true]]`,
		`{"allow": true, "denials": [], "limits": {"max_bytes": 1048576, "timeout_ms": 10000}}`,
		`{"b": 1, "a": 2, "B": {"z": [1, 2], "y": {"x": set()}}, "": ""}`,
		`{"set": {3, 1, 2, "a", [1], {"k": "v"}}}`,
		`{1: "number key", "s": 2}`, `{[1, 2]: "array key"}`, `{{"x": 1}: 1}`, `{null: 1, true: 2}`,
		`{"deny": {{"code": "ACCESS_DENIED", "message": "no"}, {"code": "ACTION_NOT_ALLOWED", "message": "no"}}}`,
	}
	for _, s := range terms {
		t.Run(s, func(t *testing.T) { checkAST(t, mustParseTerm(t, s)) })
	}
	t.Run("odd strings", func(t *testing.T) {
		checkAST(t, ast.NewObject(ast.Item(ast.StringTerm(odd), ast.StringTerm(odd)), ast.Item(ast.StringTerm("k"), ast.SetTerm(ast.StringTerm(odd)))))
	})
	t.Run("repeated key", func(t *testing.T) {
		// ast.NewObject keeps both members of a repeated key; the line
		// must carry one, as encoding/json of ast.JSON does.
		twice := ast.NewObject(ast.Item(ast.StringTerm("s"), ast.IntNumberTerm(0)), ast.Item(ast.StringTerm("s"), ast.SetTerm(ast.StringTerm("s"))))
		checkAST(t, twice)
		checkAST(t, ast.NewObject(ast.Item(ast.StringTerm("a"), ast.NewTerm(twice)), ast.Item(ast.StringTerm(""), ast.NullTerm()), ast.Item(ast.StringTerm(""), ast.BooleanTerm(true))))
	})
	t.Run("many members", func(t *testing.T) {
		obj := ast.NewObject()
		for i := range 40 {
			obj.Insert(ast.StringTerm(strings.Repeat("k", 40-i)), ast.IntNumberTerm(i))
		}
		checkAST(t, obj)
	})
	t.Run("lazy object", func(t *testing.T) {
		checkAST(t, ast.LazyObject(map[string]any{"f": 0.1, "big": 1e21, "n": json.Number("7"), "s": odd, "m": map[string]any{"x": []any{1, "y"}}}))
	})
	t.Run("from Go", func(t *testing.T) {
		v, err := ast.InterfaceToValue(map[string]any{"f": 0.1, "i": math.MaxInt64, "list": []any{"x", 1.5, nil}, odd: odd})
		if err != nil {
			t.Fatal(err)
		}
		checkAST(t, v)
	})
	t.Run("not JSON", func(t *testing.T) { checkAST(t, mustParseTerm(t, `{"r": input.x}`)) })
	t.Run("nil pointer", func(t *testing.T) {
		var p *opaDoc
		checkEncoding(t, &Event{Input: map[string]any{"p": p}})
	})
}

// FuzzASTEncoderMatchesMarshalJSON parses arbitrary Rego terms and
// requires the ASTValuer fast path to write what MarshalJSON writes.
func FuzzASTEncoderMatchesMarshalJSON(f *testing.F) {
	f.Add(`{"a": {1, 2}, "b": [null, true, 1.5e3], "c": {"d": "\u2028"}}`, "x<y")
	f.Add(`{1: 2, "1": 3}`, "\xff")
	f.Add(`set()`, "")
	f.Fuzz(func(t *testing.T, term, s string) {
		v, err := ast.ParseTerm(term)
		if err != nil {
			return
		}
		checkAST(t, v.Value)
		checkAST(t, ast.NewObject(ast.Item(ast.StringTerm(s), v), ast.Item(ast.StringTerm("s"), ast.SetTerm(ast.StringTerm(s), v))))
	})
}
