package images

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// pixelDecoders are the functions of media/imaging that decode
// pixels: they run in the image worker only.
var pixelDecoders = map[string]bool{"Decode": true, "DecodeAnimation": true, "DecodeWebPAnimation": true}

// TestDecodersRunOnlyInTheWorker: no action's Run function reaches a
// pixel decoder of media/imaging (Decode, DecodeAnimation,
// DecodeWebPAnimation) in the host. The package's static references are
// followed from every Run: a top-level function named anywhere in a
// reachable body (called or passed as a value) is reachable. The pixel
// work reaches the decoders only through registerPixelWork, which the
// worker child runs.
func TestDecodersRunOnlyInTheWorker(t *testing.T) {
	fset := token.NewFileSet()
	files, _ := filepath.Glob("*.go")
	funcs := map[string]*ast.FuncDecl{}
	var runs []ast.Node
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name != "init" {
				funcs[fd.Name.Name] = fd
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if kv, ok := n.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Run" {
					runs = append(runs, kv.Value)
				}
			}
			return true
		})
	}
	if len(runs) < 3 || funcs["registerPixelWork"] == nil {
		t.Fatalf("found %d Run functions and no registerPixelWork: the walk reads the wrong files", len(runs))
	}
	reached := map[string]bool{}
	var visit func(n ast.Node, path string)
	visit = func(n ast.Node, path string) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if pkg, ok := x.X.(*ast.Ident); ok && pkg.Name == "imaging" && pixelDecoders[x.Sel.Name] {
					t.Errorf("the host reaches imaging.%s: %s", x.Sel.Name, path)
				}
			case *ast.Ident:
				if fd := funcs[x.Name]; fd != nil && !reached[x.Name] && x.Name != "registerPixelWork" {
					reached[x.Name] = true
					visit(fd.Body, path+" → "+x.Name)
				}
			}
			return true
		})
	}
	for _, r := range runs {
		visit(r, fset.Position(r.Pos()).String())
	}
	if !reached["runImageJob"] || reached["decodeJob"] {
		t.Errorf("the walk did not follow the image actions as expected: runImageJob %v, decodeJob %v", reached["runImageJob"], reached["decodeJob"])
	}
}
