package replay

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/deskbridge/deskbridge/policy"
	"github.com/open-policy-agent/opa/v1/ast"
)

// genValue returns a random JSON-like OPA value: objects, arrays, sets,
// numbers in several spellings, strings with escapes and invalid UTF-8.
func genValue(r *rand.Rand, depth int) ast.Value {
	leaves := []ast.Value{ast.Null{}, ast.Boolean(true), ast.Boolean(false), ast.String("a"),
		ast.String("<&>\u2028"), ast.String("\xff"), ast.String("\xfe"), ast.Number("1"),
		ast.Number("1.0"), ast.Number("1e3"), ast.Number("-0"), ast.String("")}
	if depth == 0 || r.IntN(3) == 0 {
		return leaves[r.IntN(len(leaves))]
	}
	n := r.IntN(4)
	switch r.IntN(4) {
	case 0:
		a := ast.NewArray()
		for range n {
			a = a.Append(ast.NewTerm(genValue(r, depth-1)))
		}
		return a
	case 1:
		s := ast.NewSet()
		for range n {
			s.Add(ast.NewTerm(genValue(r, depth-1)))
		}
		return s
	default:
		o := ast.NewObject()
		keys := []*ast.Term{ast.StringTerm("allow"), ast.StringTerm("denials"), ast.StringTerm("k"),
			ast.StringTerm("\xff"), ast.StringTerm("\xfe"), ast.IntNumberTerm(1)}
		for range n {
			o.Insert(keys[r.IntN(len(keys))], ast.NewTerm(genValue(r, depth-1)))
		}
		return o
	}
}

// logged returns v as the decision log gives it back: encoded, then
// decoded with numbers kept as written.
func logged(t *testing.T, v ast.Value) any {
	t.Helper()
	b, err := json.Marshal(policy.DocumentOf(v))
	if err != nil {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		t.Fatal(err)
	}
	return x
}

// checkSameResult fails when sameResult and sameJSON disagree on a and v.
func checkSameResult(t *testing.T, a any, v ast.Value) bool {
	t.Helper()
	doc := policy.DocumentOf(v)
	want := sameJSON(a, doc)
	if got := sameResult(a, doc); got != want {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(doc)
		t.Fatalf("sameResult(%s, %s) = %v, sameJSON says %v", ja, jb, got, want)
	}
	return want
}

// TestSameResultMatchesJSON compares sameResult with sameJSON over random
// values against their own log form and against other values' (near
// misses included: 1 and 1.0, two invalid UTF-8 strings).
func TestSameResultMatchesJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	same, differ := 0, 0
	for range 20000 {
		v, w := genValue(r, 3), genValue(r, 3)
		for _, pair := range [][2]ast.Value{{v, v}, {v, w}} {
			if checkSameResult(t, logged(t, pair[0]), pair[1]) {
				same++
			} else {
				differ++
			}
		}
	}
	if same == 0 || differ == 0 {
		t.Fatalf("%d same, %d different", same, differ)
	}
}

// FuzzSameResult is TestSameResultMatchesJSON driven by the fuzzer.
func FuzzSameResult(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		v, w := genValue(r, 3), genValue(r, 3)
		checkSameResult(t, logged(t, v), v)
		checkSameResult(t, logged(t, v), w)
	})
}
