package imaging_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// wasmCodecs is where the package's WebAssembly codecs come from: run
// only in the image worker, never to read a header in the host.
const wasmCodecs = "github.com/gen2brain/"

// headerFunc is a function of the package and the imports of its file.
type headerFunc struct {
	body    *ast.BlockStmt
	imports map[string]string // local name → import path
}

// TestInspectRunsNoWebAssembly: Inspect, which inspect_image and every
// action's checks run in the host, and each format's header and
// metadata readers (codec.config, codec.meta) reach no WebAssembly
// codec (github.com/gen2brain/avif, heic, webp): their modules start a
// runtime inside the host and may write to its standard output, the
// native messaging channel. The package's static references are
// followed: a function or method named in a reachable body is
// reachable (every method of that name).
func TestInspectRunsNoWebAssembly(t *testing.T) {
	fset := token.NewFileSet()
	names, _ := filepath.Glob("*.go")
	funcs, methods := map[string]headerFunc{}, map[string][]headerFunc{}
	var roots []headerFunc
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		imports := fileImports(f)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				hf := headerFunc{fd.Body, imports}
				if fd.Recv != nil {
					methods[fd.Name.Name] = append(methods[fd.Name.Name], hf)
				} else {
					funcs[fd.Name.Name] = hf
				}
			}
		}
		for _, e := range headerReaders(f) {
			roots = append(roots, headerFunc{&ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: e}}}, imports})
		}
	}
	if funcs["Inspect"].body == nil || len(roots) < 8 {
		t.Fatalf("found Inspect %v and %d header readers: the walk reads the wrong files", funcs["Inspect"].body != nil, len(roots))
	}
	roots = append(roots, funcs["Inspect"])
	reached := map[string]bool{}
	var visit func(hf headerFunc)
	visit = func(hf headerFunc) {
		ast.Inspect(hf.body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if pkg, ok := x.X.(*ast.Ident); ok && strings.HasPrefix(hf.imports[pkg.Name], wasmCodecs) {
					t.Errorf("a header is read with %s.%s (%s) at %s", pkg.Name, x.Sel.Name, hf.imports[pkg.Name], fset.Position(x.Pos()))
				}
				for i, m := range methods[x.Sel.Name] {
					if key := "method " + x.Sel.Name + strconv.Itoa(i); !reached[key] {
						reached[key] = true
						visit(m)
					}
				}
			case *ast.Ident:
				if fd, ok := funcs[x.Name]; ok && !reached[x.Name] {
					reached[x.Name] = true
					visit(fd)
				}
			}
			return true
		})
	}
	for _, r := range roots {
		visit(r)
	}
	for _, want := range []string{"readHEIFHeader", "decodeAVIFConfig", "avifMeta", "decodeHEICConfig"} {
		if !reached[want] {
			t.Errorf("the walk did not reach %s", want)
		}
	}
	for _, never := range []string{"decodeAVIF", "decodeHEIC"} {
		if reached[never] {
			t.Errorf("the header readers reach the pixel decoder %s", never)
		}
	}
}

// fileImports maps f's local package names to their import paths.
func fileImports(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, s := range f.Imports {
		path, _ := strconv.Unquote(s.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if s.Name != nil {
			name = s.Name.Name
		}
		out[name] = path
	}
	return out
}

// headerReaders are the header and metadata readers (the first and third
// fields) of the codec literals in f: codec{…} and the values of a
// map[…]codec literal.
func headerReaders(f *ast.File) []ast.Expr {
	var out []ast.Expr
	take := func(c *ast.CompositeLit) {
		if len(c.Elts) == 3 {
			out = append(out, c.Elts[0], c.Elts[2])
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		switch typ := c.Type.(type) {
		case *ast.Ident:
			if typ.Name == "codec" {
				take(c)
			}
		case *ast.MapType:
			if v, ok := typ.Value.(*ast.Ident); ok && v.Name == "codec" {
				for _, e := range c.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if vc, ok := kv.Value.(*ast.CompositeLit); ok {
							take(vc)
						}
					}
				}
			}
		}
		return true
	})
	return out
}
