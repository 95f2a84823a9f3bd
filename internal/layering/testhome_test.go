package layering

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// homeReaching are the packages whose code builds the user's default paths
// (configuration, state and decision log, browser manifests).
var homeReaching = []string{"config", "install"}

// TestEveryDefaultPathPackageGuardsHome: a package whose tests can reach
// the default paths (its code, or its tests' imports, lead to config or
// install) runs them in a home of their own, through internal/testkit/testhome's
// Main (or Set) in its TestMain. Without it, a test that forgets a path writes the
// real user's decision log.
func TestEveryDefaultPathPackageGuardsHome(t *testing.T) {
	edges := moduleImports(t)
	reaches := reachFunc(edges)
	root, _ := filepath.Abs("../..")
	tests := testImports(t, root)
	checked := 0
	for pkg, info := range tests {
		needs := reaches(pkg)
		for _, imp := range info.imports {
			needs = needs || reaches(imp)
		}
		if !needs || pkg == "internal/testkit/testhome" {
			continue
		}
		checked++
		if !info.guarded {
			t.Errorf("%s: its tests can reach the default paths but no TestMain calls testhome.Main or testhome.Set", pkg)
		}
	}
	if checked < 5 {
		t.Fatalf("only %d packages checked; is the module root %s?", checked, root)
	}
}

// reachFunc returns whether a package's non-test code imports, through any
// chain, one of homeReaching (or is one).
func reachFunc(edges map[string][]string) func(string) bool {
	memo := map[string]bool{}
	var reaches func(string, map[string]bool) bool
	reaches = func(p string, seen map[string]bool) bool {
		if v, ok := memo[p]; ok {
			return v
		}
		for _, h := range homeReaching {
			if under(p, h) {
				memo[p] = true
				return true
			}
		}
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, to := range edges[p] {
			if reaches(to, seen) {
				memo[p] = true
				return true
			}
		}
		return false
	}
	return func(p string) bool { return reaches(p, map[string]bool{}) }
}

type testInfo struct {
	imports []string
	guarded bool
}

// testImports maps each package folder with test files to the module
// packages its test files import, and whether one calls testhome.Main.
func testImports(t *testing.T, root string) map[string]*testInfo {
	t.Helper()
	out := map[string]*testInfo{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		info := out[pkg]
		if info == nil {
			info = &testInfo{}
			out[pkg] = info
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if to, ok := strings.CutPrefix(p, module+"/"); ok {
				info.imports = append(info.imports, to)
			}
		}
		info.guarded = info.guarded || (strings.Contains(string(src), "testhome.Main(m)") || strings.Contains(string(src), "testhome.Set()"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
