package cmdfacts_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
)

// regoDir is the folder of the default policies, relative to this package.
var regoDir = filepath.Join("..", "..", "rego")

func loadCommandModules(t *testing.T, names ...string) map[string]*ast.Module {
	t.Helper()
	mods := map[string]*ast.Module{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(regoDir, n))
		if err != nil {
			t.Fatal(err)
		}
		m, err := ast.ParseModuleWithOpts(n, string(b), ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatal(err)
		}
		mods[n] = m
	}
	return mods
}

func TestCommandsRegoTests(t *testing.T) {
	mods := loadCommandModules(t, "commands.rego", "commands_test.rego")
	ch, err := tester.NewRunner().SetModules(mods).RunTests(context.Background(), nil)
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
	t.Logf("%d Rego tests", n)
	if n == 0 {
		t.Fatal("no Rego test ran")
	}
}
