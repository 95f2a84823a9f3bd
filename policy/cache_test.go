package policy

import (
	"math/rand/v2"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// cacheRefs are the refs the cache tests draw from: prefixes of one
// another, so that shadowing and replacement are exercised.
var cacheRefs = []ast.Ref{
	ast.MustParseRef("data"),
	ast.MustParseRef("data.a"),
	ast.MustParseRef("data.a.b"),
	ast.MustParseRef("data.a.b.c"),
	ast.MustParseRef("data.a.c"),
	ast.MustParseRef("data.b"),
	ast.MustParseRef("data.b[1]"),
	ast.MustParseRef(`data.b["1"]`),
	ast.MustParseRef("input.a"),
}

// runVirtualOps applies the operations ops encodes to OPA's virtual
// cache and to ours and fails on the first Get where they disagree.
func runVirtualOps(t *testing.T, ops []byte) {
	t.Helper()
	want := topdown.NewVirtualCache()
	got := getCaches()
	defer putCaches(got)
	depth := 0
	for i := 0; i+1 < len(ops); i += 2 {
		op, arg := ops[i]%5, int(ops[i+1])
		// The ref is passed in a scratch array that is overwritten
		// afterwards, as the evaluator does with the refs it plugs.
		scratch := append(ast.Ref(nil), cacheRefs[arg%len(cacheRefs)]...)
		switch op {
		case 0, 1:
			var v *ast.Term
			if op == 0 {
				v = ast.IntNumberTerm(arg)
			}
			want.Put(scratch, v)
			got.virtual.Put(scratch, v)
		case 2:
			want.Push()
			got.virtual.Push()
			depth++
		case 3:
			if depth > 0 { // OPA's stack panics on popping its last frame
				want.Pop()
				got.virtual.Pop()
				depth--
			}
		}
		clear(scratch)
		for _, ref := range cacheRefs {
			wv, wu := want.Get(ref)
			gv, gu := got.virtual.Get(ref)
			if wu != gu || (wv == nil) != (gv == nil) || (wv != nil && !wv.Equal(gv)) {
				t.Fatalf("after op %d: Get(%v) = %v, %v; OPA's cache says %v, %v", i/2, ref, gv, gu, wv, wu)
			}
		}
	}
}

// TestVirtualCacheMatchesOPA compares our virtual cache with OPA's over
// random sequences of Push, Pop, Put and Put(undefined).
func TestVirtualCacheMatchesOPA(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		ops := make([]byte, 2*(1+r.IntN(40)))
		for i := range ops {
			ops[i] = byte(r.IntN(256))
		}
		runVirtualOps(t, ops)
	}
}

// FuzzVirtualCache is TestVirtualCacheMatchesOPA driven by the fuzzer.
func FuzzVirtualCache(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 0, 2, 3, 0, 1, 1})
	f.Fuzz(func(t *testing.T, ops []byte) { runVirtualOps(t, ops) })
}

// TestBaseCache pins the semantics of OPA's base-document trie: a read
// is answered from the shortest cached prefix, a put replaces what lies
// at or below its ref.
func TestBaseCache(t *testing.T) {
	obj := ast.MustParseTerm(`{"b": {"c": 1}, "c": 2}`).Value
	steps := []struct {
		put  string
		val  ast.Value
		get  string
		want string // "" for a miss
	}{
		{get: "data.a", want: ""},
		{put: "data.a", val: obj, get: "data.a", want: `{"b": {"c": 1}, "c": 2}`},
		{get: "data.a.b.c", want: "1"},
		{get: "data.a.x", want: ""},
		{get: "data", want: ""},
		{put: "data.a.b", val: ast.String("shadowed"), get: "data.a.b", want: `{"c": 1}`},
		{put: "data.a", val: ast.String("new"), get: "data.a", want: `"new"`},
		{get: "data.a.b", want: ""},
		{put: "data.a.c", val: ast.Number("3"), get: "data.a.c", want: ""}, // shadowed by "new", which has no member c
		{put: "data", val: ast.MustParseTerm(`{"z": true}`).Value, get: "data.z", want: "true"},
		{get: "data.a", want: ""},
		{get: "data.a.c", want: ""},
	}
	caches := getCaches()
	defer putCaches(caches)
	for i, s := range steps {
		if s.put != "" {
			ref := append(ast.Ref(nil), ast.MustParseRef(s.put)...)
			caches.base.Put(ref, s.val)
			clear(ref)
		}
		got := caches.base.Get(ast.MustParseRef(s.get))
		switch {
		case s.want == "" && got != nil:
			t.Errorf("step %d: Get(%s) = %v, want a miss", i, s.get, got)
		case s.want != "" && (got == nil || got.Compare(ast.MustParseTerm(s.want).Value) != 0):
			t.Errorf("step %d: Get(%s) = %v, want %s", i, s.get, got, s.want)
		}
	}
}

// TestPooledCachesStartEmpty checks that nothing one evaluation cached is
// seen by the next.
func TestPooledCachesStartEmpty(t *testing.T) {
	for range 10 {
		c := getCaches()
		if v, undef := c.virtual.Get(cacheRefs[1]); v != nil || undef {
			t.Fatal("a pooled virtual cache kept an entry")
		}
		if c.base.Get(cacheRefs[1]) != nil {
			t.Fatal("a pooled base cache kept an entry")
		}
		c.virtual.Put(cacheRefs[1], ast.BooleanTerm(true))
		c.base.Put(cacheRefs[1], ast.Boolean(true))
		putCaches(c)
	}
}
