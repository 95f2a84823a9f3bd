package actions_test

import (
	"context"
	"io/fs"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"

	deskrego "github.com/deskbridge/deskbridge/rego"
)

// TestRegoAssetsTests runs rego/assets_test.rego against the whole default
// policy set, as the host evaluates it.
func TestRegoAssetsTests(t *testing.T) {
	mods := map[string]*ast.Module{}
	names, _ := fs.Glob(deskrego.FS, "*.rego")
	for _, n := range names {
		b, _ := fs.ReadFile(deskrego.FS, n)
		m, err := ast.ParseModuleWithOpts(n, string(b), ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatal(err)
		}
		mods[n] = m
	}
	ch, err := tester.NewRunner().SetModules(mods).Filter(`assets_test\.`).RunTests(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range ch {
		n++
		if r.Error != nil || r.Fail {
			t.Errorf("%s: fail=%v error=%v", r.Name, r.Fail, r.Error)
		}
	}
	if n < 8 {
		t.Fatalf("%d assets Rego tests ran, want at least 8", n)
	}
}
