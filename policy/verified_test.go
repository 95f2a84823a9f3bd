package policy

import (
	"context"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// trusting sets verifiedSets to hashes for the rest of the test.
func trusting(t *testing.T, hashes ...string) {
	saved := verifiedSets
	verifiedSets = map[string]bool{}
	for _, h := range hashes {
		verifiedSets[h] = true
	}
	t.Cleanup(func() { verifiedSets = saved })
}

// TestEmbeddedPassesEveryCheck is the proof behind verifiedEmbedded: the
// embedded set compiles with every compiler stage, and it has no `with`
// outside its tests (the skipped type check is what tells evaluation
// which `with` targets are functions).
func TestEmbeddedPassesEveryCheck(t *testing.T) {
	trusting(t)
	src := Embedded()
	c, err := compile(context.Background(), src, benchConfig, io.Discard)
	if err != nil {
		t.Fatalf("the embedded policy does not compile: %v", err)
	}
	for name, m := range c.modules {
		ast.WalkWiths(m, func(w *ast.With) bool {
			t.Errorf("%s: %v: `with` outside a test; the check-only stages must not be skipped for it", name, w.Location)
			return true
		})
	}
	if h := src.Hash(nil); h != verifiedEmbedded {
		t.Fatalf("rego/ changed: it passed every check, so set verifiedEmbedded in policy/verified.go to %q", h)
	}
}

// TestSkippedChecksCompileTheSame compiles the embedded policy with its
// tests (which exercise the rules over hundreds of inputs) once with every
// stage and once without the check-only stages, and requires the same
// compiled modules and every test rule to pass in both.
func TestSkippedChecksCompileTheSame(t *testing.T) {
	emb := Embedded()
	src := &Source{Name: "embedded+tests", Modules: maps.Clone(emb.Modules)}
	maps.Copy(src.Modules, emb.Tests)
	ctx := context.Background()

	trusting(t)
	full, err := compile(ctx, src, benchConfig, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	trusting(t, src.Hash(nil))
	if len(skippedStages(src)) == 0 {
		t.Fatal("no stage skipped for a trusted set")
	}
	fast, err := compile(ctx, src, benchConfig, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(full.modules)) {
		if a, b := full.compiler.Modules[name].String(), fast.compiler.Modules[name].String(); a != b {
			t.Errorf("%s compiles differently without the check-only stages:\n%s\n---\n%s", name, a, b)
		}
	}
	n := 0
	for _, name := range slices.Sorted(maps.Keys(emb.Tests)) {
		m := full.compiler.Modules[name]
		for _, r := range m.Rules {
			rule := r.Head.Ref().String()
			if !strings.HasPrefix(rule, "test_") {
				continue
			}
			ref := m.Package.Path.String() + "." + rule
			a, b := evalRef(t, full, ref), evalRef(t, fast, ref)
			if a != b || a != "true" {
				t.Errorf("%s: %s with every stage, %s without the check-only stages", ref, a, b)
			}
			n++
		}
	}
	t.Logf("%d test rules pass in both", n)
	if n < 50 {
		t.Fatalf("compared only %d test rules", n)
	}
}

// evalRef evaluates ref in c and returns its value as text ("undefined" if none).
func evalRef(t *testing.T, c *compiled, ref string) string {
	t.Helper()
	q, err := c.prepare(ref)
	if err != nil {
		t.Fatalf("%s: %v", ref, err)
	}
	v, err := q.eval(context.Background(), ast.NewObject(), nil)
	if err != nil {
		return "error: " + err.Error()
	}
	if v == nil {
		return "undefined"
	}
	return v.String()
}
