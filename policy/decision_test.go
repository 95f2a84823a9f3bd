package policy

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// genDecision returns a random decision document, well formed most of the
// time and otherwise wrong in one of the ways parseDecision refuses or
// tolerates.
func genDecision(r *rand.Rand) ast.Value {
	if r.IntN(30) == 0 {
		return pick[ast.Value](r, ast.String("x"), ast.NewArray(), ast.Null{})
	}
	var dens []*ast.Term
	for range pick(r, 0, 0, 1, 1, 2, 3) {
		dens = append(dens, ast.NewTerm(genDenial(r)))
	}
	obj := ast.NewObject()
	allow := len(dens) == 0
	if r.IntN(15) == 0 {
		allow = !allow
	}
	switch r.IntN(20) {
	case 0: // missing
	case 1:
		obj.Insert(keyAllow, ast.StringTerm("true"))
	default:
		obj.Insert(keyAllow, ast.BooleanTerm(allow))
	}
	switch r.IntN(12) {
	case 0: // missing
	case 1:
		obj.Insert(keyDenials, ast.NullTerm())
	case 2:
		obj.Insert(keyDenials, ast.ArrayTerm(dens...))
	case 3:
		obj.Insert(keyDenials, ast.ObjectTerm())
	default:
		obj.Insert(keyDenials, ast.SetTerm(dens...))
	}
	if r.IntN(15) != 0 {
		obj.Insert(keyLimits, ast.NewTerm(genLimits(r)))
	}
	if r.IntN(5) == 0 {
		obj.Insert(ast.StringTerm("extra"), ast.StringTerm("<a&b>\u2028"))
	}
	return obj
}

func genDenial(r *rand.Rand) ast.Value {
	if r.IntN(25) == 0 {
		return ast.String("denied")
	}
	d := ast.NewObject()
	codes := []*ast.Term{ast.StringTerm("PERMISSION_DENIED"), ast.StringTerm("WORKSPACE_VIOLATION"),
		ast.StringTerm("COMMAND_NOT_ALLOWED"), ast.StringTerm("NOT_A_CODE"), ast.IntNumberTerm(3)}
	if r.IntN(15) != 0 {
		d.Insert(keyCode, codes[r.IntN(len(codes))])
	}
	texts := []*ast.Term{ast.StringTerm("a.rule"), ast.StringTerm("b.rule"), ast.StringTerm(""),
		ast.StringTerm("<html> & \u2028"), ast.IntNumberTerm(1), ast.BooleanTerm(true)}
	if r.IntN(8) != 0 {
		d.Insert(keyRule, texts[r.IntN(len(texts))])
	}
	if r.IntN(8) != 0 {
		d.Insert(keyMessage, texts[r.IntN(len(texts))])
	}
	prios := []*ast.Term{ast.IntNumberTerm(10), ast.IntNumberTerm(40), ast.IntNumberTerm(40),
		ast.NumberTerm("1.5"), ast.NumberTerm("1e3"), ast.NumberTerm("99999999999999999999"),
		ast.NumberTerm("-7"), ast.StringTerm("10")}
	if r.IntN(8) != 0 {
		d.Insert(keyPriority, prios[r.IntN(len(prios))])
	}
	return d
}

func genLimits(r *rand.Rand) ast.Value {
	if r.IntN(20) == 0 {
		return ast.NewArray(ast.IntNumberTerm(1))
	}
	l := ast.NewObject()
	vals := []*ast.Term{ast.IntNumberTerm(10000), ast.IntNumberTerm(1048576), ast.NumberTerm("4.194304e+06"),
		ast.NumberTerm("1.5"), ast.NumberTerm("1e300"), ast.NumberTerm("-3"), ast.StringTerm("5"),
		ast.NumberTerm("9007199254740993"), ast.NumberTerm("1e15")}
	keys := []*ast.Term{ast.StringTerm("timeout_ms"), ast.StringTerm("max_bytes"), ast.StringTerm("max_entries"),
		ast.IntNumberTerm(1), ast.BooleanTerm(true)}
	for range r.IntN(4) {
		k := keys[r.IntN(len(keys))]
		if r.IntN(6) != 0 {
			k = keys[r.IntN(3)]
		}
		l.Insert(k, vals[r.IntN(len(vals))])
	}
	return l
}

// slowDecision is how a decision was read before readDecision: through
// ast.JSON and parseDecision.
func slowDecision(v ast.Value) (Decision, error) {
	doc, err := ast.JSON(v)
	if err != nil {
		return Decision{}, err
	}
	return parseDecision(doc)
}

// encodings returns x encoded the ways its users encode it: json.Marshal,
// and an Encoder without HTML escaping and indented (decision log,
// `policy eval`).
func encodings(t *testing.T, x any) [3]string {
	t.Helper()
	var out [3]string
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	out[0] = string(b)
	for i, indent := range []string{"", "  "} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", indent)
		if err := enc.Encode(map[string]any{"result": x}); err != nil {
			t.Fatal(err)
		}
		out[1+i] = buf.String()
	}
	return out
}

// checkReadDecision fails when readDecision reads v otherwise than the
// slow path does. It reports whether the fast path read it.
func checkReadDecision(t *testing.T, v ast.Value) bool {
	t.Helper()
	want, wantErr := slowDecision(v)
	got, gotErr := readDecision(v)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("%v: error %v, want %v", v, gotErr, wantErr)
	}
	if wantErr != nil {
		return false
	}
	if got.Allow != want.Allow || !reflect.DeepEqual(got.Denials, want.Denials) || !reflect.DeepEqual(got.Limits, want.Limits) {
		t.Fatalf("%v:\n got %+v\nwant %+v", v, got, want)
	}
	if g, w := encodings(t, got.Result), encodings(t, want.Result); g != w {
		t.Fatalf("%v: result encodes as\n%q\nwant\n%q", v, g, w)
	}
	_, fast := got.Result.(Document)
	return fast
}

// TestReadDecisionMatchesJSONPath compares readDecision with ast.JSON and
// parseDecision over generated documents, malformed ones included.
func TestReadDecisionMatchesJSONPath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fast, valid := 0, 0
	for range 20000 {
		v := genDecision(r)
		if _, err := slowDecision(v); err == nil {
			valid++
		}
		if checkReadDecision(t, v) {
			fast++
		}
	}
	if fast == 0 || valid == 0 {
		t.Fatalf("%d valid documents, %d read directly", valid, fast)
	}
}

// FuzzReadDecision is TestReadDecisionMatchesJSONPath driven by the fuzzer.
func FuzzReadDecision(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkReadDecision(t, genDecision(rand.New(rand.NewPCG(a, b))))
	})
}
