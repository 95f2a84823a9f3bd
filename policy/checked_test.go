package policy

import (
	"context"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestCheckedMark: the first compile of a set runs every stage and marks
// it; the next skips the check-only stages; a changed module has no mark.
func TestCheckedMark(t *testing.T) {
	dir := t.TempDir()
	src := Embedded()
	if wasChecked(dir, src, false) {
		t.Fatal("marked before any compile")
	}
	if _, err := New(context.Background(), src, Options{Data: benchConfig, CheckedDir: dir}); err != nil {
		t.Fatal(err)
	}
	if !wasChecked(dir, src, false) {
		t.Fatal("not marked after a full compile")
	}
	if _, err := New(context.Background(), src, Options{Data: benchConfig, CheckedDir: dir}); err != nil {
		t.Fatal(err)
	}
	changed := &Source{Name: "changed", Modules: maps.Clone(src.Modules)}
	for name := range changed.Modules {
		changed.Modules[name] += "\n# changed\n"
		break
	}
	if wasChecked(dir, changed, false) {
		t.Fatal("a changed set counts as checked")
	}
	bad := &Source{Name: "bad", Modules: map[string]string{"x.rego": "package x\n\np if { q(1) }\n"}}
	if _, err := New(context.Background(), bad, Options{CheckedDir: dir}); err == nil {
		t.Fatal("an undefined function compiled")
	}
	if wasChecked(dir, bad, false) {
		t.Fatal("a set that failed a check is marked")
	}
	entries, _ := os.ReadDir(dir)
	marks, caches := 0, 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".ast") {
			caches++ // the marked set's parse cache (astcache.go)
		} else {
			marks++
		}
	}
	if marks != 1 || caches != 1 {
		t.Fatalf("%d marks and %d parse caches, want 1 of each", marks, caches)
	}
}

// TestSkippedChecksCompileTheSame compiles the embedded policy with its
// tests (which exercise the rules over hundreds of inputs) once with every
// stage and once without the check-only stages (and, as a marked set is,
// without reading METADATA comments), and requires the same compiled
// modules but for their annotations and every test rule to pass in both.
func TestSkippedChecksCompileTheSame(t *testing.T) {
	emb := Embedded()
	src := &Source{Name: "embedded+tests", Modules: maps.Clone(emb.Modules)}
	maps.Copy(src.Modules, emb.Tests)
	ctx := context.Background()
	full, err := compile(ctx, src, benchConfig, io.Discard, compileMode{})
	if err != nil {
		t.Fatal(err)
	}
	fast, err := compile(ctx, src, benchConfig, io.Discard, compileMode{skipChecks: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(full.modules)) {
		if a, b := withoutAnnotations(full.compiler.Modules[name]), withoutAnnotations(fast.compiler.Modules[name]); a != b {
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

// TestMarkedSetKeepsRegoMetadata: a marked set is parsed without reading
// its METADATA comments, yet a rule that reads its own annotations with
// rego.metadata answers as it does in a full compile.
func TestMarkedSetKeepsRegoMetadata(t *testing.T) {
	src := &Source{Name: "metadata", Modules: map[string]string{"x.rego": `package x

# METADATA
# title: the rule
# custom:
#   severity: high
p := rego.metadata.rule()

q := rego.metadata.chain()
`}}
	ctx := context.Background()
	full, err := compile(ctx, src, nil, io.Discard, compileMode{})
	if err != nil {
		t.Fatal(err)
	}
	fast, err := compile(ctx, src, nil, io.Discard, compileMode{skipChecks: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"data.x.p", "data.x.q"} {
		a, b := evalRef(t, full, ref), evalRef(t, fast, ref)
		if a != b {
			t.Errorf("%s: %s with every stage, %s on a marked set", ref, a, b)
		}
	}
	if p := evalRef(t, fast, "data.x.p"); !strings.Contains(p, `"severity": "high"`) {
		t.Errorf("data.x.p = %s on a marked set, want the rule's annotations", p)
	}
}

// withoutAnnotations is m as text without its METADATA annotations.
func withoutAnnotations(m *ast.Module) string {
	c := m.Copy()
	c.Annotations = nil
	for _, r := range c.Rules {
		r.Annotations = nil
	}
	return c.String()
}
