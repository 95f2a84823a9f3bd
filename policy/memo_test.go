package policy

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// withExtra is the embedded policy set plus rules in a package extra.
func withExtra(rules string) *Source {
	return withModule("extra.rego", "package extra\n\nimport rego.v1\n\n"+rules+"\n")
}

// withModule is the embedded policy set plus the module name.
func withModule(name, text string) *Source {
	src := Embedded()
	mods := maps.Clone(src.Modules)
	mods[name] = text
	src.Modules = mods
	return src
}

// restamped is in with another time and request id, as the host's next
// request for the same thing would be.
func restamped(in ast.Value, n int) ast.Value {
	out := in.(ast.Object).Copy()
	out.Insert(ast.StringTerm("time_ns"), ast.IntNumberTerm(1_000+n))
	if req, ok := out.Get(ast.StringTerm("request")).Value.(ast.Object); ok {
		req.Insert(ast.StringTerm("id"), ast.StringTerm(fmt.Sprint("memo-", n)))
	}
	return out
}

// Every decision from the memo is the decision evaluating the input gives:
// random inputs, each decided several times with new times and request
// ids, in random order, from several goroutines at once.
func TestMemoDecidesAsEvaluation(t *testing.T) {
	e, err := New(context.Background(), Embedded(), Options{Data: equivConfigs[0]})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 11))
	var inputs []ast.Value
	for range 300 {
		inputs = append(inputs, ast.MustInterfaceToValue(genInput(r)))
	}
	want := make([]Decision, len(inputs))
	for i, in := range inputs {
		if want[i], err = e.Evaluate(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
	var hits sync.Map
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 3))
			for n := range 1_500 {
				i := r.IntN(len(inputs))
				got, err := e.Decide(context.Background(), InputDocumentOf(restamped(inputs[i], g*10_000+n)))
				if err != nil {
					t.Error(err)
					return
				}
				if got.Memo {
					hits.Store(i, true)
				}
				got.Memo = false
				if !reflect.DeepEqual(got, want[i]) {
					t.Errorf("input %d: decided %+v, evaluated %+v", i, got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	n := 0
	hits.Range(func(any, any) bool { n++; return true })
	if n < len(inputs)/2 {
		t.Errorf("only %d of %d inputs were answered from the memo", n, len(inputs))
	}
}

// An input that differs in anything but the time and the request id is
// evaluated, and a hash collision is settled by comparing the inputs.
func TestMemoComparesInputsWhole(t *testing.T) {
	e, err := New(context.Background(), Embedded(), Options{Data: benchConfig})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for n := range 3 { // the memo starts at the second decision
		if d, err := e.Decide(ctx, InputDocumentOf(restamped(benchInput, n))); err != nil || !d.Allow || d.Memo != (n == 2) {
			t.Fatalf("decision %d: %+v, %v", n, d, err)
		}
	}
	var doc map[string]any
	if err := ast.As(benchInput, &doc); err != nil {
		t.Fatal(err)
	}
	doc["paths"].(map[string]any)["target"].(map[string]any)["inside"] = false
	outside := ast.MustInterfaceToValue(doc)
	if d, err := e.Decide(ctx, InputDocumentOf(outside)); err != nil || d.Allow || d.Memo {
		t.Fatalf("a path outside the workspace: %+v, %v", d, err)
	}

	// Give the outside input's hash to the allowed decision: it must not
	// be taken for it.
	allowedHash, _ := memoHash(benchInput)
	outsideHash, _ := memoHash(outside)
	if allowedHash == outsideHash {
		t.Fatal("the two inputs hash alike; the test needs them apart")
	}
	e.memo.mu.Lock()
	e.memo.entries[outsideHash] = e.memo.entries[allowedHash]
	e.memo.mu.Unlock()
	if d, err := e.Decide(ctx, InputDocumentOf(restamped(outside, 10))); err != nil || d.Allow || d.Memo {
		t.Fatalf("a collision answered with another input's decision: %+v, %v", d, err)
	}
}

func TestMemoEqual(t *testing.T) {
	base := benchInput
	other := func(edit func(ast.Object)) ast.Value {
		v := base.(ast.Object).Copy()
		edit(v)
		return v
	}
	req := func(o ast.Object) ast.Object { return o.Get(ast.StringTerm("request")).Value.(ast.Object) }
	for name, c := range map[string]struct {
		b    ast.Value
		want bool
	}{
		"itself":        {base, true},
		"new time":      {other(func(o ast.Object) { o.Insert(ast.StringTerm("time_ns"), ast.IntNumberTerm(5)) }), true},
		"new id":        {other(func(o ast.Object) { req(o).Insert(ast.StringTerm("id"), ast.StringTerm("x")) }), true},
		"other action":  {other(func(o ast.Object) { req(o).Insert(ast.StringTerm("action"), ast.StringTerm("write_file")) }), false},
		"extra member":  {other(func(o ast.Object) { o.Insert(ast.StringTerm("url"), ast.NullTerm()) }), false},
		"extra in req":  {other(func(o ast.Object) { req(o).Insert(ast.StringTerm("x"), ast.NullTerm()) }), false},
		"no time":       {ast.MustInterfaceToValue(map[string]any{"version": 1}), false},
		"not an object": {ast.String("x"), false},
		"id elsewhere":  {other(func(o ast.Object) { o.Insert(ast.StringTerm("id"), ast.StringTerm("x")) }), false},
		"1.0 for 1":     {other(func(o ast.Object) { o.Insert(ast.StringTerm("version"), ast.NumberTerm("1.0")) }), false},
	} {
		if got := memoEqual(base, c.b); got != c.want {
			t.Errorf("%s: memoEqual = %v, want %v", name, got, c.want)
		}
		if c.want {
			hb, _ := memoHash(c.b)
			if ha, _ := memoHash(base); ha != hb {
				t.Errorf("%s: equal inputs hash apart", name)
			}
		}
	}
}

// The memo is off where a decision from it would differ from evaluating:
// a policy that prints, or that reads the time or the request id.
func TestMemoIsOffWhereItWouldDiffer(t *testing.T) {
	for name, c := range map[string]struct {
		module string
		memo   bool
	}{
		"the default set":     {"", true},
		"print":               {`x if print("hi")`, false},
		"reads the time":      {`late if input.time_ns > 5`, false},
		"reads the id":        {`x := input.request.id`, false},
		"reads request whole": {`x := input.request`, false},
		"reads input whole":   {`x := object.get(input, "time_ns", 0)`, false},
		"reads the action":    {`x := input.request.action`, true},
	} {
		src := Embedded()
		if c.module != "" {
			src = withExtra(c.module)
		}
		e, err := New(context.Background(), src, Options{Data: benchConfig})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := newMemo(e) != nil; got != c.memo {
			t.Errorf("%s: memo on = %v, want %v", name, got, c.memo)
		}
	}
}

// A policy that prints prints at every decision, not only the first.
func TestPolicyThatPrintsPrintsEveryTime(t *testing.T) {
	src := withModule("noisy.rego", "package deskbridge.policies.noisy\n\nimport rego.v1\n\n"+
		"deny contains {\"code\": \"ACTION_NOT_ALLOWED\", \"rule\": \"noisy\", \"message\": \"m\", \"priority\": 1} if {\n"+
		"\tprint(\"deciding\", input.request.action)\n\tfalse\n}\n")
	var out strings.Builder
	e, err := New(context.Background(), src, Options{Data: benchConfig, Print: &out})
	if err != nil {
		t.Fatal(err)
	}
	for n := range 4 {
		if d, err := e.Decide(context.Background(), InputDocumentOf(restamped(benchInput, n))); err != nil || !d.Allow || d.Memo {
			t.Fatalf("decision %d: %+v, %v", n, d, err)
		}
	}
	if got := strings.Count(out.String(), "deciding read_file"); got != 4 {
		t.Errorf("printed %d times in 4 decisions:\n%s", got, out.String())
	}
}

// Builtins that read the clock, files or random numbers are refused, so
// that a decision depends only on its input, the policy and the
// configuration: the memo and replay both rest on it.
func TestClockBuiltinsAreRefused(t *testing.T) {
	for _, call := range []string{
		`crypto.x509.parse_and_verify_certificates("")`,
		`crypto.x509.parse_and_verify_certificates_with_options("", {})`,
		`time.now_ns()`,
		`json.match_schema({}, {"$ref": "file:///etc/passwd"})`,
		`json.verify_schema({"$ref": "file:///etc/passwd"})`,
		`io.jwt.encode_sign({"alg": "ES256"}, {}, {})`,
		`io.jwt.encode_sign_raw("{}", "{}", "{}")`,
	} {
		_, err := New(context.Background(), withExtra("x := "+call), Options{Data: benchConfig})
		if err == nil || !strings.Contains(err.Error(), "undefined function") {
			t.Errorf("%s: compiled (%v); it reads the clock", call, err)
		}
	}
}
