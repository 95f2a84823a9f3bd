package action

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
)

// TestLimitDefaultIsTheCards: a call whose decision gives no limits runs
// with its card's defaults, every limit of every card and timeout_ms: the
// run functions get no other default (Call.Limit takes none).
func TestLimitDefaultIsTheCards(t *testing.T) {
	for i := range protocol.Actions {
		card := &protocol.Actions[i]
		c := &Call{Request: protocol.Request{Action: card.Name}}
		want := card.DefaultLimits()
		for _, name := range append(slices.Sorted(maps.Keys(card.Limits)), TimeoutLimit) {
			if got := c.Limit(name); got != want[name] {
				t.Errorf("%s: undecided %s = %d, the card's default is %d", card.Name, name, got, want[name])
			}
		}
	}
}

// agentLimits are the only card limits without a default: an agent run's
// limits come from the configuration's agent member (docs/web-agent.md),
// which a decision can only lower.
var agentLimits = []string{"max_file_bytes", "max_lines", "max_results", "max_total_chars", "max_rounds"}

// TestEveryCardLimitHasADefault: a limit of 0 on a card would leave its
// run function to supply a default of its own, a second source; only the
// agent's limits, whose source is the configuration, have none.
func TestEveryCardLimitHasADefault(t *testing.T) {
	for _, card := range protocol.Actions {
		for name, v := range card.Limits {
			if v <= 0 && !(card.Skill == protocol.SkillAgent && slices.Contains(agentLimits, name)) {
				t.Errorf("%s: %s has no default on the card; give it the value the run function should use", card.Name, name)
			}
		}
	}
}

// TestRunFunctionsReadLimitsOnlyThroughTheCard reads every non-test Go
// file under engine/ and fails when one reads a decision's limits other
// than through Call.Limit (so with a default of its own), or reads a
// limit through Call.Limit that no card names (which would always be 0).
func TestRunFunctionsReadLimitsOnlyThroughTheCard(t *testing.T) {
	named := map[string]bool{TimeoutLimit: true}
	for _, card := range protocol.Actions {
		for name := range card.Limits {
			named[name] = true
		}
	}
	reads := 0
	forEachEngineFile(t, func(path string, f *ast.File, fset *token.FileSet) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IndexExpr: // c.Limits["max_bytes"]
				if sel, ok := n.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Limits" && isCallValue(sel.X) &&
					!strings.HasSuffix(path, filepath.Join("action", "action.go")) {
					t.Errorf("%s: reads the decision's Limits directly; use Call.Limit, whose default is the card's", fset.Position(n.Pos()))
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Limit" || len(n.Args) != 1 {
					return true
				}
				lit, ok := n.Args[0].(*ast.BasicLit)
				if !ok {
					return true // a name: the agent's limits, by constant
				}
				name, _ := strconv.Unquote(lit.Value)
				reads++
				if !named[name] {
					t.Errorf("%s: reads limit %q, which no card names", fset.Position(n.Pos()), name)
				}
			}
			return true
		})
	})
	if reads == 0 {
		t.Fatal("found no Call.Limit read under engine/: the scan is broken")
	}
}

// isCallValue reports whether x names an *action.Call by this package's
// conventions (c, call, r.call …).
func isCallValue(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name == "c" || x.Name == "call"
	case *ast.SelectorExpr:
		return x.Sel.Name == "call"
	}
	return false
}

// forEachEngineFile parses every non-test Go file under engine/.
func forEachEngineFile(t *testing.T, fn func(path string, f *ast.File, fset *token.FileSet)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		fn(path, f, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
